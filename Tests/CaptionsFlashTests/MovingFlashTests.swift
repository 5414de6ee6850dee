import CaptionsCore
import CaptionsFlash
import Testing

/// Flashing that moves about: flashes large enough to count that pass through a 10° field, or the
/// screen, more than three times a second though no one place flashes that often; and ordinary
/// motion (fades, fast pans) that must not add up to it.
@Suite struct MovingFlashTests {
    /// A white bar hopping between the thirds of the screen, on for `framesEach` frames and then
    /// off as long, one third after the other: each third flashes once a cycle of six steps.
    private static func hoppingThirds(
        width: Int, framesEach: Int, on: (Int, Int, Int) = (255, 255, 255), off: (Int, Int, Int) = (0, 0, 0)
    ) -> (Int) -> (Int, Int) -> (Int, Int, Int) {
        { frame in
            let step = (frame / framesEach) % 6
            return { x, _ in step % 2 == 0 && x * 3 / width == step / 2 ? on : off }
        }
    }

    /// At 30 fps and two frames a step, each third flashes 2.5 times a second (no cell more than
    /// three times) but a flash a third of the screen wide passes 7.5 times a second through the
    /// screen and 5 times through a field across two thirds: every
    /// standard fails it, as flashing that moves. Six frames a step (2.5 flashes a second in all)
    /// passes.
    @Test(arguments: [FlashCriteria.Standard.wcag, .itu, .wcagAAA])
    func flashesHoppingBetweenTheThirdsOfTheScreenFail(standard: FlashCriteria.Standard) throws {
        let builder = FrameBuilder(width: 320, height: 180)
        let criteria = FlashCriteria(standard: standard)
        let fast = builder.scan(fps: 30, seconds: 3, criteria: criteria, picture: Self.hoppingThirds(width: 320, framesEach: 2))
        #expect(fast.verdict == .fail)
        let hazard = try #require(fast.hazards.first)
        #expect(hazard.kind == .general && hazard.moves)
        // A field across two thirds sees eleven transitions in some seconds; the screen, fifteen.
        #expect(hazard.peakFlashesPerSecond == (standard == .itu ? 7.5 : 5.5), "\(hazard)")
        #expect(abs(hazard.peakScreenShare - 1.0 / 3) < 0.02)
        let slow = builder.scan(fps: 30, seconds: 3, criteria: criteria, picture: Self.hoppingThirds(width: 320, framesEach: 6))
        #expect(slow.verdict == .pass)
        // Saturated red against grey of about the same luminance: red flashing that moves.
        let red = builder.scan(
            fps: 30, seconds: 3, criteria: criteria,
            picture: Self.hoppingThirds(width: 320, framesEach: 2, on: (255, 0, 0), off: (127, 127, 127)))
        #expect(red.hazards.map(\.kind) == [.red] && red.hazards.allSatisfy(\.moves))
    }

    /// The same hop at 60 fps with each flash switched on and off row band by row band over four
    /// frames (50 ms): in no one frame does a quarter of a field change, but the onset spread over
    /// 70 ms is one transition, so it fails like the hop whose flashes switch at once. Each third
    /// flashes 2.5 times a second; the bar passes 7.5 times.
    @Test(arguments: [FlashCriteria.Standard.wcag, .itu])
    func flashesWhoseOnsetIsSpreadOverFramesStillCount(standard: FlashCriteria.Standard) throws {
        let builder = FrameBuilder(width: 320, height: 180)
        let report = builder.scan(fps: 60, seconds: 3, criteria: FlashCriteria(standard: standard)) { frame in
            let third = (frame / 8) % 3, phase = frame % 8
            return { x, y in
                let band = (y / 2) % 4
                return x * 3 / 320 == third && phase >= band && phase < 4 + band ? (255, 255, 255) : (0, 0, 0)
            }
        }
        #expect(report.verdict == .fail)
        #expect(report.hazards.first?.moves == true, "\(report.hazards)")
    }

    /// In each half of the screen, once a second, one large flash (77 % of a 10° field) and then
    /// small ones hopping between four places (15 % each; the two halves together over a quarter
    /// of a field's cells, but no field holds both). Only flashes over a quarter of a field count
    /// where they pass, so the field sees two transitions a second, not ten, and it passes.
    @Test func smallFlashesHoppingAboutDoNotCount() {
        let builder = FrameBuilder(width: 320, height: 180)
        let places = [(0, 0, 100, 66), (0, 0, 36, 36), (50, 0, 36, 36), (0, 40, 36, 36), (50, 40, 36, 36)]
        let report = builder.scan(fps: 30, seconds: 3) { frame in
            let step = (frame / 3) % 10
            return { x, y in
                let (left, top, width, height) = places[step / 2]
                let column = x >= 210 ? x - 210 : x
                let lit = step % 2 == 0 && (left..<left + width).contains(column) && (top..<top + height).contains(y)
                return lit ? (255, 255, 255) : (0, 0, 0)
            }
        }
        #expect(report.verdict == .pass)
    }

    /// A picture that dips to black every 0.8 s, fading out and in over three frames, brighter to
    /// the right: cells of different brightness finish their fall in different frames, but a
    /// field's fall that goes on over several frames is one transition (it was three), and each
    /// place flashes 1.25 times a second: no hazard.
    @Test func aDipToBlackOverSeveralFramesIsOneFlash() {
        let builder = FrameBuilder(width: 160, height: 90)
        let report = builder.scan(fps: 30, seconds: 4, criteria: FlashCriteria(warnSustained: true)) { frame in
            let phase = Double(frame).truncatingRemainder(dividingBy: 24)  // 0.8 s at 30 fps
            let fade = min(1, min(phase, 24 - phase) / 3)
            return { x, _ in
                let level = Int((40 + 190 * Double(x) / 160) * fade)
                return (level, level, level)
            }
        }
        #expect(report.verdict == .pass)
        // Two dips fit in some seconds: two flashes, as each place has.
        #expect(report.frames.allSatisfy { $0.flashesPerSecond <= 2 }, "\(report.frames.map(\.flashesPerSecond))")
        #expect(!report.warnings.contains { $0.code == "flash.sustained" })
    }

    /// Broad bright and dark bars panned fast (a third of a field a frame): the edge sweeping
    /// through a field over three frames is one transition of it, not three, and each place
    /// changes about three times a second: no hazard. Saturated red bars on grey the same: a
    /// bar's leading edge turns cells toward red and its trailing edge away, which cancel.
    @Test(arguments: [false, true])
    func fastPansOfBroadBarsPass(red: Bool) {
        let builder = FrameBuilder(width: 320, height: 180)
        let report = builder.scan(fps: 30, seconds: 3) { frame in
            { x, _ in
                if red {
                    let inBar = (x + frame * 30) % 480 < 100
                    return inBar ? (210, 15, 15) : (70, 70, 70)
                }
                return (x + frame * 33) % 640 < 320 ? (40, 40, 40) : (230, 230, 230)
            }
        }
        #expect(report.verdict == .pass, "\(report.hazards)")
    }

    /// A bar hopping between two thirds at 160 × 90, and then at 640 × 360 (another grid of
    /// cells) lit in one of them: seven transitions of a field in a second, four before the join
    /// and three after, none of a cell. The field's count goes on across the change of grid.
    @Test func flashingThatMovesIsCountedAcrossAChangeOfGrid() throws {
        var analyzer = FlashAnalyzer(width: 160, height: 90, criteria: FlashCriteria())
        for index in 0..<75 {
            let builder = index < 60 ? FrameBuilder(width: 160, height: 90) : FrameBuilder(width: 640, height: 360)
            let step = (index - 48) / 2
            builder.withFrame(at: Double(index) / 30, rgb: { x, _ in
                let third = x * 3 / builder.width
                let lit = index >= 60 ? third == 1 : index >= 48 && step % 2 == 0 && third == (step / 2) % 2
                return lit ? (255, 255, 255) : (0, 0, 0)
            }) { analyzer.analyze($0) }
        }
        let report = analyzer.finish()
        #expect(report.verdict == .fail)
        let hazard = try #require(report.hazards.first)
        #expect(hazard.moves && hazard.peakAreaShare <= 1, "\(hazard)")
    }
}

import CaptionsCore
import Foundation
import CaptionsFlash
import Testing

@Suite struct FlashAnalyzerTests {
    private func scan(
        _ builder: FrameBuilder, fps: Double, seconds: Double, criteria: FlashCriteria = FlashCriteria(),
        picture: (Int) -> (Int, Int) -> (Int, Int, Int)
    ) -> FlashReport {
        builder.scan(fps: fps, seconds: seconds, criteria: criteria, picture: picture)
    }

    private static func alternating(_ a: (Int, Int, Int), _ b: (Int, Int, Int), framesEach: Int) -> (Int) -> (Int, Int) -> (Int, Int, Int) {
        { frame in { _, _ in (frame / framesEach) % 2 == 0 ? a : b } }
    }

    @Test func fullScreenBlackWhiteAtFiveHertzFails() {
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 4,
                          picture: Self.alternating((0, 0, 0), (255, 255, 255), framesEach: 3))
        #expect(report.verdict == .fail)
        #expect(report.hazards.map(\.kind) == [.general])
        let hazard = report.hazards[0]
        #expect(hazard.peakFlashesPerSecond >= 4.5)
        #expect(hazard.peakAreaShare > 0.99 && hazard.peakScreenShare > 0.99)
        #expect(hazard.start < 1 && hazard.end > 3.8)
        #expect(!hazard.moves, "the whole screen flashes in place")
        // Apple's model: the picture level follows black and white, and the flashing is a high risk.
        let levels = report.frames.map(\.averagePictureLevel)
        #expect((levels.max() ?? 0) > 0.99 && (levels.min() ?? 1) < 0.01)
        #expect(report.frames.contains { $0.dflRisk > 50 && $0.dflMitigation > 0.5 })
        #expect(report.dflFrameRate == 30)
    }

    @Test func aStillPictureHasNoRiskInApplesModel() {
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 25, seconds: 3, picture: { _ in { x, _ in (x, 128, 200) } })
        #expect(report.verdict == .pass)
        #expect(report.frames.allSatisfy { $0.dflRisk == 0 && $0.dflMitigation == 0 && $0.dflLocalRisk == 0 })
        #expect(report.frames.allSatisfy { $0.averagePictureLevel > 0.1 })
    }

    @Test func twoHertzPasses() {
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 3,
                          picture: Self.alternating((0, 0, 0), (255, 255, 255), framesEach: 8))
        #expect(report.verdict == .pass)
    }

    @Test func aSmallFlashingBoxPassesWCAGButFailsAAA() {
        let box: (Int) -> (Int, Int) -> (Int, Int, Int) = { frame in
            { x, y in
                let inside = (60..<84).contains(x) && (30..<54).contains(y)
                return inside && (frame / 3) % 2 == 0 ? (255, 255, 255) : (128, 128, 128)
            }
        }
        let builder = FrameBuilder(width: 320, height: 180)
        #expect(scan(builder, fps: 30, seconds: 3, picture: box).verdict == .pass)
        #expect(scan(builder, fps: 30, seconds: 3, criteria: FlashCriteria(standard: .wcagAAA), picture: box).verdict == .fail)
    }

    @Test func saturatedRedAgainstGreyFailsAsRedOnly() {
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 24, seconds: 3,
                          picture: Self.alternating((255, 0, 0), (127, 127, 127), framesEach: 3))
        #expect(report.verdict == .fail)
        #expect(report.hazards.map(\.kind) == [.red])
        let harding = scan(FrameBuilder(width: 160, height: 90), fps: 24, seconds: 3,
                           criteria: FlashCriteria(redRule: .harding),
                           picture: Self.alternating((255, 0, 0), (127, 127, 127), framesEach: 3))
        #expect(harding.hazards.map(\.kind) == [.red])
    }

    @Test func smallLuminanceChangesPass() {
        // Grey 150 ↔ 128 is a relative luminance change of 0.089, under 0.1.
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 2,
                          picture: Self.alternating((150, 150, 150), (128, 128, 128), framesEach: 1))
        #expect(report.verdict == .pass)
        #expect(report.frames.allSatisfy { $0.flashesPerSecond == 0 })
    }

    @Test func aSlowFadePasses() {
        let report = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 8) { frame in
            let phase: Double = Double(frame) / 30 * 2 * Double.pi * 0.25
            let level = Int(127.5 + 127.5 * sin(phase))
            return { _, _ in (level, level, level) }
        }
        #expect(report.verdict == .pass)
    }

    @Test func stridesOddSizesMatricesAndRangesAgree() {
        let picture = Self.alternating((0, 0, 0), (255, 255, 255), framesEach: 3)
        var verdicts: [FlashReport.Verdict] = []
        var luminances: [Double] = []
        for (matrix, range, padding) in [(VideoFrame.Matrix.bt709, VideoFrame.Range.limited, 0), (.bt601, .full, 13), (.bt709, .full, 7), (.bt601, .limited, 3)] {
            let builder = FrameBuilder(width: 161, height: 91, matrix: matrix, range: range, padding: padding)
            let report = scan(builder, fps: 30, seconds: 2, picture: picture)
            verdicts.append(report.verdict)
            luminances.append(report.frames[3].meanLuminance)
        }
        #expect(verdicts == [.fail, .fail, .fail, .fail])
        #expect(luminances.allSatisfy { abs($0 - 1) < 0.02 }, "\(luminances)")
    }

    @Test func luminanceComesFromLinearRGBNotTheYPlane() {
        var analyzer = FlashAnalyzer(width: 64, height: 64, criteria: FlashCriteria())
        FrameBuilder(width: 64, height: 64).withFrame(at: 0, rgb: { _, _ in (127, 127, 127) }) { analyzer.analyze($0) }
        let grey = analyzer.finish().frames[0].meanLuminance
        // sRGB 127 is 0.212 in linear light, not 0.5.
        #expect(abs(grey - 0.212) < 0.01, "\(grey)")
    }

    @Test func sustainedFlashingIsAWarningWhenAsked() {
        // 2.5 flashes a second (6 frames on, 6 off at 30 fps) for 6 s: under the limit, but sustained.
        let picture = Self.alternating((0, 0, 0), (255, 255, 255), framesEach: 6)
        let plain = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 6, picture: picture)
        #expect(plain.verdict == .pass && plain.warnings.isEmpty)
        let warned = scan(FrameBuilder(width: 160, height: 90), fps: 30, seconds: 6,
                          criteria: FlashCriteria(warnSustained: true), picture: picture)
        #expect(warned.verdict == .pass)
        #expect(warned.warnings.map(\.code) == ["flash.sustained"])
    }

    @Test func variableFrameRatesAreCountedByPresentationTime() {
        // Frames 21 to 44 ms apart; the picture flips every 100 ms (5 Hz) or every 250 ms (2 Hz).
        let intervals = [0.021, 0.044, 0.033, 0.027, 0.039, 0.024]
        func scanVariable(period: Double) -> FlashReport {
            var analyzer = FlashAnalyzer(width: 64, height: 36, criteria: FlashCriteria())
            var frame = 0
            var time = 0.0
            while time < 3 {
                let white = Int(time / period) % 2 == 0
                FrameBuilder(width: 64, height: 36).withFrame(at: time, rgb: { _, _ in white ? (255, 255, 255) : (0, 0, 0) }) {
                    analyzer.analyze($0)
                }
                time += intervals[frame % intervals.count]
                frame += 1
            }
            return analyzer.finish()
        }
        #expect(scanVariable(period: 0.1).verdict == .fail)
        #expect(scanVariable(period: 0.25).verdict == .pass)
    }

    @Test func ituUsesTheWholeScreen() {
        let halfScreen: (Int) -> (Int, Int) -> (Int, Int, Int) = { frame in
            { x, _ in x < 60 && (frame / 3) % 2 == 0 ? (255, 255, 255) : (0, 0, 0) }
        }
        let builder = FrameBuilder(width: 320, height: 180)
        // A fifth of the screen: over a quarter of some 10° field, under a quarter of the screen.
        #expect(scan(builder, fps: 30, seconds: 2, picture: halfScreen).verdict == .fail)
        #expect(scan(builder, fps: 30, seconds: 2, criteria: FlashCriteria(standard: .itu), picture: halfScreen).verdict == .pass)
    }

    /// Five transitions before SDR and HDR (PQ) video meet and six after: the light kept is carried
    /// to the new scale (SDR white at 200 cd/m²), so the flash that straddles the join fails
    /// either way; counted from the join (as before), it passed.
    @Test(arguments: [true, false])
    func flashesStraddlingAJoinOfSDRAndHDRAreCountedWhole(sdrFirst: Bool) {
        let builder = FrameBuilder(width: 160, height: 90)
        var analyzer = FlashAnalyzer(width: 160, height: 90, criteria: FlashCriteria())
        for index in 0..<60 {
            let hdr = (index >= 30) == sdrFirst
            // White is SDR white, or a PQ signal of about 200 cd/m²; the rest of the time, grey.
            let white = hdr ? 148 : 255
            let level = (15..<45).contains(index) ? ((index - 15) / 3 % 2 == 0 ? white : 0) : 128
            builder.withFrame(at: Double(index) / 30, rgb: { _, _ in (level, level, level) }) { frame in
                var frame = frame
                frame.transfer = hdr ? .pq : .sdr
                analyzer.analyze(frame)
            }
        }
        let report = analyzer.finish()
        #expect(report.verdict == .fail)
        #expect(report.hazards.first.map { $0.start < 1 && $0.end > 1 } == true, "\(report.hazards)")
        // Ten transitions in the second up to frame 45, the two at the join among them (black in
        // HDR after SDR white, HDR white after that black: changes of 200 cd/m²).
        #expect(report.hazards.first?.peakFlashesPerSecond == 5, "\(report.hazards)")
        let change = report.warnings.first { $0.code == "flash.stream.changed" }
        #expect(change?.message.contains("with SDR white at 200 cd/m²") == true, "\(report.warnings)")
        #expect(change?.message.contains(sdrFirst ? "from SDR 160×90" : "from HDR 160×90") == true, "\(report.warnings)")
    }

    /// Five transitions before the scanning changes and six after: only counted together are they
    /// over six in a second, so the analysis has to go on across the change, either way.
    @Test(arguments: [(VideoFrame.FieldOrder.progressive, VideoFrame.FieldOrder.topFirst), (.bottomFirst, .progressive)])
    func flashesStraddlingAChangeOfScanningAreCountedWhole(before: VideoFrame.FieldOrder, after: VideoFrame.FieldOrder) {
        let builder = FrameBuilder(width: 160, height: 90)
        var analyzer = FlashAnalyzer(width: 160, height: 90, criteria: FlashCriteria())
        for index in 0..<60 {
            let level = (15..<45).contains(index) ? ((index - 15) / 3 % 2 == 0 ? 255 : 0) : 128
            builder.withFrame(at: Double(index) / 30, rgb: { _, _ in (level, level, level) }) { frame in
                var frame = frame
                frame.fieldOrder = index < 30 ? before : after
                analyzer.analyze(frame)
            }
        }
        let report = analyzer.finish()
        #expect(report.verdict == .fail)
        #expect(report.hazards.first.map { $0.start < 1 && $0.end > 1 } == true, "\(report.hazards)")
        #expect(report.warnings.contains { $0.code == "flash.stream.changed" && $0.message.contains("goes on across it") })
    }

    /// Pulldown marks pictures top or bottom field first in turn: one warning for all the flips
    /// (a 20 s telecined clip had 222 `flash.stream.changed` lines), and the flash still found.
    @Test func fieldOrderFlipsAreOneWarning() {
        let builder = FrameBuilder(width: 160, height: 90)
        var analyzer = FlashAnalyzer(width: 160, height: 90, criteria: FlashCriteria())
        for index in 0..<60 {
            let level = index / 3 % 2 == 0 ? 255 : 0
            builder.withFrame(at: Double(index) / 30, rgb: { _, _ in (level, level, level) }) { frame in
                var frame = frame
                frame.fieldOrder = index % 5 < 2 ? .bottomFirst : .topFirst
                analyzer.analyze(frame)
            }
        }
        let report = analyzer.finish()
        #expect(report.verdict == .fail)
        #expect(!report.warnings.contains { $0.code == "flash.stream.changed" }, "\(report.warnings)")
        let flips = report.warnings.filter { $0.code == "flash.fieldOrder.changes" }
        #expect(flips.count == 1 && flips.first?.message.contains("23 times") == true, "\(flips)")
    }
}

import CaptionsCommands
import Foundation
import Testing

/// The flash scan on the video people ship: HDR, interlaced, RGB sources, spatial accuracy, stream
/// changes and damage, on clips of Scripts/make-samples.sh whose expected verdicts are worked out
/// from the definitions there, all through the CLI.
@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"), .serialized)
struct FlashRealVideoTests {
    static func file(_ name: String) -> String { FlashSamples.folder.appendingPathComponent(name).path }

    /// Runs `flashes --format json` on a clip; the exit code and the report.
    static func scan(_ name: String, _ options: [String] = []) throws -> (Int32, [String: Any]) {
        let io = MemoryIO()
        let code = run(["flashes", file(name), "--format", "json"] + options, io: io)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        return (code, report)
    }

    static let clips: [(String, Int32)] = [
        ("g-pq-100-140nits-fail.mkv", 2), ("h-pq-400-440nits-pass.mkv", 0), ("i-pq-400-480nits-fail.mkv", 2),
        ("j-pq-0.5-15nits-pass.mkv", 0), ("j2-untagged-pq-sei-fail.mkv", 2), ("k-hlg-100-140nits-fail.mkv", 2),
        ("l-hlg-5-15nits-pass.mkv", 0),
        ("m-odd-field-576i-fail.ts", 2), ("n-even-field-1080i-fail.mp4", 2),
        ("o-gif-fail.gif", 2), ("p-apng-fail.apng", 2), ("q-apng-transparent-pass.apng", 0),
        ("q2-rgba64-png-fail.mov", 2), ("q3-gbrap10-ffv1-fail.mkv", 2), ("q4-rgba64-faint-pass.mov", 0),
        ("q5-prores4444-alpha-fail.mov", 2), ("q6-prores4444-faint-pass.mov", 0), ("q7-yuva420p-ffv1-faint-pass.mkv", 0),
        ("q8-vp9-alpha-flicker-fail.webm", 2), ("q9-vp9-transparent-flash-pass.webm", 0),
        ("r-h264rgb-fail.mkv", 2),
        ("s-box-22pc-pass.mp4", 0), ("t-box-27pc-fail.mp4", 2), ("s2-hopping-thirds-fail.mp4", 2), ("u-checker-0.125deg-fail.mp4", 2), ("u2-checker-halfcell-fail.mp4", 2),
        ("u3-checker-halfcell-1080i-fail.mkv", 2),
        ("v-checker-0.03deg-pass.mp4", 0), ("v2-checker-grey-fail.mp4", 2),
        ("v3-checker-equal-light-pass.mp4", 0),
        ("v4-dots-eighth-fail.mp4", 2), ("v5-dither-seven-eighths-pass.mp4", 0), ("v6-credits-rolling-pass.mp4", 0),
        ("v7-credits-over-flash-fail.mp4", 2), ("v8-stripes-drifting-fail.mp4", 2), ("v9-credits-shaking-fail.mp4", 2), ("v10-colour-flash-behind-motion-fail.mp4", 2),
        ("v11-checker-flash-behind-text-fail.mp4", 2), ("v12-checker-text-rolling-pass.mp4", 0),
        ("v13-credits-720p-subpixel-pass.mp4", 0), ("v14-credits-1080p-subpixel-pass.mp4", 0),
        ("v15-stripes-drifting-720p-fail.mp4", 2),
        ("w-joined-fail.ts", 2), ("w2-joined-grids-fail.ts", 2),
        ("w3-progressive-interlaced-fail.ts", 2), ("w4-interlaced-progressive-fail.ts", 2),
        ("w5-sdr-hdr-joined-fail.ts", 2), ("x-damaged-partial.ts", 1),
        ("x2-corrupt-packets-partial.ts", 1), ("y-repeated-timestamps-fail.mkv", 2),
        ("z-ntsc-square-pass.mp4", 0), ("z-ntsc-pasp-fail.mov", 2), ("z-box-unturned.mp4", 0), ("z-rotation-sei-fail.mp4", 2),
        ("z2-exr-linear-fail.mov", 2), ("z3-offset-start-pass.mkv", 0), ("z4-wide-strip-pass.mp4", 0),
    ]

    @Test(arguments: clips)
    func verdicts(name: String, exitCode: Int32) throws {
        let (code, report) = try Self.scan(name)
        #expect(code == exitCode, "\(name)")
        #expect(report["verdict"] as? String == (exitCode == 2 ? "fail" : "pass"), "\(name)")
        #expect(report["partial"] as? Bool == (exitCode == 1), "\(name)")
    }

    /// Skipping H.264/HEVC deblocking on pictures nothing refers to (the default) and on every
    /// picture (`--fast`) gives the same verdicts and hazard times as full decoding (`--exact`) on
    /// every clip here (`--fast` is not the default: on other files the pictures drift; see
    /// VideoDecoder).
    @Test(arguments: clips.map(\.0) + ["a-black-white-5hz-fail.mp4", "d-red-grey-4hz-fail.mp4", "c-small-box-5hz-pass.mp4"])
    func skippedDeblockingGivesTheSameVerdictsAndTimes(name: String) throws {
        let (exactCode, exact) = try Self.scan(name, ["--exact"])
        let times = { (report: [String: Any]) in
            (report["hazards"] as? [[String: Any]] ?? []).map { "\($0["kind"]!) \($0["start"]!) \($0["end"]!)" }
        }
        for options in [[], ["--fast"]] {
            let (code, report) = try Self.scan(name, options)
            #expect(code == exactCode, "\(name) \(options)")
            #expect(times(report) == times(exact), "\(name) \(options)")
        }
    }

    @Test func hdrIsMeasuredInCandelasPerSquareMetre() throws {
        let (_, pq) = try Self.scan("g-pq-100-140nits-fail.mkv")
        #expect(pq["luminanceUnit"] as? String == "cd/m²")
        #expect((pq["colour"] as? String)?.hasPrefix("PQ (SMPTE ST 2084), BT.2020 matrix, limited range") == true)
        let levels = (pq["frames"] as? [[String: Any]] ?? []).compactMap { $0["luminance"] as? Double }
        #expect(abs((levels.max() ?? 0) - 140) < 2 && abs((levels.min() ?? 0) - 100) < 2, "\(levels.prefix(6))")
        // HLG on a 400 cd/m² display: 55 <-> 74 cd/m², a change under 20: no longer a flash.
        let (code, hlg) = try Self.scan("k-hlg-100-140nits-fail.mkv", ["--hdr-peak", "400"])
        #expect(code == 0)
        #expect((hlg["colour"] as? String)?.contains("400 cd/m² display") == true)
    }

    @Test func theFlashingAreaIsMeasuredWithinTwoPoints() throws {
        for (name, share) in [("s-box-22pc-pass.mp4", 0.221), ("t-box-27pc-fail.mp4", 0.2695)] {
            let (_, report) = try Self.scan(name)
            let area = (report["frames"] as? [[String: Any]] ?? []).compactMap { $0["area"] as? Double }.max() ?? 0
            #expect(abs(area - share) <= 0.02, "\(name): \(area)")
        }
    }

    /// A flash that hops between the thirds of the screen fails as flashing that moves, with the
    /// share of the screen each flash covers; a box flashing in place does not move.
    @Test func flashingThatMovesIsReportedAsMoving() throws {
        let (_, hopping) = try Self.scan("s2-hopping-thirds-fail.mp4")
        let hazard = try #require((hopping["hazards"] as? [[String: Any]])?.first)
        #expect(hazard["moves"] as? Bool == true)
        #expect(abs((hazard["screenArea"] as? Double ?? 0) - 1.0 / 3) < 0.02, "\(hazard)")
        // Eleven transitions in some seconds of a field across two thirds (fifteen of the screen).
        #expect(hazard["flashesPerSecond"] as? Double == 5.5, "\(hazard)")
        let (_, box) = try Self.scan("t-box-27pc-fail.mp4")
        #expect((box["hazards"] as? [[String: Any]])?.first?["moves"] as? Bool == false)
    }

    /// Apple's whole-frame model barely sees a box flashing in a quarter of one 10° field; the
    /// same model on each field's own light does. A full-screen flash is the same to both; a slow
    /// fade is nothing to either.
    @Test func theLocalRiskSeesWhatTheWholeFrameMisses() throws {
        func peaks(_ name: String) throws -> (global: Double, local: Double) {
            let frames = try Self.scan(name).1["frames"] as? [[String: Any]] ?? []
            return (
                frames.compactMap { $0["dfl_risk"] as? Double }.max() ?? -1,
                frames.compactMap { $0["dfl_local_risk"] as? Double }.max() ?? -1
            )
        }
        let box = try peaks("t-box-27pc-fail.mp4")
        #expect(box.global < 1 && box.local > 5, "\(box)")
        let full = try peaks("a-black-white-5hz-fail.mp4")
        #expect(full.global > 50 && abs(full.local - full.global) < 1, "\(full)")
        let fade = try peaks("e-slow-fade-pass.mp4")
        #expect(fade.global == 0 && fade.local == 0, "\(fade)")
    }

    @Test func anInterlacedStreamIsAnalysedByField() throws {
        let (_, report) = try Self.scan("m-odd-field-576i-fail.ts")
        let video = try #require(report["video"] as? [String: Any])
        #expect((video["pictures"] as? String)?.contains("interlaced, top field first") == true)
        let hazard = try #require((report["hazards"] as? [[String: Any]])?.first)
        #expect(hazard["area"] as? Double == 1, "the flashing field covers the whole picture")
    }

    @Test func aResolutionChangeAndATimestampRestartAreReportedAndBridged() throws {
        let (_, report) = try Self.scan("w-joined-fail.ts")
        let codes = (report["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("flash.stream.changed"))
        #expect(codes.contains("media.timestamps.discontinuity"))
        let hazard = try #require((report["hazards"] as? [[String: Any]])?.first)
        let start = try #require(hazard["start"] as? Double)
        let end = try #require(hazard["end"] as? Double)
        #expect(start < 2 && end > 2, "the hazard straddles the join at 2 s: \(start)–\(end)")
        #expect((report["streamStart"] as? Double ?? 0) > 1, "times count from the first frame; the stream's start is kept")
    }

    /// Repeated timestamps are one warning over their span, and do not stretch the clip.
    @Test func repeatedTimestampsKeepTheClipsLength() throws {
        let (_, report) = try Self.scan("y-repeated-timestamps-fail.mkv")
        let warnings = report["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.compactMap { $0["code"] as? String } == ["media.timestamps.repeated"])
        let video = try #require(report["video"] as? [String: Any])
        #expect(abs((video["duration"] as? Double ?? 0) - 3) < 0.01, "30 pictures at 10 a second")
    }

    /// The text report names the colour guesses in one phrase and lists notes only under `-v`;
    /// JSON always has them.
    @Test func notesAreListedUnderVerbose() throws {
        let clip = Self.file("y-repeated-timestamps-fail.mkv")
        let plain = MemoryIO()
        _ = run(["flashes", clip], io: plain)
        #expect(plain.outputText.contains("primaries (partly guessed: the stream does not say)"))
        #expect(plain.outputText.contains("notes (-v lists them)"))
        #expect(!plain.outputText.contains("note: "))
        let verbose = MemoryIO()
        _ = run(["flashes", clip, "-v"], io: verbose)
        #expect(verbose.outputText.contains("note: the stream does not say its YUV matrix: BT.601 assumed"))
        let (_, json) = try Self.scan("y-repeated-timestamps-fail.mkv")
        #expect(json["colourGuessed"] as? Bool == true)
        #expect((json["notes"] as? [String] ?? []).count == 4)
        let (_, tagged) = try Self.scan("g-pq-100-140nits-fail.mkv")
        #expect(tagged["colourGuessed"] as? Bool == false)
    }

    @Test func damageListsTheTimeThatWasNotScanned() throws {
        let io = MemoryIO()
        #expect(run(["flashes", Self.file("x-damaged-partial.ts"), "--format", "json"], io: io) == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        let missing = try #require(report["missing"] as? [[String: Any]])
        #expect(!missing.isEmpty)
        for span in missing {
            let start = span["start"] as? Double ?? 0
            #expect(start > 2 && start < 4, "the damage is in the middle of the 6 s clip: \(span)")
        }
        #expect(io.errors.contains("[media.frames.missing]") || io.errors.contains("[media.frames.damaged]"))
        // The clean original passes, whole.
        #expect(run(["flashes", Self.file("x-clean.ts")], io: MemoryIO()) == 0)
    }

    /// Variable frame rate (a phone or screen recording) is not damage: a picture that stays on
    /// screen longer is analysed as shown, the scan is whole, and flashing is still found. 30 fps
    /// for 2 s, then 10 fps; black and white at 5 Hz throughout (every third frame, then every frame).
    @Test(arguments: [("mkv", false), ("mp4", false), ("mkv", true)])
    func variableFrameRateIsNotDamage(container: String, flashing: Bool) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let clip = folder.appendingPathComponent("vfr.\(container)").path
        let level = flashing ? "if(lt(N\\,60)\\,255*mod(floor(N/3)\\,2)\\,255*mod(N\\,2))" : "128+X/4"
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=320x240:r=30:d=4,format=gray,geq=lum='\(level)',format=yuv420p,"
                + "setpts='if(lt(N,60),N/30,2+(N-60)/10)/TB'",
            "-frames:v", "90", "-c:v", "libx264", "-preset", "ultrafast", "-fps_mode", "vfr", clip,
        ]))
        let io = MemoryIO()
        #expect(run(["flashes", clip, "--format", "json"], io: io) == (flashing ? 2 : 0), "\(io.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        #expect(report["partial"] as? Bool == false, "\(io.errors)")
        #expect((report["missing"] as? [[String: Any]] ?? []).isEmpty)
        // Matroska gives every frame the first rate's duration, so the longer ones are noted as held;
        // MP4 gives each frame its own duration, so nothing looks held.
        let noted = (report["notes"] as? [String] ?? []).contains { $0.hasPrefix("variable frame rate:") }
        #expect(noted == (container == "mkv"), "\(report["notes"] ?? "")")
        if flashing {
            let hazard = try #require((report["hazards"] as? [[String: Any]])?.first)
            #expect((hazard["end"] as? Double ?? 0) > 4, "the flashing at 10 fps is found: \(hazard)")
        }
    }

    /// A file with two video streams says which one was scanned (the other went unsaid); cover
    /// art is not counted.
    @Test func otherVideoStreamsAreNamed() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let clip = folder.appendingPathComponent("two.mkv").path
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1", "-f", "lavfi", "-i", "color=c=white:s=160x120:r=10:d=1",
            "-map", "0", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", clip,
        ]))
        let io = MemoryIO()
        _ = run(["flashes", clip, "--format", "json"], io: io)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        let warnings = (report["warnings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "media.video.others" }
        #expect(warnings.count == 1)
        #expect((warnings.first?["message"] as? String)?.contains("2 video streams: stream 0 was scanned, stream 1 not") == true, "\(warnings)")
        let (_, single) = try Self.scan("a-black-white-5hz-fail.mp4")
        #expect(!(single["warnings"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "media.video.others" })
    }

    @Test func audioLongerThanTheVideoIsNotTruncation() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let clip = folder.appendingPathComponent("long-audio.mkv").path
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-f", "lavfi", "-i", "sine=d=5", "-c:v", "libx264", clip,
        ]))
        let io = MemoryIO()
        #expect(run(["flashes", clip], io: io) == 0, "\(io.errors)")
    }

    @Test func nothingDecodableHasNoVerdict() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // A stream whose every picture is damaged beyond decoding: headers kept, payloads overwritten.
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.file("x-clean.ts")))
        for index in stride(from: 188 * 8, to: data.count, by: 1) where index % 188 > 8 { data[index] = 0x55 }
        let broken = folder.appendingPathComponent("broken.ts")
        try data.write(to: broken)
        let io = MemoryIO()
        let code = run(["flashes", broken.path, "--format", "json"], io: io)
        #expect(code == 1, "never a pass: \(io.errors)")
    }

    @Test func theOutputPathIsCheckedBeforeTheScan() throws {
        // The input does not exist either: the output's error comes first, so it was checked first.
        let io = MemoryIO()
        #expect(run(["flashes", "/nonexistent-input.mp4", "-o", "/nonexistent-folder/report.json"], io: io) == 1)
        #expect(io.errors.contains("[output.unwritable]"))
        #expect(!io.errors.contains("[media.open]"))
    }
}

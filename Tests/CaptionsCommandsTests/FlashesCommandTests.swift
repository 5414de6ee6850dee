import CaptionsCommands
import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// The flash-scan clips of Scripts/make-samples.sh, made once per machine (skipped without ffmpeg).
enum FlashSamples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = root.appendingPathComponent(".build/flash-samples")

    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { return false }
        let process = Process()
        process.executableURL = root.appendingPathComponent("Scripts/make-samples.sh")
        process.arguments = [folder.path]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name + ".mp4").path }

    /// Runs ffmpeg with `arguments`; true when it succeeded.
    static func ffmpeg(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + arguments
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"), .serialized)
struct FlashesCommandTests {
    @Test(arguments: [
        ("a-black-white-5hz-fail", Int32(2), ["general"]), ("b-black-white-2hz-pass", Int32(0), []),
        ("c-small-box-5hz-pass", Int32(0), []), ("d-red-grey-4hz-fail", Int32(2), ["red"]),
        ("e-slow-fade-pass", Int32(0), []), ("f-grey-10hz-pass", Int32(0), []),
    ])
    func verdictsOfTheSampleClips(name: String, exitCode: Int32, kinds: [String]) throws {
        let io = MemoryIO()
        #expect(run(["flashes", FlashSamples.path(name), "--format", "json"], io: io) == exitCode)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        #expect(report["verdict"] as? String == (exitCode == 2 ? "fail" : "pass"))
        #expect(report["partial"] as? Bool == false)
        let hazards = try #require(report["hazards"] as? [[String: Any]])
        #expect(hazards.compactMap { $0["kind"] as? String } == kinds)
    }

    /// Every pixel format FFmpeg hands over, decoded as is or converted: the 5 Hz clip still fails.
    @Test(arguments: [
        ("yuv422p", "ffv1", "mkv"), ("yuv444p", "ffv1", "mkv"), ("yuvj420p", "mjpeg", "avi"), ("nv12", "rawvideo", "nut"),
        ("rgb24", "rawvideo", "nut"), ("gray", "ffv1", "mkv"), ("yuv420p10le", "ffv1", "mkv"),
    ])
    func pixelFormats(format: String, codec: String, container: String) throws {
        let clipFolder = try temporaryFolder()
        defer { removeTemporaryFolder(clipFolder) }
        let clip = clipFolder.appendingPathComponent("clip.\(container)").path
        let flash = "255*lt(mod(N\\,6)\\,3)"
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=160x90:r=30:d=2",
            "-vf", "format=gbrp,geq=r='\(flash)':g='\(flash)':b='\(flash)',scale=out_color_matrix=bt709:out_range=tv,format=\(format)",
            "-c:v", codec, clip,
        ]))
        let io = MemoryIO()
        #expect(run(["flashes", clip, "--format", "json"], io: io) == 2, "\(format): \(io.errors)")
    }

    @Test func theSmallBoxFailsUnderAAA() {
        #expect(run(["flashes", FlashSamples.path("c-small-box-5hz-pass"), "--standard", "wcag-aaa"], io: MemoryIO()) == 2)
    }

    @Test func textReportGivesTheVerdictAndTheRange() {
        let io = MemoryIO()
        #expect(run(["flashes", FlashSamples.path("a-black-white-5hz-fail")], io: io) == 2)
        #expect(io.outputText.contains(": FAIL"))
        #expect(io.outputText.contains("general flashing 00:00:00.000–00:00:04.000"))
    }

    @Test func csvHasOneRowPerFrame() {
        let io = MemoryIO()
        run(["flashes", FlashSamples.path("b-black-white-2hz-pass"), "--format", "csv"], io: io)
        let lines = io.outputText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("time,mean_luminance,flashes_per_second") == true)
        #expect(lines.count == 91)
    }

    @Test func webVTTTrackHasOneMetadataCuePerHazard() throws {
        let io = MemoryIO()
        run(["flashes", FlashSamples.path("d-red-grey-4hz-fail"), "--format", "vtt"], io: io)
        let track = try WebVTTReader().read(io.output)
        #expect(track.kind == .metadata)
        #expect(track.cues.count == 1)
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(track.cues[0].plainText.utf8)) as? [String: Any])
        #expect(payload["kind"] as? String == "red")
        #expect(track.diagnostics.isEmpty)
    }

    @Test func htmlReportIsOneAccessiblePage() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = folder.appendingPathComponent("report.html")
        #expect(run(["flashes", FlashSamples.path("a-black-white-5hz-fail"), "--format", "html", "-o", page.path], io: MemoryIO()) == 2)
        let html = try String(contentsOf: page, encoding: .utf8)
        for part in ["<html lang=\"en\">", "<title>Flash scan:", "<svg", "role=\"img\"", "<table>", "prefers-color-scheme: dark"] {
            #expect(html.contains(part), "\(part)")
        }
        #expect(!html.contains("<script"))
    }

    @Test(.enabled(if: Chromium.isInstalled, "needs chromium"))
    func htmlReportRendersInHeadlessChromium() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = folder.appendingPathComponent("report.html")
        run(["flashes", FlashSamples.path("d-red-grey-4hz-fail"), "--format", "html", "-o", page.path], io: MemoryIO())
        let png = try Chromium.screenshot(of: page, in: folder)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000)
    }

    @Test func unreadableInputExitsOne() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let empty = folder.appendingPathComponent("empty.mp4")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        let garbage = folder.appendingPathComponent("garbage.mp4")
        _ = FileManager.default.createFile(atPath: garbage.path, contents: Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 3) }))
        let audio = folder.appendingPathComponent("audio.m4a")
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", audio.path]))
        // An episode with its artwork: the picture is not video (it was scanned as video that
        // "stops at 0.0 s", a partial PASS).
        let cover = folder.appendingPathComponent("cover.png").path, withCover = folder.appendingPathComponent("episode.m4a").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "color=red:s=64x64:d=0.04", "-frames:v", "1", cover]))
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "sine=d=3", "-i", cover, "-map", "0", "-map", "1", "-c:a", "aac", "-c:v", "png",
            "-disposition:v", "attached_pic", withCover,
        ]))
        // Each failure says why in a user's terms, not FFmpeg's "Invalid argument".
        for (path, code, why) in [(folder.appendingPathComponent("missing.mp4").path, "media.open", "No such file"),
                                  (empty.path, "media.open", "the file is empty (0 bytes)"),
                                  (garbage.path, "media.open", "recognises no audio or video format"),
                                  (audio.path, "media.video.none", "no video stream"),
                                  (withCover, "media.video.none", "no video stream")] {
            let io = MemoryIO()
            #expect(run(["flashes", path], io: io) == 1)
            #expect(io.errors.contains("[\(code)]"), "\(io.errors)")
            #expect(io.errors.contains(why), "\(io.errors)")
            #expect(!io.errors.contains("Invalid argument"), "\(io.errors)")
        }
    }

    @Test func aTruncatedFileGivesAPartialReport() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let whole = folder.appendingPathComponent("whole.mkv")
        #expect(FlashSamples.ffmpeg(["-i", FlashSamples.path("b-black-white-2hz-pass"), "-c", "copy", whole.path]))
        let data = try Data(contentsOf: whole)
        let truncated = folder.appendingPathComponent("truncated.mkv")
        try data.prefix(data.count / 2).write(to: truncated)
        let io = MemoryIO()
        #expect(run(["flashes", truncated.path, "--format", "json"], io: io) == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        #expect(report["partial"] as? Bool == true)
        #expect(io.errors.contains("[media.partial]"))
    }
}

@testable import CaptionsCommands
import Foundation
import Testing

/// What a batch of videos says about itself: its exit code, each result's status, and what
/// `--resume` takes as done.
@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"), .serialized)
struct BatchOutcomeTests {
    /// A folder holding the named sample clips, and `broken.mp4` (not a video) when asked.
    func clips(_ names: [String], broken: Bool = false, in folder: URL) throws -> String {
        let videos = folder.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: FlashSamples.path(name), toPath: videos.appendingPathComponent(name + ".mp4").path)
        }
        if broken { try "not a video\n".write(to: videos.appendingPathComponent("broken.mp4"), atomically: true, encoding: .utf8) }
        return videos.path
    }

    /// The JSON objects of JSON Lines text.
    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// A file that could not be read makes the batch exit 1 even when another video has a hazard
    /// (it exited 2, which the Kubernetes and Slurm examples take for a result, so the unreadable
    /// file was never tried again); a hazard with every file read is still 2.
    @Test func anUnreadableFileOutranksAHazard() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let mixed = try clips(["a-black-white-5hz-fail", "b-black-white-2hz-pass"], broken: true, in: folder)
        let io = MemoryIO()
        #expect(run(["flashes", mixed, "-o", folder.appendingPathComponent("fr").path, "--results", "jsonl"], io: io) == 1, "\(io.errors)")
        #expect(try lines(io.outputText).map { $0["status"] as? String } == ["fail", "ok", "error"])
        try FileManager.default.removeItem(atPath: mixed + "/broken.mp4")
        #expect(run(["flashes", mixed, "-o", folder.appendingPathComponent("again").path, "--results", "jsonl"], io: MemoryIO()) == 2)
        // The order itself: a usage error, then an error, then a hazard.
        #expect([Int32(0), 2, 1, 2, 0].reduce(0, BatchResult.worse) == 1)
        #expect([Int32(2), 64, 1].reduce(0, BatchResult.worse) == 64)
    }

    /// A truncated video whose scanned part passes is `partial`, not an error with no errors
    /// beside a `pass` verdict: its result line and result file say `"partial": true` and which
    /// time was not scanned; a whole video says `"partial": false`.
    @Test func aPartialScanSaysSoInItsResult() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let videos = try clips(["b-black-white-2hz-pass"], in: folder)
        // Index at the front, so that the first 60 % of the file still opens.
        let whole = folder.appendingPathComponent("whole.mp4").path
        #expect(FlashSamples.ffmpeg(["-i", FlashSamples.path("b-black-white-2hz-pass"), "-c", "copy", "-movflags", "+faststart", whole]))
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count * 6 / 10).write(to: URL(fileURLWithPath: videos + "/truncated.mp4"))
        let out = folder.appendingPathComponent("fr").path
        let io = MemoryIO()
        #expect(run(["flashes", videos, "-o", out, "--to", "html", "--results", "jsonl"], io: io) == 1, "\(io.errors)")
        let results = try lines(io.outputText)
        #expect(results.map { $0["status"] as? String } == ["ok", "partial"])
        #expect(results.map { $0["partial"] as? Bool } == [false, true])
        #expect(results[1]["verdict"] as? String == "pass" && results[1]["exit"] as? Int == 1)
        let missing = try #require(results[1]["missing"] as? [[Double]])
        #expect(missing.count == 1 && missing[0][0] > 1 && missing[0][0] < 2 && missing[0][1] == 3, "\(missing)")
        #expect(results[0]["missing"] == nil)
        let kept = try lines(String(contentsOfFile: out + "/.captions-results/truncated.mp4.json", encoding: .utf8))
        #expect(kept.first?["status"] as? String == "partial" && kept.first?["partial"] as? Bool == true)
        #expect(io.errors.contains(": 1 ok, 1 partial\n"), "\(io.errors)")
        #expect(try String(contentsOfFile: out + "/index.html", encoding: .utf8).contains("PASS (partial)"))
    }

    /// `--resume` skips a video only while every report asked for is there: one `--report` file
    /// deleted, the video is scanned again (it was skipped, the report left missing).
    @Test func resumeRedoesAVideoWhoseExtraReportIsGone() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let video = try clips(["b-black-white-2hz-pass"], in: folder) + "/b-black-white-2hz-pass.mp4"
        let out = folder.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let arguments = ["flashes", video, "-o", out, "--resume", "--report", "json", "--report", "html"]
        #expect(run(arguments, io: MemoryIO()) == 0)
        let html = out + "/b-black-white-2hz-pass.html"
        #expect(FileManager.default.fileExists(atPath: html))
        let skipped = MemoryIO()
        #expect(run(arguments, io: skipped) == 0)
        #expect(skipped.errors.contains("(1 already done, skipped)"), "\(skipped.errors)")
        try FileManager.default.removeItem(atPath: html)
        let again = MemoryIO()
        #expect(run(arguments, io: again) == 0)
        #expect(!again.errors.contains("already done"), "\(again.errors)")
        #expect(FileManager.default.fileExists(atPath: html))
    }
}

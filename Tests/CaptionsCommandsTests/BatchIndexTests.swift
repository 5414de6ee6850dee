@testable import CaptionsCommands
import Foundation
import Testing

/// The `index.html` of a folder of HTML reports, when shards write into it at once.
@Suite struct BatchIndexTests {
    /// Four shard processes started together, each rebuilding the page as it ends, leave a page
    /// that lists every result. Without the lock, one that read the results before another's last
    /// ones were written could rename its older page over the full one (rows went missing in most
    /// rounds of this test). The results of an earlier run make each rebuild long enough for the
    /// shards' rebuilds to overlap.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path), "needs the release CLI (Scripts/build.sh)"))
    func fourShardsAtOnceLeaveAPageListingEveryResult() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let names = (1...8).map { "f\($0).srt" }
        for name in names {
            try BatchCommandTests.good.replacingOccurrences(of: "Again", with: name).write(
                to: input.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for round in 1...5 {
            let out = folder.appendingPathComponent("qc\(round)")
            let earlier = out.appendingPathComponent(".captions-results/earlier")
            try FileManager.default.createDirectory(at: earlier, withIntermediateDirectories: true)
            for index in 1...3000 {
                try #"{"path":"earlier/e\#(index).srt","status":"ok","exit":0,"errors":0,"warnings":0,"output":null,"seconds":0}"#
                    .write(to: earlier.appendingPathComponent("e\(index).srt.json"), atomically: false, encoding: .utf8)
            }
            let shards = try (1...4).map { shard in
                let process = Process()
                process.executableURL = BatchCommandTests.executable
                process.arguments = ["check", input.path, "-o", out.path, "--to", "html", "--shard", "\(shard)/4", "--jobs", "1", "-q"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in shards { process.waitUntilExit() }
            let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            let listed = names.filter { page.contains("<a href=\"\($0.replacingOccurrences(of: ".srt", with: ".html"))\">") }
            #expect(listed == names, "round \(round): \(Set(names).subtracting(listed).sorted()) missing")
            #expect(page.components(separatedBy: "<tr class=").count - 1 == 3008, "round \(round)")
        }
    }
}

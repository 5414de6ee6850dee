@testable import CaptionsCommands
import Foundation
import Testing

/// Where a batch writes each input's output below `-o FOLDER`: one rule for every command (the
/// input's path relative to the deepest folder holding every input), what happens when two
/// outputs would still share a name, and a shard left with nothing to do.
@Suite struct BatchLayoutTests {
    /// `tree/a/ep.srt`, `tree/b/ep.srt` and `tree/b/deep/x.srt` below `folder`.
    func tree(in folder: URL) throws -> URL {
        let root = folder.appendingPathComponent("tree")
        for name in ["a/ep.srt", "b/ep.srt", "b/deep/x.srt"] {
            let file = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try BatchCommandTests.good.write(to: file, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// The outputs written below `out` (results and hidden files aside), sorted.
    func written(_ out: String) throws -> [String] {
        let files = FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []
        return files.filter { !$0.hasPrefix(".") && !FileAccess.isDirectory(out + "/" + $0) }.sorted()
    }

    /// Two folders that both hold `ep.srt` keep their own folders (both were `ep.vtt`: refused).
    @Test func twoFoldersKeepTheirNames() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try tree(in: folder)
        let out = folder.appendingPathComponent("out").path
        let io = MemoryIO()
        #expect(run(["convert", root.path + "/a", root.path + "/b", "-r", "-o", out, "--to", "vtt"], io: io) == 0, "\(io.errors)")
        #expect(try written(out) == ["a/ep.vtt", "b/deep/x.vtt", "b/ep.vtt"])
    }

    /// A manifest of absolute paths (`find /abs -name '*.srt'`) keeps the paths below the folder
    /// they share (they were cut to their base names, and the two `ep.srt` clashed); a folder line
    /// keeps its folder as a file line does (it lost it).
    @Test func aManifestOfAbsolutePathsKeepsTheirLayout() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try tree(in: folder)
        let manifest = folder.appendingPathComponent("list.txt")
        try ["a/ep.srt", "b/ep.srt", "b/deep/x.srt"].map { root.path + "/" + $0 }.joined(separator: "\n")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let io = MemoryIO()
        #expect(run(["check", "--manifest", manifest.path, "-o", out, "--to", "json", "-q"], io: io) == 0, "\(io.errors)")
        #expect(try written(out) == ["a/ep.json", "b/deep/x.json", "b/ep.json"])
        // A folder line and a file line: each below the folder both are in.
        try "\(root.path)/a\n\(root.path)/b/ep.srt\n".write(to: manifest, atomically: true, encoding: .utf8)
        let mixed = folder.appendingPathComponent("mixed").path
        #expect(run(["transcript", "--manifest", manifest.path, "-o", mixed, "--to", "txt"], io: MemoryIO()) == 0)
        #expect(try written(mixed) == ["a/ep.txt", "b/ep.txt"])
    }

    /// Inputs named with `../` keep the folders below the one they share (they were cut to base
    /// names, and the two `ep.srt` clashed).
    @Test func pathsThatLeaveTheCurrentFolderKeepTheirLayout() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try tree(in: folder)
        // The tree named from the current folder, up to / and down again: `../../tmp/…`.
        let up = String(repeating: "../", count: FileManager.default.currentDirectoryPath.split(separator: "/").count)
        let named = up + String(root.path.dropFirst())
        let out = folder.appendingPathComponent("out").path
        let io = MemoryIO()
        #expect(run(["convert", named + "/a/ep.srt", named + "/b/../b/ep.srt", "-o", out, "--to", "srt", "--results", "jsonl"], io: io) == 0, "\(io.errors)")
        #expect(try written(out) == ["a/ep.srt", "b/ep.srt"])
        // One folder: paths below it; one file: its base name.
        #expect(InputLayout(inputs: [root.path + "/b"]).relative("deep/x.srt", inFolder: root.path + "/b") == "deep/x.srt")
        #expect(InputLayout(inputs: [named + "/b/deep/x.srt"]).relative(named + "/b/deep/x.srt") == "x.srt")
    }

    /// One folder holding `x.srt` and `x.ssa` no longer stops a whole convert batch (exit 64,
    /// nothing converted): the pair keep their extensions, as check's reports do, with a note.
    @Test func convertKeepsTheExtensionsOfAPairThatWouldShareAName() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try tree(in: folder)
        let ssa = "[Script Info]\nScriptType: v4.00\n\n[Events]\nFormat: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hello\n"
        try ssa.write(to: root.appendingPathComponent("b/ep.ssa"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let io = MemoryIO()
        #expect(run(["convert", root.path, "-r", "-o", out, "--to", "vtt", "-v"], io: io) == 0, "\(io.errors)")
        #expect(try written(out) == ["a/ep.vtt", "b/deep/x.vtt", "b/ep.srt.vtt", "b/ep.ssa.vtt"])
        #expect(io.errors.contains("b/ep.ssa: note: ") && io.errors.contains("[batch.output.extensionKept]"), "\(io.errors)")
    }

    /// A shard whose slice is empty (more shards than files) is normal: a note and exit 0 (it
    /// printed `error:` with exit 0). A catalogue with no files at all is an error in every shard.
    @Test func anEmptyShardIsANoteNotAnError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try tree(in: folder)
        let out = folder.appendingPathComponent("out").path
        var empty = 0
        for shard in 1...8 {
            let io = MemoryIO()
            #expect(run(["convert", root.path + "/a", "-o", out, "--to", "vtt", "--shard", "\(shard)/8"], io: io) == 0, "\(io.errors)")
            #expect(!io.errors.contains("error"), "\(io.errors)")
            if io.errors.contains("captions: note: no caption files to work on in this shard (1 in all, in other shards) [batch.inputs.none]") { empty += 1 }
        }
        #expect(empty == 7)
        let nothing = folder.appendingPathComponent("nothing")
        try FileManager.default.createDirectory(at: nothing, withIntermediateDirectories: true)
        let io = MemoryIO()
        #expect(run(["convert", nothing.path, "-o", out, "--to", "vtt", "--shard", "1/2"], io: io) == 1)
        #expect(io.errors.contains("error: no caption files to work on in any shard [batch.inputs.none]"), "\(io.errors)")
    }
}

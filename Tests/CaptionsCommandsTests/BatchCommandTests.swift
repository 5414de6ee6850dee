@testable import CaptionsCommands
import Foundation
import Testing

/// Many inputs at once: folders, manifests, results, resume, shards across processes, reports.
@Suite struct BatchCommandTests {
    static let good = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nAgain.\n"

    /// `a.srt`, `b.srt`, `season/c.srt`, `season/deep/d.srt`, `season/bad.srt` (no cues) and a
    /// `notes.txt` a folder walk must skip.
    func catalogue(in folder: URL) throws -> URL {
        let root = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("season/deep"), withIntermediateDirectories: true)
        for name in ["a.srt", "b.srt", "season/c.srt", "season/deep/d.srt"] {
            try Self.good.replacingOccurrences(of: "Again", with: name).write(
                to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "not captions\n".write(to: root.appendingPathComponent("season/bad.srt"), atomically: true, encoding: .utf8)
        try "readme\n".write(to: root.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        return root
    }

    /// The JSON objects of JSON Lines text.
    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aFolderConvertsIntoTheSameLayoutWithOneResultPerFile() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let out = folder.appendingPathComponent("out").path
        let io = MemoryIO()
        // One unreadable file: the worst exit code is the batch's.
        #expect(run(["convert", input.path, "-r", "-o", out, "--to", "vtt", "--results", "jsonl", "--jobs", "3"], io: io) == 1)
        let results = try lines(io.outputText)
        let relative = results.compactMap { ($0["path"] as? String).map { String($0.dropFirst(input.path.count + 1)) } }
        #expect(relative == ["a.srt", "b.srt", "season/bad.srt", "season/c.srt", "season/deep/d.srt"])
        #expect(results.map { $0["status"] as? String } == ["ok", "ok", "error", "ok", "ok"])
        #expect(results[0]["cues"] as? Int == 2 && results[2]["errors"] as? Int == 1)
        #expect(results[4]["output"] as? String == out + "/season/deep/d.vtt")
        let converted = try String(contentsOfFile: out + "/season/deep/d.vtt", encoding: .utf8)
        #expect(converted.hasPrefix("WEBVTT") && converted.contains("d.srt."))
        #expect(!FileManager.default.fileExists(atPath: out + "/season/bad.vtt"))
        #expect(io.errors.contains("season/bad.srt:1:1: error:"))
        #expect(io.errors.contains("captions: 5 files in") && io.errors.contains("4 ok, 1 error"))
        // Without --recursive, the folder's own files only.
        let shallow = MemoryIO()
        #expect(run(["convert", input.path, "-o", folder.appendingPathComponent("top").path, "--to", "srt", "--results", "jsonl"], io: shallow) == 0)
        #expect(try lines(shallow.outputText).count == 2)
    }

    @Test func htmlReportsGetAnIndexPageAcrossShards() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let out = folder.appendingPathComponent("reports").path
        let index = out + "/index.html"
        // Two shards into one folder: the page the second writes lists both shards' files.
        _ = run(["check", input.path, "-r", "-o", out, "--to", "html", "--shard", "1/2", "-q"], io: MemoryIO())
        let first = try String(contentsOfFile: index, encoding: .utf8)
        let io = MemoryIO()
        _ = run(["check", input.path, "-r", "-o", out, "--to", "html", "--shard", "2/2"], io: io)
        #expect(io.errors.contains("the reports are listed in \(index)"))
        let page = try String(contentsOfFile: index, encoding: .utf8)
        let rows = page.components(separatedBy: "<tr class=").dropFirst().map { String($0) }
        #expect(rows.count == 5)
        #expect(first.components(separatedBy: "<tr class=").count - 1 < 5)
        // Every name links to its report, which exists; the file that could not be read comes first.
        for name in ["a", "b", "season/c", "season/deep/d"] {
            #expect(page.contains("<a href=\"\(name).html\">"))
            #expect(FileManager.default.fileExists(atPath: out + "/" + name + ".html"))
        }
        // Files that did not pass first (check findings are "fail"), then the one that could not be read.
        let statuses = rows.map { String($0.split(separator: "\"")[0]) }
        let rank = ["fail": 0, "error": 1, "usage": 2, "ok": 3]
        #expect(statuses.contains("fail") && statuses == statuses.sorted { rank[$0]! < rank[$1]! })
        #expect(rows.filter { $0.hasPrefix("\"error\"") }.count == 1 && rows.contains { $0.hasPrefix("\"error\"") && $0.contains("season/bad.srt") })
        #expect(page.contains("<html lang=\"en\">") && page.contains("<th scope=\"col\">Status</th>"))
        // Reports in another format get no page; an input's own index.html is never replaced.
        let text = folder.appendingPathComponent("text").path
        _ = run(["check", input.path, "-o", text, "--to", "text", "-q"], io: MemoryIO())
        #expect(FileManager.default.fileExists(atPath: text + "/a.txt"))
        #expect(!FileManager.default.fileExists(atPath: text + "/index.html"))
        let named = folder.appendingPathComponent("named")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        for name in ["index.srt", "other.srt"] {
            try Self.good.write(to: named.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let namedOut = folder.appendingPathComponent("named-out").path
        _ = run(["check", named.path, "-o", namedOut, "--to", "html", "-q"], io: MemoryIO())
        let own = try String(contentsOfFile: namedOut + "/index.html", encoding: .utf8)
        #expect(!own.contains("<tr class="))
        #expect(try String(contentsOfFile: namedOut + "/captions-index.html", encoding: .utf8).contains("<a href=\"index.html\">"))
        // Inputs whose reports take both names leave the batch's page the next free one (it
        // replaced captions-index.html's own report).
        try Self.good.write(to: named.appendingPathComponent("captions-index.srt"), atomically: true, encoding: .utf8)
        let bothOut = folder.appendingPathComponent("both-out").path
        _ = run(["check", named.path, "-o", bothOut, "--to", "html", "-q"], io: MemoryIO())
        #expect(!(try String(contentsOfFile: bothOut + "/captions-index.html", encoding: .utf8)).contains("<tr class="))
        #expect(try String(contentsOfFile: bothOut + "/captions-index-2.html", encoding: .utf8).contains("<a href=\"captions-index.html\">"))
    }

    @Test func severalInputsNeedAnOutputFolderAndAFormat() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let a = input.appendingPathComponent("a.srt").path, b = input.appendingPathComponent("b.srt").path
        let io = MemoryIO()
        #expect(run(["convert", a, b, "--to", "vtt"], io: io) == 64)
        #expect(run(["convert", a, b, "-o", folder.appendingPathComponent("x").path], io: io) == 64)
        #expect(run(["convert", a, b, "--shard", "0/4", "-o", "x", "--to", "vtt"], io: io) == 64)
        #expect(run(["convert", a, a.replacingOccurrences(of: ".srt", with: ".vtt"), "-o", folder.path, "--to", "vtt"], io: io) != 0)
    }

    @Test func reportsOnInputsThatShareANameKeepTheirExtensions() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there.\n".write(
            to: input.appendingPathComponent("a.vtt"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("qc").path
        let io = MemoryIO()
        _ = run(["check", input.path, "-o", out, "--to", "text", "--results", "jsonl"], io: io)
        let outputs = try lines(io.outputText).compactMap { $0["output"] as? String }.map { String($0.dropFirst(out.count + 1)) }
        // a.srt and a.vtt would both be a.txt: each keeps its extension; b.srt is b.txt as before.
        #expect(outputs == ["a.srt.txt", "a.vtt.txt", "b.txt"], "\(io.errors)")
        for name in outputs { #expect(FileManager.default.fileExists(atPath: out + "/" + name)) }
        // Transcripts too (each is a document about its input): the batch was refused.
        let pages = folder.appendingPathComponent("pages").path
        #expect(run(["transcript", input.path, "-o", pages, "--to", "md", "-q"], io: MemoryIO()) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages).filter { $0.hasSuffix(".md") }.sorted() == ["a.srt.md", "a.vtt.md", "b.md"])
    }

    /// Outputs are named over every input before the shard's slice is taken: `a.srt` and `a.vtt`
    /// (which fall in different shards of two) keep their extensions in every shard, as in one
    /// process, rather than both becoming `a.ttml` one shard at a time. A file named twice is
    /// worked on once.
    @Test func shardsNameOutputsAsOneProcessDoes() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there.\n".write(
            to: input.appendingPathComponent("a.vtt"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        for shard in ["1/2", "2/2"] {
            #expect(run(["convert", input.path, "-o", out, "--to", "ttml", "--shard", shard], io: MemoryIO()) == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted() == ["a.srt.ttml", "a.vtt.ttml", "b.ttml"])
        let qc = folder.appendingPathComponent("qc").path
        for shard in ["1/2", "2/2"] {
            _ = run(["check", input.path, "-o", qc, "--to", "text", "--shard", shard, "-q"], io: MemoryIO())
        }
        let reports = try FileManager.default.contentsOfDirectory(atPath: qc).filter { !$0.hasPrefix(".") }.sorted()
        #expect(reports == ["a.srt.txt", "a.vtt.txt", "b.txt"])
        let a = input.appendingPathComponent("a.srt").path
        let twice = MemoryIO()
        #expect(run(["convert", a, input.path + "/./a.srt", "-o", out, "--to", "vtt", "--results", "jsonl"], io: twice) == 0)
        #expect(try lines(twice.outputText).count == 1)
        #expect(twice.errors.contains("warning: named more than once; it is worked on once [input.duplicate]"))
    }

    /// A file whose name is not UTF-8 (Latin-1 `café.srt`) is an error of its own, never skipped
    /// without a word, and the others are worked on.
    @Test func aFileNameThatIsNotUTF8IsAnError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        // `input/<stem>é<suffix>` with é in Latin-1 (a name that is not UTF-8): a file, or a folder
        // holding the file `holding`.
        func makeLatin1(_ stem: String, _ suffix: String = "", holding: String? = nil) throws {
            var name = Array((input.path + "/" + stem).utf8CString.dropLast()) + [CChar(bitPattern: 0xE9)] + Array(suffix.utf8CString)
            var file = name
            if let holding {
                try #require(mkdir(&name, 0o755) == 0)
                file = Array(name.dropLast()) + Array(("/" + holding).utf8CString)
            }
            let descriptor = open(&file, O_CREAT | O_WRONLY, 0o644)
            try #require(descriptor >= 0)
            close(descriptor)
        }
        try makeLatin1("caf", ".srt")
        let io = MemoryIO()
        #expect(run(["convert", input.path, "-o", folder.appendingPathComponent("out").path, "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("caf\u{FFFD}.srt: error: the file name is not UTF-8"), "\(io.errors)")
        #expect(io.errors.contains("3 files") && io.errors.contains("2 ok, 1 error"), "\(io.errors)")
        // A folder so named that holds captions is said too (what it held was skipped without a
        // word), and each has its result line; one that holds nothing to work on is not.
        try makeLatin1("d", holding: "e.srt")
        try makeLatin1("f", holding: "cover.jpg")
        let results = MemoryIO()
        #expect(run(["check", input.path, "--recursive", "--results", "jsonl"], io: results) == 1)
        #expect(results.errors.contains("d\u{FFFD}/: error: the folder name is not UTF-8"), "\(results.errors)")
        let failed = try lines(results.outputText).filter { $0["status"] as? String == "error" }.compactMap { $0["path"] as? String }
        #expect(failed.contains { $0.hasSuffix("d\u{FFFD}/") } && failed.contains { $0.hasSuffix("caf\u{FFFD}.srt") }, "\(failed)")
        #expect(!results.errors.contains("f\u{FFFD}/") && failed.filter { $0.contains("\u{FFFD}") }.count == 2, "\(failed)")
    }

    /// An output folder inside the input folder is not searched: a second run does not take the
    /// first one's outputs for inputs (they became `out/out/a.vtt`).
    @Test func anOutputFolderInsideTheInputsIsNotAnInput() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let out = input.appendingPathComponent("out").path
        for _ in 0..<2 {
            let io = MemoryIO()
            // Five inputs, one of them not captions (exit 1 for it).
            #expect(run(["convert", input.path, "-r", "-o", out, "--to", "vtt", "--results", "jsonl"], io: io) == 1, "\(io.errors)")
            #expect(try lines(io.outputText).count == 5)
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/out"))
    }

    /// A link to a folder is not entered (links can loop) and a link to nothing is skipped, each
    /// with a warning: both were left out without a word, even under -v.
    @Test func linksNotFollowedAreSaid() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Self.good.write(to: elsewhere.appendingPathComponent("x.srt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("linked").path, withDestinationPath: elsewhere.path)
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("gone.srt").path, withDestinationPath: "nowhere.srt")
        let io = MemoryIO()
        _ = run(["convert", input.path, "-r", "-o", folder.appendingPathComponent("out").path, "--to", "vtt"], io: io)
        #expect(io.errors.contains("linked: warning: a link to a folder, not followed") && io.errors.contains("[input.link.skipped]"), "\(io.errors)")
        #expect(io.errors.contains("gone.srt: warning: a link to nothing, skipped [input.link.dangling]"), "\(io.errors)")
    }

    @Test func resumeSkipsWhatIsDoneAndRedoesWhatChanged() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let manifest = folder.appendingPathComponent("list.txt")
        // Saved by Notepad: a byte order mark, CRLF.
        try "\u{FEFF}# the catalogue\r\n\(input.path)/a.srt\r\n\r\n\(input.path)/season/c.srt\r\n".write(to: manifest, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        #expect(run(["convert", "--manifest", manifest.path, "-o", out, "--to", "vtt"], io: MemoryIO()) == 0)
        // Each keeps its path below the folder both are in.
        let kept = out + "/.captions-results/a.srt.json"
        let first = try String(contentsOfFile: kept, encoding: .utf8)
        let unchanged = try String(contentsOfFile: out + "/.captions-results/season/c.srt.json", encoding: .utf8)
        try Self.good.replacingOccurrences(of: "Hello", with: "Changed").write(
            to: input.appendingPathComponent("a.srt"), atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["convert", "--manifest", manifest.path, "-o", out, "--to", "vtt", "--resume", "--results", "jsonl"], io: io) == 0)
        #expect(io.errors.contains("(1 already done, skipped)"))
        // The unchanged file's result is the one kept; the changed one was converted again.
        #expect(try String(contentsOfFile: out + "/.captions-results/season/c.srt.json", encoding: .utf8) == unchanged)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) != first)
        #expect(try String(contentsOfFile: out + "/a.vtt", encoding: .utf8).contains("Changed"))
        #expect(try lines(io.outputText).count == 2)
    }

    /// A resumed run sums up the results it kept as they were: a check that failed is still
    /// "failed", not an error (the kept line's status is used; its exit code alone cannot tell).
    /// A file that could not be done is tried again (a full disk or a lost mount passes).
    @Test func aResumedRunCountsWhatItKeptAsItWas() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try "1\n00:00:01,000 --> 00:00:01,200\nA line far too long to be read in a fifth of a second.\n"
            .write(to: input.appendingPathComponent("fast.srt"), atomically: true, encoding: .utf8)
        try "not captions\n".write(to: input.appendingPathComponent("bad.srt"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let first = MemoryIO(), again = MemoryIO()
        #expect(run(["check", input.path, "-o", out, "--resume"], io: first) == 1)
        #expect(run(["check", input.path, "-o", out, "--resume"], io: again) == 1)
        #expect(first.errors.contains("1 failed, 1 error"), "\(first.errors)")
        #expect(again.errors.contains("1 failed, 1 error (1 already done, skipped)"), "\(again.errors)")
    }

    /// A result stands only for the settings it was made with: another target format, a shift,
    /// or (in another process, as a real resume is) the same settings again.
    @Test func resumeRedoesWhatWasAskedDifferently() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let root = try catalogue(in: folder).path
        let (a, b) = (root + "/a.srt", root + "/b.srt")
        let out = folder.appendingPathComponent("out").path
        #expect(run(["convert", a, b, "-o", out, "--to", "vtt"], io: MemoryIO()) == 0)
        let srt = MemoryIO()
        #expect(run(["convert", a, b, "-o", out, "--to", "srt", "--resume"], io: srt) == 0)
        #expect(!srt.errors.contains("already done"), "\(srt.errors)")
        #expect(FileManager.default.fileExists(atPath: out + "/a.srt"))
        let same = MemoryIO()
        #expect(run(["convert", a, b, "-o", out, "--to", "srt", "--resume", "--jobs", "1"], io: same) == 0)
        #expect(same.errors.contains("already done"), "\(same.errors)")
        // -q and -v change what is printed, not what is done.
        let verbose = MemoryIO()
        #expect(run(["convert", a, b, "-o", out, "--to", "srt", "--resume", "-v"], io: verbose) == 0)
        #expect(verbose.errors.contains("(2 already done, skipped)"), "\(verbose.errors)")
        // A format's other names are the same setting (--to SRT after --to srt redid everything).
        let spelled = MemoryIO()
        #expect(run(["convert", a, b, "-o", out, "--to", "SRT", "--resume"], io: spelled) == 0)
        #expect(spelled.errors.contains("(2 already done, skipped)"), "\(spelled.errors)")
        let shifted = MemoryIO()
        #expect(run(["convert", a, b, "-o", out, "--to", "srt", "--shift", "5s", "--resume"], io: shifted) == 0)
        #expect(!shifted.errors.contains("already done"), "\(shifted.errors)")
        #expect(try String(contentsOfFile: out + "/a.srt", encoding: .utf8).contains("00:00:06"))
    }

    @Test func oneFileWithResultsStillWritesTheNamedOutput() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder).appendingPathComponent("a.srt").path
        let output = folder.appendingPathComponent("a.vtt").path
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", output, "--results", "jsonl"], io: io) == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("WEBVTT"))
        #expect(try lines(io.outputText).first?["output"] as? String == output)
        let again = MemoryIO()
        #expect(run(["convert", input, "-o", output, "--resume"], io: again) == 0)
        #expect(again.errors.contains("(1 already done, skipped)"))
    }

    /// The CLI built by Scripts/build.sh (the test script builds it before the tests).
    static let executable = FlashSamples.root.appendingPathComponent(".build/release/captions")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path), "needs the release CLI (Scripts/build.sh)"))
    func fourShardsInBackgroundProcessesDoEveryInputOnce() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for index in 0..<40 {
            let name = index % 3 == 0 ? "sub/f\(index).srt" : "f\(index).srt"
            try Self.good.replacingOccurrences(of: "Again", with: "File \(index)").write(
                to: input.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        func start(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let sharded = folder.appendingPathComponent("sharded").path, single = folder.appendingPathComponent("single").path
        // Four workers with no coordination, as a Kubernetes Indexed Job or a Slurm array runs them.
        let workers = try (1...4).map { try start(["convert", input.path, "-r", "-o", sharded, "--to", "vtt", "--shard", "\($0)/4", "--jobs", "1"]) }
        let alone = try start(["convert", input.path, "-r", "-o", single, "--to", "vtt"])
        for process in workers + [alone] {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        func merged(_ out: String) throws -> [String] {
            let results = URL(fileURLWithPath: out + "/.captions-results")
            let files = try #require(FileManager.default.enumerator(at: results, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            return try files.filter { $0.pathExtension == "json" }.map { url in
                var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
                object["seconds"] = nil
                object["output"] = (object["output"] as? String)?.replacingOccurrences(of: out, with: "OUT")
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
            }.sorted()
        }
        let shardResults = try merged(sharded), singleResults = try merged(single)
        #expect(shardResults.count == 40)
        #expect(Set(shardResults).count == 40)
        #expect(shardResults == singleResults)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sharded + "/sub").count == 14)
    }

    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"))
    func flashesScansSeveralVideosAndWritesSeveralReportsFromOneScan() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let failing = FlashSamples.path("a-black-white-5hz-fail"), passing = FlashSamples.path("b-black-white-2hz-pass")
        let io = MemoryIO()
        #expect(run(["flashes", failing, passing, "--results", "jsonl", "--jobs", "2"], io: io) == 2)
        let results = try lines(io.outputText)
        #expect(results.map { $0["verdict"] as? String } == ["fail", "pass"])
        #expect(results.map { $0["exit"] as? Int } == [2, 0])
        // One scan, three reports; the main one's format from its extension.
        let json = folder.appendingPathComponent("r.json").path, html = folder.appendingPathComponent("r.html").path
        let csv = folder.appendingPathComponent("r.csv").path
        #expect(run(["flashes", failing, "-o", json, "--report", "html:\(html)", "--report", "csv"], io: MemoryIO()) == 2)
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(report["verdict"] as? String == "fail")
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<html"))
        #expect(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix("frame,") || FileManager.default.fileExists(atPath: csv))
        // Into a folder: each video's reports side by side.
        let out = folder.appendingPathComponent("reports").path
        #expect(run(["flashes", failing, passing, "-o", out, "--format", "json", "--report", "vtt"], io: MemoryIO()) == 2)
        let made = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
        #expect(made == ["a-black-white-5hz-fail.json", "a-black-white-5hz-fail.vtt", "b-black-white-2hz-pass.json", "b-black-white-2hz-pass.vtt"])
    }

    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func progressForMachinesIsOneJSONLineASecond() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let clip = folder.appendingPathComponent("long.mp4").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "testsrc=d=40:s=320x240:r=25", "-pix_fmt", "yuv420p", clip]))
        let io = MemoryIO()
        #expect(run(["flashes", clip, "--progress", "json", "-o", folder.appendingPathComponent("r.json").path], io: io) == 0)
        let progress = try lines(io.errors)
        #expect(!progress.isEmpty)
        for line in progress {
            #expect(line["file"] as? String == clip)
            #expect((line["frames"] as? Int ?? 0) > 0 && line["rate"] is Double || line["rate"] is Int)
            #expect(line["duration"] as? Double == 40 || line["duration"] as? Int == 40)
        }
        let frames = progress.compactMap { $0["frames"] as? Int }
        #expect(frames == frames.sorted())
        // The last line says the file is done, with every frame.
        #expect(progress.last?["done"] as? Bool == true && frames.last == 1000)
        #expect(progress.dropLast().allSatisfy { $0["done"] as? Bool == false })
    }

    /// One input with `--progress json` ends with a line that says it is done and how it went
    /// (the status a batch result would have), however short the work, failures too (a small
    /// convert wrote nothing, a missing input, a usage error and a video that cannot be opened
    /// nothing either).
    @Test func oneInputEndsWithADoneLine() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = folder.appendingPathComponent("a.srt")
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: srt)
        let long = folder.appendingPathComponent("long.srt")
        try Data("1\n00:00:01,000 --> 00:00:01,100\n\(String(repeating: "far too long a line ", count: 5))\n".utf8).write(to: long)
        let cases: [([String], Int32, String)] = [
            (["convert", srt.path, "-o", folder.appendingPathComponent("a.vtt").path], 0, "ok"),
            (["convert", folder.appendingPathComponent("missing.srt").path, "-o", folder.appendingPathComponent("m.vtt").path], 1, "error"),
            (["flashes", folder.appendingPathComponent("missing.mp4").path], 1, "error"),
            (["convert", srt.path, "-o", srt.path], 64, "usage"),
            (["check", long.path, "--profile", "netflix"], 1, "fail"),
        ]
        for (arguments, code, status) in cases {
            let io = MemoryIO()
            #expect(run(arguments + ["--progress", "json", "-q"], io: io) == code, "\(arguments)")
            let progress = try lines(io.errors.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n"))
            #expect(progress.count == 1, "\(arguments): \(io.errors)")
            #expect(progress.last?["done"] as? Bool == true && progress.last?["status"] as? String == status, "\(arguments)")
        }
    }

    /// The summary counts in words people read: "1 ok, 2 errors", not "2 error".
    @Test func theSummaryCountsInPlurals() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        try "not captions either\n".write(to: input.appendingPathComponent("worse.srt"), atomically: true, encoding: .utf8)
        let io = MemoryIO()
        let out = folder.appendingPathComponent("out").path
        #expect(run(["convert", input.path, "-r", "-o", out, "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("captions: 6 files in") && io.errors.contains(": 4 ok, 2 errors\n"), "\(io.errors)")
    }

    /// A batch over in less than a second still ends its progress with a line for the whole batch.
    @Test func aBatchEndsItsJSONProgressWithTheCount() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try catalogue(in: folder)
        let io = MemoryIO()
        let out = folder.appendingPathComponent("out").path
        _ = run(["convert", input.path, "-r", "-o", out, "--to", "vtt", "--progress", "json"], io: io)
        let progress = try lines(io.errors.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n"))
        let last = try #require(progress.last)
        #expect(last["done"] as? Int == 5 && last["total"] as? Int == 5)
        #expect(last["files"] as? [String] == [])
    }
}

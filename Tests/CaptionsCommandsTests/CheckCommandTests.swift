import CaptionsCommands
import Foundation
import Testing

@Suite struct CheckCommandTests {
    static let planted = """
        1
        00:00:01,000 --> 00:00:01,400
        Too short.

        2
        00:00:05,000 --> 00:00:07,000
        Fine.

        """

    func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// `captions fix` run on `input` (written into `folder`) into `1.EXT`, then on that into
    /// `2.EXT`: what each printed, their exit codes, whether the two outputs are the same bytes,
    /// and the first output's path.
    func fixTwice(
        _ input: String, named name: String, to format: String, _ options: [String] = ["--language", "en"], in folder: URL
    ) throws -> (first: MemoryIO, firstStatus: Int32, second: MemoryIO, secondStatus: Int32, same: Bool, output: String) {
        let bad = try write(input, name, in: folder)
        let (first, second) = (folder.appendingPathComponent("1.\(format)").path, folder.appendingPathComponent("2.\(format)").path)
        let (once, again) = (MemoryIO(), MemoryIO())
        let firstStatus = run(["fix", bad, "-o", first] + options, io: once)
        let secondStatus = run(["fix", first, "-o", second] + options, io: again)
        let same = try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second))
        return (once, firstStatus, again, secondStatus, same, first)
    }

    /// Fixed into a format that writes times in its own steps (iTT: frames at 29.97 while the
    /// profile counts at 23.976; ASS: hundredths), the output passes `check` and a second fix
    /// changes nothing. iTT was repaired in milliseconds (every gap of 2 frames read back as 0.067 s:
    /// 15 errors after "0 left", and 75 changes at every fix); ASS wrote an end extended to
    /// 3.353 s as 3.35 s, which read 0.02 characters/s too fast.
    @Test(arguments: ["itt", "ass"])
    func aFixInAnotherFormatsStepsPassesCheckAndHolds(format: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = """
            WEBVTT

            00:00:01.000 --> 00:00:03.000
            This sentence has exactly thirty-eight c

            00:00:03.040 --> 00:00:06.000
            Two.

            00:00:06.040 --> 00:00:09.000
            Three.

            """
        let fixed = try fixTwice(input, named: "in.vtt", to: format, in: folder)
        #expect(fixed.firstStatus == 0, "\(fixed.first.errors)")
        let check = MemoryIO()
        #expect(run(["check", fixed.output, "--language", "en"], io: check) == 0, "\(check.outputText)")
        #expect(fixed.secondStatus == 0 && fixed.same, "\(fixed.second.errors)")
        #expect(fixed.second.errors.contains("0 changes"), "\(fixed.second.errors)")
    }

    /// A cue that needs more time than a day of timecode has left (EBU STL and SCC end at
    /// 23:59:59 and its last frame) is left for a person: it was extended past the end, cut back
    /// by the writer, reported as fixed, found again by check, and "fixed" at every fix.
    @Test func noRepairRunsPastTheLastTimeTheFormatHolds() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = "1\n23:59:59,600 --> 23:59:59,800\nA line that needs time.\n"
        let fixed = try fixTwice(input, named: "late.srt", to: "stl", in: folder)
        // What fix leaves is what check finds: the cue's duration (and so its reading speed).
        #expect(fixed.firstStatus == 1 && fixed.first.errors.contains("left for a person: 2 errors, 0 warnings"), "\(fixed.first.errors)")
        let check = MemoryIO()
        #expect(run(["check", fixed.output, "--language", "en"], io: check) == 1)
        #expect(check.outputText.contains(": 2 errors, 0 warnings") && check.outputText.contains("[check.duration.short]"), "\(check.outputText)")
        #expect(fixed.same && fixed.second.errors.contains("0 changes"), "\(fixed.second.errors)")
    }

    /// pycaption's SCC with captions from the first frame: a caption given time "from the gap
    /// before" has no time to load there, and SCC shows it late again. What fix says is left is
    /// what check finds in its output (7 against 8), and fixing the output again makes no change
    /// (it listed the same five every time).
    /// So with pycaption's 1,716-cue SRT, whose ends extended to a fraction of a millisecond
    /// are written rounded (fix said 288 left, check found 286).
    static let realWorld = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/realworld/pycaption")

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: realWorld.path), "needs ../shared/realworld"),
        arguments: ["tests/fixtures-extracted/scc/sample_scc_multiple_formats.scc", "examples/example.srt"])
    func whatIsLeftIsWhatTheOutputHolds(file: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let ext = (file as NSString).pathExtension
        let (first, second) = (folder.appendingPathComponent("1.\(ext)").path, folder.appendingPathComponent("2.\(ext)").path)
        let once = MemoryIO(), check = MemoryIO(), again = MemoryIO()
        _ = run(["fix", Self.realWorld.appendingPathComponent(file).path, "-o", first], io: once)
        _ = run(["check", first], io: check)
        let left = once.errors.split(separator: "\n").last { $0.contains("left for a person:") }.map { String($0.split(separator: ";").last ?? "") }
        let found = check.outputText.split(separator: "\n").last.map { String($0.split(separator: ":").last ?? "") }
        let count = { (text: String?) in text?.split(separator: " ").first { Int($0) != nil }.flatMap { Int($0) } }
        #expect(count(left) != nil && count(left) == count(found), "fix: \(left ?? "-"), check: \(found ?? "-")")
        _ = run(["fix", first, "-o", second], io: again)
        #expect(again.errors.contains(": 0 changes;"), "\(again.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    }

    /// An iTT file at 25 frames a second, or an EBU STL file at 29.97, is re-saved, converted or
    /// fixed at its own rate: it was written at 29.97 (iTT) or 25 (STL25.01) whenever no `--fps`
    /// was given, every time moved to another frame.
    @Test(arguments: [("itt", "25", "ttp:frameRate=\"25\""), ("stl", "29.97", "STL30.01")])
    func aFrameTimedFileKeepsItsFrameRate(format: String, rate: String, marker: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let source = try write("WEBVTT\n\n00:00:01.040 --> 00:00:03.080\nHello there.\n", "in.vtt", in: folder)
        let original = folder.appendingPathComponent("source.\(format)").path
        #expect(run(["convert", source, "-o", original, "--fps", rate], io: MemoryIO()) == 0)
        let (again, fixed) = (folder.appendingPathComponent("again.\(format)").path, folder.appendingPathComponent("fixed.\(format)").path)
        #expect(run(["convert", original, "-o", again], io: MemoryIO()) == 0)
        let fix = MemoryIO()
        #expect(run(["fix", original, "-o", fixed], io: fix) == 0, "\(fix.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        #expect(String(decoding: bytes, as: UTF8.self).contains(marker))
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == bytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixed)) == bytes && fix.errors.contains("0 changes"), "\(fix.errors)")
    }

    /// A file that holds no cues is not "1 change" at every fix: that it holds none is said once,
    /// by its reader, and the output holds none either.
    @Test func anEmptyFileNeedsNoChange() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let fixed = try fixTwice("", named: "empty.srt", to: "srt", in: folder)
        #expect(fixed.first.errors.contains("[srt.empty]") && fixed.first.errors.contains("0 changes"), "\(fixed.first.errors)")
        #expect(fixed.firstStatus == 0 && fixed.secondStatus == 0 && fixed.same)
    }

    @Test func exitCodesFollowTheFindings() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let bad = try write(Self.planted, "bad.srt", in: folder)
        let io = MemoryIO()
        #expect(run(["check", bad, "--language", "en"], io: io) == 1)
        #expect(io.outputText.contains("bad.srt:1:1: error: cue 1 (00:00:01.000): on screen 0.4s"))
        #expect(io.outputText.contains("[check.duration.short]"))
        #expect(io.outputText.contains("2 cues checked against netflix (en) at 23.976 fps (profile)"))
        let clean = try write("1\n00:00:01,000 --> 00:00:03,000\nFine.\n", "clean.srt", in: folder)
        let one = MemoryIO()
        #expect(run(["check", clean], io: one) == 0)
        #expect(one.outputText.contains("1 cue checked against"))
        // A profile that does not exist is a usage error that names the profiles.
        #expect(run(["check", clean, "--profile", "foo"], io: MemoryIO()) == 64)
        #expect(throws: (any Error).self) { try CaptionsCommand.parseAsRoot(["check", clean, "--profile", "foo"]) }
        // Warnings only: exit 0, unless there are more than --max-warnings.
        let warned = try write("1\n00:00:01,000 --> 00:00:03,000\nOne.\n\n2\n00:00:03,300 --> 00:00:05,000\nTwo.\n", "warned.srt", in: folder)
        #expect(run(["check", warned], io: MemoryIO()) == 0)
        #expect(run(["check", warned, "--max-warnings", "0"], io: MemoryIO()) == 1)
    }

    @Test func jsonAndHTMLReports() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let bad = try write(Self.planted, "bad.srt", in: folder)
        let io = MemoryIO()
        #expect(run(["check", bad, "--format", "json", "--language", "en"], io: io) == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        #expect(json["profile"] as? String == "netflix")
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["check.duration.short", "check.readingSpeed"])
        #expect(findings.first?["cue"] as? Int == 1 && findings.first?["line"] as? Int == 1)
        #expect(findings.first?["fixable"] as? Bool == true)
        let page = folder.appendingPathComponent("report.html").path
        #expect(run(["check", bad, "-o", page], io: MemoryIO()) == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<table>") && html.contains("check.duration.short") && html.contains("lang=\"en\""))
    }

    @Test func aPrintedProfileIsAStartingPoint() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let io = MemoryIO()
        #expect(run(["check", "--print-profile", "netflix"], io: io) == 0)
        // Loosen the minimum duration in the copy: the short cue passes.
        let copy = io.outputText.replacingOccurrences(of: "\"minDuration\": \"5/6s\"", with: "\"minDuration\": \"0.3s\"")
        #expect(copy != io.outputText)
        let profile = try write(copy, "house.json", in: folder)
        let bad = try write(Self.planted, "bad.srt", in: folder)
        let checked = MemoryIO()
        _ = run(["check", bad, "--profile", profile, "--language", "en"], io: checked)
        #expect(!checked.outputText.contains("check.duration.short"))
        #expect(checked.outputText.contains("check.readingSpeed"))
        #expect(run(["check", bad, "--profile", "nope"], io: MemoryIO()) == 64)
        // Refused once, as the command line is read (a batch said it for every file).
        #expect(run(["check", folder.path, "-o", folder.appendingPathComponent("reports").path, "--profile", "nope"], io: MemoryIO()) == 64)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path))
        do {
            _ = try CaptionsCommand.parseAsRoot(["check", bad, "--profile", "nope"])
            Issue.record("--profile nope was taken")
        } catch {
            #expect(CaptionsCommand.fullMessage(for: error).contains("the profiles are netflix, bbc"))
        }
    }

    @Test func fixWritesTheRepairAndAFixedFileStaysAsItIs() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let bad = try write(Self.planted, "bad.srt", in: folder)
        let fixed = folder.appendingPathComponent("fixed.srt").path
        let io = MemoryIO()
        #expect(run(["fix", bad, "-o", fixed, "--language", "en"], io: io) == 0)
        #expect(io.errors.contains("[fix.duration.extended]"))
        #expect(run(["check", fixed, "--language", "en"], io: MemoryIO()) == 0)
        let again = folder.appendingPathComponent("again.srt").path
        let second = MemoryIO()
        #expect(run(["fix", fixed, "-o", again, "--language", "en"], io: second) == 0)
        #expect(second.errors.contains("0 changes"))
        #expect(try String(contentsOfFile: fixed, encoding: .utf8) == String(contentsOfFile: again, encoding: .utf8))
        #expect(run(["fix", bad, "-o", bad], io: MemoryIO()) == 64)
    }

    /// Cues with gaps of every size, and one line too long for SCC's and STL's rows.
    static let gaps: String = {
        var cues: [String] = [], time = 1000
        func stamp(_ ms: Int) -> String { String(format: "00:%02d:%02d,%03d", ms / 60000, ms / 1000 % 60, ms % 1000) }
        for (index, gap) in [0, 20, 40, 60, 90, 130, 400, 20, 60, 90, 0, 40].enumerated() {
            let text = index == 3 ? "A caption line that is rather long for a row\nand a second line" : "Line number \(index + 1) here"
            cues.append("\(index + 1)\n\(stamp(time)) --> \(stamp(time + 3500))\n\(text)\n")
            time += 3500 + gap
        }
        return cues.joined(separator: "\n")
    }()

    /// `fix` repairs in the steps the output's format writes (a frame of SCC or STL, ASS's
    /// hundredth) and within its rows: the output passes `check`, and fixing it again changes
    /// nothing. A gap closed to two frames at 23.976 (83.4 ms) came out of the writer as 0.08 s or
    /// one STL frame, short, or 0.09 s, closable, and a line of 42 was broken again at STL's 40.
    @Test(arguments: [("ass", "netflix"), ("stl", "netflix"), ("scc", "cea608"), ("sbv", "netflix")])
    func aFixedFileInAFrameTimedFormatPassesAndStays(format: String, profile: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let fixed = try fixTwice(Self.gaps, named: "gaps.srt", to: format, ["--profile", profile, "--language", "en"], in: folder)
        #expect(fixed.firstStatus == 0, "\(fixed.first.errors)")
        #expect(fixed.first.errors.contains(profile == "cea608" ? "[fix.lines.rewrapped]" : "[fix.gap."), "\(fixed.first.errors)")
        let check = MemoryIO()
        #expect(run(["check", fixed.output, "--profile", profile, "--language", "en"], io: check) == 0, "\(check.outputText)")
        #expect(fixed.secondStatus == 0, "\(fixed.second.errors)")
        #expect(fixed.second.errors.contains(" 0 changes"), "\(fixed.second.errors)")
        #expect(fixed.same)
    }

    /// SCC needs time to load a pop-on caption before it shows: a long caption a few frames after
    /// another is written late. `fix` fixes what the format moved as the output reads back, so
    /// the output is what it reports and fixing it again changes nothing (12 of pycaption's SCC
    /// files changed on a second fix).
    @Test func whatTheFormatMovesIsFixedBeforeItIsWritten() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let fixed = try fixTwice(
            "1\n00:00:01,000 --> 00:00:01,100\nI\n\n2\n00:00:01,200 --> 00:00:04,000\nI think this caption takes a while to load\n\n",
            named: "late.srt", to: "scc", in: folder)
        #expect(fixed.first.errors.contains("as the output reads back: "), "\(fixed.first.errors)")
        #expect(fixed.second.errors.contains(" 0 changes"), "\(fixed.second.errors)")
        #expect(fixed.same)
    }

    /// A cue read too fast to fix is split and its parts given what time there is; fixing the
    /// result again changes nothing (each part's end moved by the millisecond SRT had rounded off).
    @Test func aSplitCueLeftTooFastStaysAsItIsWhenFixedAgain() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let words = "over fox happens happens all lazy in fox unexpected them brown happens quick to lazy suddenly of unexpected "
            + "and watches then happens then in everyone dog over them dog brown happens everyone something suddenly watches then everyone to brown fox"
        let fixed = try fixTwice("5\n00:00:14,500 --> 00:00:18,500\n\(words)\n", named: "fast.srt", to: "srt", in: folder)
        #expect(fixed.first.errors.contains("[fix.cue.split]"), "\(fixed.first.errors)")
        #expect(fixed.second.errors.contains(" 0 changes"), "\(fixed.second.errors)")
        #expect(fixed.same)
    }

    /// What the reader ignored is reported once, as it reads, and counted as a change (the output
    /// is written without it), not repeated as left for a person in a file that has none of it.
    @Test func whatTheReaderIgnoredIsAChangeNotLeftOver() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try write("WEBVTT\n\n00:00:01.000 --> 00:00:03.000 align:middle\nHello there.\n", "in.vtt", in: folder)
        let output = folder.appendingPathComponent("out.vtt").path
        let io = MemoryIO()
        #expect(run(["fix", input, "-o", output], io: io) == 0)
        #expect(io.errors.components(separatedBy: "[webvtt.setting.invalid]").count == 2, "once: \(io.errors)")
        #expect(io.errors.contains("[fix.input.rewritten]"))
        #expect(io.errors.contains("1 change; left for a person: 0 errors, 0 warnings"), "\(io.errors)")
        let check = MemoryIO()
        #expect(run(["check", output], io: check) == 0)
        #expect(!check.errors.contains("warning"), "\(check.errors)")
    }

    /// A clip of three shots (grey, a test pattern, bars) cut at 2 s and 4 s.
    static func threeShots(in folder: URL) -> String? {
        let path = folder.appendingPathComponent("shots.mp4").path
        let made = FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=0x404040:s=320x240:r=25:d=2",
            "-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=2",
            "-f", "lavfi", "-i", "smptebars=s=320x240:r=25:d=2",
            "-filter_complex", "[0][1][2]concat=n=3:v=1[v]", "-map", "[v]", "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
        ])
        return made ? path : nil
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg"))
    func shotChangesComeFromTheVideoAndAreCached() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let video = try #require(Self.threeShots(in: folder))
        setenv("CAPTIONS_CACHE_DIR", folder.appendingPathComponent("cache").path, 1)
        let captions = try write(
            "1\n00:00:00,000 --> 00:00:01,900\nBefore the cut.\n\n2\n00:00:02,200 --> 00:00:03,917\nLate after it.\n", "c.srt", in: folder)
        let io = MemoryIO()
        _ = run(["check", captions, "--media", video, "--shots", "--profile", "bbc"], io: io)
        #expect(io.outputText.contains("shot change 00:00:02.000 (frame 50"))
        #expect(io.outputText.contains("shot change 00:00:04.000 (frame 100"))
        #expect(io.outputText.split(separator: "\n").filter { $0.hasPrefix("shot change ") }.count == 2)
        #expect(io.outputText.contains("at 25 fps (media), 2 shot changes"))
        #expect(io.outputText.contains("cue 2 (00:00:02.200): starts 0.2s (5 frames) after the shot change at 00:00:02.000"))
        #expect(io.outputText.contains("cue 1 (00:00:00.000): ends 0.1s (3 frames) before the shot change"))
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cache/shots").path)
        #expect(cached.count == 1)
        // The cache answers the second time (the same findings).
        let second = MemoryIO()
        _ = run(["check", captions, "--media", video, "--profile", "bbc"], io: second)
        #expect(second.outputText.contains("2 shot changes"))
        let fixed = folder.appendingPathComponent("fixed.srt").path
        #expect(run(["fix", captions, "--media", video, "--profile", "bbc", "-o", fixed], io: MemoryIO()) == 0)
        let repaired = try String(contentsOfFile: fixed, encoding: .utf8)
        #expect(repaired.contains("00:00:02,000 --> 00:00:04,000"))
        #expect(repaired.contains("00:00:00,000 --> 00:00:02,000"))
    }

    /// A `--to json` dump fixed to standard output comes out as a dump, the input's format as
    /// fix's help says (it came out as the format the dump was made from: WebVTT).
    @Test func fixingADumpWritesADump() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let vtt = try write("WEBVTT\n\n00:00:01.000 --> 00:00:01.400\nToo short.\n", "a.vtt", in: folder)
        let dump = MemoryIO()
        #expect(run(["convert", vtt, "--to", "json"], io: dump) == 0)
        let model = try write(dump.outputText, "model.json", in: folder)
        let io = MemoryIO()
        _ = run(["fix", model, "-o", "-"], io: io)
        let fixed = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any], "\(io.outputText)")
        #expect(fixed["format"] as? String == "webvtt" && (fixed["cues"] as? [Any])?.count == 1)
        // Captions still come out in their own format.
        let again = MemoryIO()
        _ = run(["fix", vtt, "-o", "-"], io: again)
        #expect(again.outputText.hasPrefix("WEBVTT"))
    }
}

import CaptionsCommands
import Foundation
import Testing

/// The commands in Samples/README.md, run in-process.
@Suite struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples")

    private func sample(_ name: String) -> String { Self.samples.appendingPathComponent(name).path }

    @Test func dialogueToSRTWithSpeakers() {
        let io = MemoryIO()
        #expect(run(["convert", sample("dialogue.vtt"), "--to", "srt", "--speaker-prefix"], io: io) == 0)
        #expect(io.outputText.hasPrefix("1\n00:00:01,200 --> 00:00:04,000\nKeeper: Storm's coming in from the west.\n"))
        for code in ["regions", "styleSheets", "comments", "header", "placementApproximated", "classes"] {
            #expect(io.errors.contains("[convert.lost.\(code)]"), "\(code)")
        }
        #expect(!io.errors.contains("[convert.lost.voices]"))
    }

    @Test func dialogueAsJSON() throws {
        let io = MemoryIO()
        #expect(run(["convert", sample("dialogue.vtt"), "--to", "json"], io: io) == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(io.output)) as? [String: Any])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.count == 5)
        #expect(cues.compactMap { $0["speaker"] as? String } == ["Keeper", "Mara", "Keeper", "Mara"])
        #expect(cues[2]["region"] as? String == "top")
        #expect((object["regions"] as? [[String: Any]])?.first?["width"] as? Double == 80)
    }

    @Test func positionedSRTToWebVTT() {
        let io = MemoryIO()
        #expect(run(["convert", sample("positioned.srt"), "--to", "vtt"], io: io) == 0)
        #expect(io.outputText.contains("00:00:00.800 --> 00:00:03.200 line:0\n<c.cyan>NARRATOR:</c> The island, 1952."))
        #expect(io.outputText.contains("00:00:06.200 --> 00:00:09.500 line:0 align:left\n"))
        #expect(io.errors.isEmpty)
    }

    @Test func brokenSRTConvertsWithEveryRepairReported() {
        let io = MemoryIO()
        #expect(run(["convert", sample("broken.srt"), "--to", "vtt"], io: io) == 0)
        #expect(io.outputText.contains("Café au lait, s'il vous plaît."))
        #expect(io.outputText.contains("“Quoted” text – with Windows quotes"))
        for code in ["srt.encoding.detected", "srt.timestamp.separator", "srt.arrow.nonstandard", "srt.index.missing",
                     "srt.blankLine.missing", "srt.font.attribute", "srt.tag.override"] {
            #expect(io.errors.contains("[\(code)]"), "\(code)")
        }
        #expect(io.errors.contains("Samples/broken.srt:3:4: warning:"))
    }

    /// `--encoding` names the input's encoding; an unknown name or a byte outside it is an error
    /// with its place (but for UTF-8, whose bad bytes are replaced with a warning).
    @Test func anEncodingCanBeNamed() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let file = folder.appendingPathComponent("polish.srt")
        // "Zażółć gęślą jaźń" in ISO-8859-2, too short for a detector to be sure of.
        let latin2: [UInt8] = [0x5A, 0x61, 0xBF, 0xF3, 0xB3, 0xE6, 0x20, 0x67, 0xEA, 0xB6, 0x6C, 0xB1, 0x20, 0x6A, 0x61, 0xBC, 0xF1]
        try Data(Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + latin2 + [0x0A]).write(to: file)
        let io = MemoryIO()
        #expect(run(["convert", file.path, "--to", "vtt", "--encoding", "iso-8859-2"], io: io) == 0)
        #expect(io.outputText.contains("Zażółć gęślą jaźń"), "\(io.outputText)")
        let unknown = MemoryIO()
        #expect(run(["convert", file.path, "--to", "vtt", "--encoding", "klingon"], io: unknown) == 1)
        #expect(unknown.errors.contains("[input.encoding.unknown]"))
        // An empty name is none (iconv took it for the locale's ASCII: "byte 0xBF is not ").
        let empty = MemoryIO()
        #expect(run(["convert", file.path, "--to", "vtt", "--encoding", ""], io: empty) == 1)
        #expect(empty.errors.contains("unknown encoding \"\"") && empty.errors.contains("[input.encoding.unknown]"), "\(empty.errors)")
        let wrong = MemoryIO()
        #expect(run(["convert", file.path, "--to", "vtt", "--encoding", "ascii"], io: wrong) == 1)
        #expect(wrong.errors.contains("polish.srt:3:3: error: byte 0xBF is not ascii [input.encoding.invalid]"), "\(wrong.errors)")
        // UTF-8 named is UTF-8 read: bad bytes replaced and said, not a file refused.
        let utf8 = MemoryIO()
        #expect(run(["convert", file.path, "--to", "vtt", "--encoding", "utf-8"], io: utf8) == 0)
        #expect(utf8.errors.contains("polish.srt:3:3: warning: invalid UTF-8"), "\(utf8.errors)")
        #expect(utf8.outputText.contains("Za\u{FFFD}"), "\(utf8.outputText)")
    }

    @Test func brokenSRTIsRefusedUnderStrict() {
        let io = MemoryIO()
        #expect(run(["convert", sample("broken.srt"), "--to", "vtt", "--strict"], io: io) == 1)
        #expect(io.output.isEmpty)
    }

    @Test func positionedSRTRetimedAndShifted() {
        let io = MemoryIO()
        #expect(run(["convert", sample("positioned.srt"), "--to", "srt", "--fps", "25:23.976", "--shift", "-0.5s"], io: io) == 0)
        // 0.8 s × 25025/24000 − 0.5 s = 0.334 s; 3.2 s → 2.837 s.
        #expect(io.outputText.hasPrefix("1\n00:00:00,334 --> 00:00:02,837\n{\\an8}"))
    }

    @Test func broadcastTTMLToWebVTT() {
        let io = MemoryIO()
        #expect(run(["convert", sample("broadcast.ttml"), "--to", "vtt"], io: io) == 0)
        let text = io.outputText
        // Media time base: 00:00:03:12 is 3 s and 12 frames at 24000/1001 fps, 3.5005 s, written 3.501 s.
        #expect(text.contains("00:00:01.000 --> 00:00:03.501\n<v Anchor>Good evening.\nOur top story tonight:</v>"), "\(text)")
        #expect(text.contains("<i><c.yellow>[helicopter overhead]</c></i>"))
        #expect(text.contains("00:00:07.000 --> 00:00:09.000\n<v Reporter>The water rose overnight.</v>"))
        #expect(text.contains("00:00:09.000 --> 00:00:11.500\n<v Reporter>Residents were <b>told to leave</b> by dawn.</v>"))
        #expect(text.contains("00:00:13.000 --> 00:00:15.000\nBack to you in the studio."))
        #expect(io.errors.isEmpty, "\(io.errors)")
    }

    @Test func dialogueToTTMLAndBack() throws {
        let ttml = MemoryIO()
        #expect(run(["convert", sample("dialogue.vtt"), "--to", "ttml"], io: ttml) == 0)
        #expect(ttml.outputText.contains("ttp:profile=\"http://www.w3.org/ns/ttml/profile/imsc1/text\""))
        #expect(ttml.outputText.contains("<ttm:name type=\"full\">Keeper</ttm:name>"))
        let back = MemoryIO(input: ttml.outputText)
        #expect(run(["convert", "-", "--from", "ttml", "--to", "srt", "--speaker-prefix"], io: back) == 0)
        #expect(back.outputText.hasPrefix("1\n00:00:01,200 --> 00:00:04,000\nKeeper: Storm's coming in from the west.\n"))
    }

    @Test func transcriptOfTheBroadcast() {
        let io = MemoryIO()
        #expect(run(["transcript", sample("broadcast.ttml"), "--format", "md"], io: io) == 0)
        #expect(io.outputText.contains("**Anchor** · 0:01\n\nGood evening. Our top story tonight: floods along the river valley.\n"))
        #expect(run(["transcript", sample("broadcast.ttml"), "--pause", "soon"], io: MemoryIO()) == 64)
    }

    @Test func speakersAreRenamedFromAMap() throws {
        let mapFolder = try temporaryFolder()
        defer { removeTemporaryFolder(mapFolder) }
        let map = mapFolder.appendingPathComponent("speakers.json")
        try #"{"Keeper": "Old Tom"}"#.write(to: map, atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["transcript", sample("dialogue.vtt"), "--speakers", map.path], io: io) == 0)
        #expect(io.outputText.hasPrefix("Old Tom (0:01)\n"))
        #expect(io.outputText.contains("Mara (0:04)"))
        let converted = MemoryIO()
        #expect(run(["convert", sample("dialogue.vtt"), "--to", "vtt", "--speakers", map.path], io: converted) == 0)
        #expect(converted.outputText.contains("<v Old Tom>Storm's coming"))
        #expect(run(["convert", sample("dialogue.vtt"), "--to", "vtt", "--speakers", sample("dialogue.vtt")], io: MemoryIO()) == 1)
    }

    @Test func podcastTranscriptWithChaptersAndSpeakers() {
        let io = MemoryIO()
        #expect(run([
            "transcript", sample("podcast.vtt"), "--format", "md", "--chapters", sample("podcast.chapters.json"),
            "--speakers", sample("podcast.speakers.json"),
        ], io: io) == 0)
        let text = io.outputText
        #expect(text.contains("## Welcome\n\n**Nia** · 0:00\n\nWelcome back to Small Harbours, the show about coastal towns. Today I'm talking to a lighthouse keeper."))
        #expect(text.contains("**Tom Hale** · 0:06\n\nThanks for having me. [laughs] I've kept the light on Gull Rock for almost forty years."))
        #expect(text.contains("## The storm of 1987\n\n**Nia** · 0:15"))
        #expect(!text.contains("Sponsor"))
    }

    /// Podcasting 2.0 JSON holds what is said: chapters and descriptions asked for are not
    /// written there, and a warning says so (the descriptions were dropped without a word).
    @Test func podcastJSONSaysWhatItCannotHold() {
        let io = MemoryIO()
        #expect(run([
            "transcript", sample("podcast.vtt"), "--format", "podcast-json", "--chapters", sample("podcast.chapters.json"),
            "--descriptions", sample("dialogue.vtt"),
        ], io: io) == 0)
        #expect(io.errors.contains("[usage.descriptions.ignored]") && io.errors.contains("[usage.chapters.ignored]"), "\(io.errors)")
        #expect(io.outputText.contains("\"segments\""))
    }

    @Test func buzzsproutSegmentsMergeIntoCues() {
        let io = MemoryIO()
        #expect(run(["convert", sample("podcast-buzzsprout.json"), "--to", "vtt"], io: io) == 0)
        #expect(io.outputText.contains("00:00:00.500 --> 00:00:03.200\n<v Nia>Welcome back to Small Harbours, the show about coastal towns.</v>"))
    }

    @Test func podcastJSONToSRTHasTwoLinesOf32AndNamePrefixes() {
        let io = MemoryIO()
        #expect(run(["convert", sample("podcast-buzzsprout.json"), "--to", "srt"], io: io) == 0)
        let cues = io.outputText.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(cues.count == 5)
        for cue in cues {
            let text = cue.split(separator: "\n").dropFirst(2)
            #expect(text.count <= 2 && text.allSatisfy { $0.count <= 32 }, "\(cue)")
        }
        #expect(io.outputText.hasPrefix("1\n00:00:00,500 --> 00:00:01,995\nNia: Welcome back to Small\nHarbours,\n\n2\n00:00:01,995 --> 00:00:03,200\nthe show about coastal towns.\n"))
        #expect(!io.errors.contains("convert.lost.voices"))
    }

    @Test(.enabled(if: Chromium.isInstalled, "needs chromium"))
    func podcastTranscriptPageRendersInHeadlessChromium() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = folder.appendingPathComponent("podcast.html")
        #expect(run(["transcript", sample("podcast.vtt"), "--format", "html", "--chapters", sample("podcast.chapters.json"),
                     "--speakers", sample("podcast.speakers.json"), "-o", page.path], io: MemoryIO()) == 0)
        let png = try Chromium.screenshot(of: page, in: folder)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000)
    }

    @Test func srtNamePrefixesBecomeTranscriptSpeakers() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = folder.appendingPathComponent("talk.srt")
        let names = folder.appendingPathComponent("names.json")
        try "1\n00:00:01,000 --> 00:00:02,000\nSPEAKER_1: Hello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nAt 10:30: the tide turns.\n"
            .write(to: srt, atomically: true, encoding: .utf8)
        try #"{"SPEAKER_1": "Ann"}"#.write(to: names, atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["transcript", srt.path, "--speakers", names.path], io: io) == 0)
        #expect(io.outputText == "Ann (0:01)\nHello there.\n\n(0:03)\nAt 10:30: the tide turns.\n")
        let json = MemoryIO()
        #expect(run(["convert", srt.path, "--to", "podcast-json"], io: json) == 0)
        #expect(json.outputText.contains(#""speaker":"SPEAKER_1""#) || json.outputText.contains(#""speaker": "SPEAKER_1""#))
    }
}

import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// SAMI: a hand-written file with two languages read exactly, leniency and hostile input, the
/// registry's read-only entry, every SAMI file of the shared real-world corpus, and agreement
/// with pycaption's reader when it is installed.
@Suite struct SAMITests {
    static let twoLanguages = """
        <SAMI>
        <HEAD>
        <TITLE>Test &amp; check</TITLE>
        <SAMIParam>Metrics {time:ms;}</SAMIParam>
        <STYLE TYPE="text/css"><!--
        P { font-family: Arial; color: white; text-align: center; }
        .ENUSCC { Name: English; lang: en-US; SAMIType: CC; }
        .FRFRCC { Name: French; lang: fr-FR; } /* <SYNC Start=1> */
        --></STYLE>
        </HEAD>
        <BODY>
        <!-- <SYNC Start=2>not a caption</SYNC> -->
        <SYNC Start=1000><P Class=ENUSCC>Caf&eacute; &amp; cr&#232;me<br>
           second    line
        <P Class=FRFRCC>Caf&eacute; cr&egrave;me
        <SYNC Start=2500><P Class=ENUSCC>&nbsp;</P><P Class=FRFRCC>&nbsp;
        <SYNC Start=3000><P Class=ENUSCC align=left><I>italic</I> and <FONT color="#ff0000" face=Arial>red</FONT>
        <SYNC Start=4x00><P Class=ENUSCC>skipped
        <SYNC Start="5000"><P Class=ENUSCC><b>last</b>   one</P></SYNC>
        </BODY>
        </SAMI>
        """

    private static func ms(_ value: Int64) -> MediaTime { MediaTime(milliseconds: value) }

    @Test func theFirstLanguageIsReadWithTimesTextAndStyles() throws {
        let document = try SAMIReader().read(bytes(Self.twoLanguages))
        #expect(document.cues.map(\.plainText) == ["Café & crème\nsecond line", "italic and red", "last one"])
        #expect(document.cues.map(\.start) == [Self.ms(1000), Self.ms(3000), Self.ms(5000)])
        // The &nbsp; SYNC ends the first caption; the bad Start is skipped, so the second lasts to
        // 5000; the last has no following SYNC and stays open.
        #expect(document.cues.map(\.end) == [Self.ms(2500), Self.ms(5000), nil])
        #expect(document.cues.map(\.settings.align) == [.center, .left, .center])
        #expect(document.cues[0].location == SourceLocation(line: 13, column: 18))
        #expect(document.cues[1].content == [
            .span(Span(.italic, children: [.text("italic")])), .text(" and "),
            .span(Span(.class, style: TextStyle(color: RGBAColor(red: 255, green: 0, blue: 0)), children: [.text("red")])),
        ])
        #expect(document.cues[2].content == [.span(Span(.bold, children: [.text("last")])), .text(" one")])
        #expect(document.language == "en-US")
        #expect(document.title == "Test & check")
        let found = codes(document)
        #expect(found.contains("sami.sync.malformed@18:1"))
        #expect(found.contains("sami.tag.dropped@17:63"))
        let others = document.diagnostics.first { $0.code == "sami.language.others" }
        #expect(others?.severity == .note)
        #expect(others?.message.contains("fr-FR (French, .FRFRCC)") == true)
        #expect(others?.location == SourceLocation(line: 15, column: 1))
    }

    @Test(arguments: ["fr-FR", "frfrcc"])
    func anotherLanguageIsReadOnRequest(language: String) throws {
        let document = try SAMIReader(language: language).read(bytes(Self.twoLanguages))
        // French has nothing at 2500 but a clearing &nbsp;, and nothing after.
        #expect(document.cues.map(\.plainText) == ["Café crème"])
        #expect(document.cues.map(\.end) == [Self.ms(2500)])
        #expect(document.language == "fr-FR")
        #expect(document.diagnostics.first { $0.code == "sami.language.others" }?.message.contains("en-US") == true)
    }

    @Test func anUnknownLanguageIsReportedAndTheFirstRead() throws {
        let document = try SAMIReader(language: "de").read(bytes(Self.twoLanguages))
        #expect(document.language == "en-US")
        #expect(codes(document).contains("sami.language.unknown@1:1"))
    }

    /// Lower case, unquoted values, no `</P>` or `</SYNC>`, text straight in a SYNC, a `<` that is
    /// text, CRLF line ends, an unclosed quote and an unclosed `<STYLE>`.
    @Test func sloppyMarkupIsReadAsPlayersReadIt() throws {
        let sloppy = """
            <sami><head><style>.a { lang: en; }<body>\r
            <sync start=10>x &lt; y < z<sync start=20.7><p class="a>Hello <span style="color:#00ff00;font-style:italic">green</span>\r
            <sync start=30><div align=right><p>right</div><sync start=40>
            """
        let document = try SAMIReader().read(bytes(sloppy))
        #expect(document.cues.map(\.plainText) == ["x < y < z", "Hello green", "right"])
        #expect(document.cues.map(\.start) == [Self.ms(10), Self.ms(20), Self.ms(30)])
        #expect(document.cues.map(\.end) == [Self.ms(20), Self.ms(30), Self.ms(40)])
        #expect(document.cues[2].settings.align == .right)
        guard case .span(let green) = document.cues[1].content.last else { Issue.record("no colour span"); return }
        #expect(green.style?.color == RGBAColor(red: 0, green: 255, blue: 0))
        #expect(green.children == [.span(Span(.italic, children: [.text("green")]))])
        #expect(codes(document).contains("sami.tag.unclosed@1:20"))
        #expect(codes(document).contains("sami.attribute.unclosed@2:48"))
    }

    /// Players go by time: SYNCs out of order are sorted (and reported); SYNCs with the same Start
    /// show together until the next Start.
    @Test func syncsAreTakenInTimeOrder() throws {
        let text = "<SAMI><BODY>\n<SYNC Start=3000><P>c\n<SYNC Start=1000><P>a\n<SYNC Start=1000><P>b\n<SYNC Start=2000><P>&nbsp;\n</SAMI>"
        let document = try SAMIReader().read(bytes(text))
        #expect(document.cues.map(\.plainText) == ["a", "b", "c"])
        #expect(document.cues.map(\.start) == [Self.ms(1000), Self.ms(1000), Self.ms(3000)])
        #expect(document.cues.map(\.end) == [Self.ms(2000), Self.ms(2000), nil])
        #expect(codes(document) == ["sami.sync.order@3:1"])
    }

    @Test func filesWithoutCaptionsAreErrors() {
        for text in ["<SAMI><BODY><P>no sync</P></BODY></SAMI>", "<SAMI><BODY><SYNC>a<SYNC Start=x>b</BODY></SAMI>",
                     "<SAMI><BODY><SYNC Start=1><P>&nbsp;</P><SYNC Start=2><P> </P></BODY></SAMI>", ""] {
            let error = #expect(throws: CaptionsError.self) { try SAMIReader().read(bytes(text)) }
            #expect(error?.code == "sami.cues.none", "\(text)")
        }
    }

    @Test func deepNestingIsCappedWithoutRecursion() throws {
        let text = "<SAMI><BODY><SYNC Start=0><P>" + String(repeating: "<i><font color=red>", count: 20_000) + "deep"
            + String(repeating: "</font></i>", count: 20_000) + " after"
        let document = try SAMIReader().read(bytes(text))
        #expect(document.cues.map(\.plainText) == ["deep after"])
        #expect(InlineNode.depth(of: document.cues[0].content) <= InlineNode.maximumDepth)
        #expect(document.diagnostics.contains { $0.code == "sami.nesting.deep" && $0.severity == .warning })
    }

    @Test func theRegistryReadsButDoesNotWriteSAMI() {
        #expect(CaptionFormat.sniff(bytes("\u{FEFF}  \n<Sami><Head>")) == .sami)
        #expect(CaptionFormat.sniff(bytes("<tt xmlns=\"http://www.w3.org/ns/ttml\">")) == .ttml)
        #expect(CaptionFormat(fileExtensionOf: "movie.SMI") == .sami)
        #expect(CaptionFormat(fileExtensionOf: "movie.sami") == .sami)
        #expect(CaptionFormat(name: "smi") == .sami)
        #expect(CaptionFormat.sami.reader is SAMIReader)
        #expect(CaptionFormat.sami.writer() == nil)
        #expect(CaptionFormat.acceptedNames.contains("sami"))
        #expect(!CaptionFormat.writableNames.contains("sami") && CaptionFormat.writableNames.contains("srt"))
    }

    // MARK: Real-world files

    /// The SAMI files of the shared corpus (`CAPTIONS_SHARED` names the shared folder for a
    /// checkout that is not beside it, such as a worktree elsewhere).
    static let corpus: [URL] = {
        let shared = ProcessInfo.processInfo.environment["CAPTIONS_SHARED"].map { URL(fileURLWithPath: $0) } ?? TestPaths.shared
        let root = shared.appendingPathComponent("realworld")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["smi", "sami"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
    }()

    /// Files that hold no caption: no SYNC at all, or none with a Start.
    static let captionless: Set<String> = ["sample_sami_empty.sami", "sample_sami_missing_start.sami"]

    @Test(.enabled(if: !corpus.isEmpty))
    func everyRealWorldFileReads() throws {
        for url in Self.corpus {
            let input = try [UInt8](Data(contentsOf: url))
            if Self.captionless.contains(url.lastPathComponent) {
                let error = #expect(throws: CaptionsError.self, "\(url.lastPathComponent)") { try SAMIReader().read(input) }
                #expect(error?.code == "sami.cues.none", "\(url.lastPathComponent)")
                continue
            }
            let document = try SAMIReader().read(input)
            #expect(!document.cues.isEmpty, "\(url.lastPathComponent)")
            #expect(CaptionFormat.sniff(input) == .sami, "\(url.lastPathComponent)")
        }
    }

    /// The peers environment's Python, with pycaption (`Scripts/setup.sh` makes it; nil when absent).
    static let pycaption: String? = {
        guard let python = Peer.find("python3") else { return nil }
        return Peer.run(python, ["-c", "import pycaption"]) ? python : nil
    }()

    /// pycaption's reading of `files`: for each, its languages' cues as [start ms, end ms, text], or an error.
    private static func pycaptionReadings(_ files: [URL]) throws -> [String: Any] {
        let script = """
            import sys, json
            from pycaption import SAMIReader
            from pycaption.base import CaptionNode
            def text(c):
                return "".join(n.content if n.type_ == CaptionNode.TEXT else "\\n" for n in c.nodes if n.type_ in (CaptionNode.TEXT, CaptionNode.BREAK))
            out = {}
            for f in sys.argv[1:]:
                try:
                    s = SAMIReader().read(open(f, encoding="utf-8", errors="replace").read())
                    out[f] = {l: [[c.start // 1000, c.end // 1000, text(c)] for c in s.get_captions(l)] for l in s.get_languages()}
                except Exception as e:
                    out[f] = {"error": str(e)[:100]}
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(pycaption))
        process.arguments = ["-c", script] + files.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Lines with runs of spaces (and no-break spaces) as one space, trimmed; no empty first or last line.
    private static func collapsed(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " ") }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    /// Same cues, start and end (pycaption ends an open last caption 4 s after its start) and text,
    /// in at least 90% of the files pycaption reads.
    @Test(.enabled(if: pycaption != nil && !corpus.isEmpty))
    func agreesWithPycaption() throws {
        let readings = try Self.pycaptionReadings(Self.corpus)
        var compared = 0
        var agreeing = 0
        for url in Self.corpus {
            guard let languages = readings[url.path] as? [String: [[Any]]], !languages.isEmpty,
                let document = try? SAMIReader().read([UInt8](Data(contentsOf: url)))
            else { continue }
            compared += 1
            let language = document.language.flatMap { languages[$0] != nil ? $0 : nil } ?? languages.keys.sorted().first!
            let theirs = languages[language]!.map { (start: $0[0] as? Int ?? -1, end: $0[1] as? Int ?? -1, text: $0[2] as? String ?? "") }
            let ours = document.cues.map { cue in
                let start = Int(cue.start.seconds * 1000 + 0.5)
                return (start: start, end: cue.end.map { Int($0.seconds * 1000 + 0.5) } ?? start + 4000, text: cue.plainText)
            }
            var differences: [String] = []
            if ours.count != theirs.count { differences.append("\(ours.count) cues, pycaption \(theirs.count)") }
            for (index, (mine, peer)) in zip(ours, theirs).enumerated() {
                if mine.start != peer.start || mine.end != peer.end {
                    differences.append("cue \(index + 1): \(mine.start)–\(mine.end) ms, pycaption \(peer.start)–\(peer.end) ms")
                }
                if Self.collapsed(mine.text) != Self.collapsed(peer.text) {
                    differences.append("cue \(index + 1): \(Self.collapsed(mine.text).debugDescription), pycaption \(Self.collapsed(peer.text).debugDescription)")
                }
            }
            if differences.isEmpty {
                agreeing += 1
            } else {
                print("SAMI vs pycaption, \(url.lastPathComponent) [\(language)]: " + differences.prefix(5).joined(separator: "; "))
            }
        }
        print("SAMI vs pycaption: \(agreeing) of \(compared) files agree")
        #expect(compared > 0)
        #expect(agreeing * 10 >= compared * 9, "\(agreeing) of \(compared) files agree with pycaption")
    }
}

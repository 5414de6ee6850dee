import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// EBU STL: GSI and TTI blocks, code tables, teletext codes, extension blocks, cumulative sets,
/// written back (by us and ttconv) with the same text; Spruce's text `.stl` read too.
@Suite struct STLTests {
    /// A GSI block.
    static func gsi(rate: String = "STL25.01", display: String = "1", table: String = "00", language: String = "09") -> [UInt8] {
        var block = [UInt8](repeating: 0x20, count: 1024)
        for (offset, text) in [(0, "850"), (3, rate), (11, display), (12, table), (14, language), (16, "Test programme")] {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        return block
    }

    /// A TTI block.
    static func tti(
        number: UInt16, extensionNumber: UInt8 = 0xFF, cumulative: UInt8 = 0, start: [UInt8], end: [UInt8], row: UInt8 = 20,
        justification: UInt8 = 2, comment: Bool = false, text: [UInt8]
    ) -> [UInt8] {
        var block: [UInt8] = [0, UInt8(number & 0xFF), UInt8(number >> 8), extensionNumber, cumulative] + start + end
        block += [row, justification, comment ? 1 : 0]
        return block + text + [UInt8](repeating: 0x8F, count: 112 - text.count)
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func teletextSubtitlesAreRead() throws {
        var file = Self.gsi()
        // Double height, boxed, "Caf" + acute accent + "e", a row break sent twice, red "¤5".
        file += Self.tti(
            number: 0, start: [0, 0, 1, 0], end: [0, 0, 3, 12],
            text: [0x0D, 0x0B, 0x0B] + Self.ascii("Caf") + [0xC2, 0x65, 0x0A, 0x0A, 0x8A, 0x8A, 0x0D, 0x0B, 0x0B, 0x01, 0x24, 0x35, 0x0A, 0x0A])
        // A comment block is not a subtitle.
        file += Self.tti(number: 1, start: [0, 0, 4, 0], end: [0, 0, 5, 0], comment: true, text: Self.ascii("note to self"))
        // A subtitle over two blocks.
        file += Self.tti(number: 2, extensionNumber: 0, start: [0, 0, 6, 0], end: [0, 0, 8, 0], text: Self.ascii("first half,"))
        file += Self.tti(number: 2, start: [0, 0, 6, 0], end: [0, 0, 8, 0], text: Self.ascii(" second half"))
        let document = try STLReader().read(file)
        #expect(document.cues.map(\.plainText) == ["Café\n¤5", "first half, second half"])
        #expect(document.cues[0].start == MediaTime(seconds: 1))
        #expect(document.cues[0].end == MediaTime(value: 3 * 25 + 12, timescale: 25))
        #expect(document.language == "en" && document.title == "Test programme")
        #expect(document.diagnostics.map(\.code.rawValue) == ["stl.comments"])
        // The red row is a colour span.
        let colours = document.cues[0].content.compactMap { if case .span(let span) = $0 { span.style?.color } else { nil } }
        #expect(colours == [RGBAColor(red: 255, green: 0, blue: 0)])
        // Row 20 of 23, double height: near the bottom.
        if case .value(let line) = document.cues[0].settings.line { #expect(line > 70) } else { Issue.record("no line") }
    }

    @Test func openSubtitlesWithItalicsCumulativeSetsAndNTSCTimecode() throws {
        var file = Self.gsi(rate: "STL30.01", display: "0")
        file += Self.tti(number: 0, cumulative: 1, start: [1, 0, 0, 0], end: [1, 0, 4, 0], text: Self.ascii("One") + [0x80] + Self.ascii("two") + [0x81])
        file += Self.tti(number: 1, cumulative: 3, start: [1, 0, 2, 0], end: [1, 0, 4, 0], justification: 1, text: Self.ascii("three"))
        let document = try STLReader().read(file)
        #expect(document.cues.map(\.plainText) == ["One two", "One two\nthree"])
        // 29.97 drop-frame labels: 01:00:00:00 is frame 107,892.
        #expect(document.cues[0].start == MediaTime(value: 107_892 * 1001, timescale: 30000))
        #expect(document.cues[0].end == document.cues[1].start)
        #expect(document.cues[0].content.contains { if case .span(let span) = $0 { span.kind == .italic } else { false } })
    }

    @Test func cyrillicTableAndBrokenBlocks() throws {
        var file = Self.gsi(table: "01")
        file += Self.tti(number: 0, start: [0, 0, 1, 0], end: [0, 0, 2, 0], text: [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2])  // Привет in ISO 8859-5
        file += Array(repeating: 0x20, count: 40)  // a torn last block
        let document = try STLReader().read(file)
        #expect(document.cues.map(\.plainText) == ["Привет"])
        #expect(document.diagnostics.map(\.code.rawValue) == ["stl.tti.truncated"])
        #expect(throws: CaptionsError.self) { try STLReader().read(Array(file.prefix(500))) }
    }

    static let source = TimedTextDocument(cues: [
        Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3), content: [
            .text("Café "), .span(Span(.italic, children: [.text("crème")])), .text(" – ça va"),
        ]),
        Cue(start: MediaTime(seconds: 4), end: MediaTime(milliseconds: 6500), content: [
            .text("A line that is much longer than forty characters is wrapped")
        ]),
        Cue(start: MediaTime(seconds: 7), end: MediaTime(seconds: 9), content: [.text("Zażółć ☃")]),
    ])

    @Test(arguments: [STLWriter.Kind.open, .teletext])
    func ourSTLReadsBackWithTheSameText(kind: STLWriter.Kind) throws {
        var document = Self.source
        let writer = STLWriter(kind: kind)
        let diagnostics = writer.fit(&document)
        #expect(diagnostics.contains { $0.code == "stl.character.substituted" && $0.message.contains("☃") })
        let back = try STLReader().read(writer.write(document))
        #expect(back.cues.map(\.plainText) == [
            "Café crème — ça va", "A line that is much longer than forty\ncharacters is wrapped", "Zażółć ?",
        ])
        #expect(back.cues.map(\.start) == [MediaTime(seconds: 1), MediaTime(seconds: 4), MediaTime(seconds: 7)])
        #expect(back.cues[1].end == MediaTime(milliseconds: 6520))  // 6.5 s is frame 162.5, written as frame 163
        let italic = back.cues[0].content.contains { if case .span(let span) = $0 { span.kind == .italic } else { false } }
        #expect(italic == (kind == .open))
    }

    @Test func theCodeTableFollowsTheText() throws {
        let russian = TimedTextDocument(cues: [Cue(start: .zero, end: MediaTime(seconds: 1), content: [.text("Привет, мир")])])
        let bytes = STLWriter().write(russian)
        #expect(Array(bytes[12..<14]) == Array("01".utf8))
        #expect(try STLReader().read(bytes).cues.map(\.plainText) == ["Привет, мир"])
    }

    /// A Russian text with a Greek word is written in Cyrillic (most of it kept), not in Latin (all `?`).
    @Test func mixedScriptsTakeTheTableThatHoldsMostOfTheText() throws {
        var document = TimedTextDocument(cues: [
            Cue(start: .zero, end: MediaTime(seconds: 1), content: [.text("Привет, мир! Это тест.")]),
            Cue(start: MediaTime(seconds: 2), end: MediaTime(seconds: 3), content: [.text("Καλημέρα")]),
        ])
        let writer = STLWriter()
        let diagnostics = writer.fit(&document)
        #expect(diagnostics.contains { $0.code == "stl.character.substituted" && $0.message.contains("01 code table") })
        let bytes = writer.write(document)
        #expect(Array(bytes[12..<14]) == Array("01".utf8))
        #expect(try STLReader().read(bytes).cues.first?.plainText == "Привет, мир! Это тест.")
    }

    /// The GSI holds 32 characters of title: a longer one is cut, and said to be.
    @Test func aLongTitleIsCutAndSaidToBe() throws {
        var document = TimedTextDocument(title: "A Very Long Programme Title, Episode 12", cues: [Cue(start: .zero, end: MediaTime(seconds: 1), content: [.text("Hi")])])
        #expect(STLWriter().fit(&document).contains { $0.code == "stl.title.truncated" })
        #expect(try STLReader().read(STLWriter().write(document)).title == "A Very Long Programme Title, Epi")
        var short = TimedTextDocument(title: "Short", cues: document.cues)
        #expect(!STLWriter().fit(&short).contains { $0.code == "stl.title.truncated" })
    }

    /// Tech 3264's Latin table: `#` is 0x23 (0xA6 too, but readers differ on it), `$` only 0xA4,
    /// and 0xE2 is the D with stroke of Croatian and Vietnamese (glibc calls it Ð).
    @Test func latinCharactersTakeTheirTech3264Bytes() throws {
        var document = TimedTextDocument(cues: [Cue(start: .zero, end: MediaTime(seconds: 1), content: [.text("Đino #1 $5")])])
        let writer = STLWriter()
        #expect(writer.fit(&document).filter { $0.code == "stl.character.substituted" }.isEmpty)
        let field = Array(writer.write(document)[(1024 + 16)...].prefix(10))
        #expect(field == [0xE2] + Array("ino ".utf8) + [0x23, 0x31, 0x20, 0xA4, 0x35])
    }

    /// Re-saving an STL file keeps its header (titles, translator, publisher, programme start, in
    /// code page 850) and its kind of subtitles: teletext level 2 stays teletext level 2.
    @Test func resavingKeepsTheHeaderAndTheKind() throws {
        var file = Self.gsi(display: "2")
        let fields: [(Int, [UInt8])] = [
            (16, Array("Fr".utf8) + [0x81] + Array("hst         ".utf8)), (80, Array("Episode 4".utf8)),
            (144, Array("Translator".utf8)), (256, Array("10000000".utf8)), (277, Array("Institut f".utf8) + [0x81] + Array("r".utf8)),
        ]
        for (offset, bytes) in fields { file.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
        file += Self.tti(number: 0, start: [10, 0, 1, 0], end: [10, 0, 3, 0], text: [0x0D] + Self.ascii("Hallo"))
        let document = try STLReader().read(file)
        #expect(document.title == "Frühst")
        let again = STLWriter().write(document)
        #expect(again[11] == UInt8(ascii: "2"))
        for (offset, bytes) in fields { #expect(Array(again[offset..<offset + bytes.count]) == bytes) }
        #expect(try STLReader().read(again).cues == document.cues)
        // Asked for, open subtitles are open; from another format, the STL header is not invented.
        #expect(STLWriter(kind: .open).write(document)[11] == UInt8(ascii: "0"))
        var fromVTT = document
        fromVTT.sourceFormat = "webvtt"
        let fresh = STLWriter().write(fromVTT)
        #expect(fresh[11] == UInt8(ascii: "0") && Array(fresh[80..<89]) == Array(repeating: 0x20, count: 9))
    }

    @Test(.enabled(if: Peer.ttconv != nil), arguments: [STLWriter.Kind.open, .teletext])
    func ttconvReadsOurSTLWithTheSameText(kind: STLWriter.Kind) throws {
        var document = Self.source
        let writer = STLWriter(kind: kind)
        _ = writer.fit(&document)
        let back = try #require(try Peer.ttconvReading(writer.write(document), fileExtension: "stl"))
        #expect(back.cues.map { Peer.words($0.plainText) } == document.cues.map { Peer.words($0.plainText) })
        #expect(back.cues.map(\.start) == document.cues.map(\.start))
    }

    /// A style or colour that changes inside a word is written for the whole word: a code between
    /// two letters shows as a space, in our reader and in ttconv (`<u>this</u>.` read `this .`).
    @Test(arguments: [STLWriter.Kind.open, .teletext])
    func stylesChangeOnlyBetweenWords(kind: STLWriter.Kind) throws {
        let italic = { (text: String) in InlineNode.span(Span(.italic, children: [.text(text)])) }
        let red = { (text: String) in InlineNode.span(Span(.class, style: TextStyle(color: RGBAColor(red: 255, green: 0, blue: 0)), children: [.text(text)])) }
        let styled = kind == .open ? italic : red
        var document = TimedTextDocument(cues: [Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 2), content: [
            .text("Say "), styled("this"), .text(". And "), styled("that"), .text("! ("), styled("aside"), .text(") x"), styled("^3"),
        ])])
        let writer = STLWriter(kind: kind)
        let diagnostics = writer.fit(&document)
        #expect(diagnostics.contains { $0.code == "stl.style.inWord" })
        let bytes = writer.write(document)
        let expected = "Say this. And that! (aside) x^3"
        #expect(try STLReader().read(bytes).cues.map(\.plainText) == [expected])
        if Peer.ttconv != nil {
            let back = try #require(try Peer.ttconvReading(bytes, fileExtension: "stl"))
            #expect(back.cues.map(\.plainText) == [expected])
        }
    }

    /// The disk format code follows the frame rate, so times read back as written; rates STL
    /// cannot name are written at 25, and both are said.
    @Test(arguments: [(50.0, "STL50.01", "stl.fps.nonstandard"), (24, "STL24.01", "stl.fps.nonstandard"),
                      (30, "STL30.01", nil), (25, "STL25.01", nil), (60, "STL25.01", "stl.fps.unsupported")])
    func theDiskFormatFollowsTheFrameRate(rate: Double, code: String, warning: String?) throws {
        var document = TimedTextDocument(cues: [
            Cue(start: MediaTime(milliseconds: 1240), end: MediaTime(milliseconds: 2340), content: [.text("frames")]),
        ])
        let writer = STLWriter(frameRate: rate)
        #expect(writer.fit(&document).map(\.code.rawValue).filter { $0.hasPrefix("stl.fps") } == (warning.map { [$0] } ?? []))
        let bytes = writer.write(document)
        #expect(String(decoding: bytes[3..<11], as: UTF8.self) == code)
        let back = try STLReader().read(bytes)
        let frame = 1 / (code == "STL25.01" ? 25 : rate == 30 ? 30_000.0 / 1001 : rate)
        #expect(abs(back.cues[0].start.seconds - 1.24) <= frame / 2 + 0.001, "\(back.cues[0].start.seconds)")
        #expect(abs((back.cues[0].end?.seconds ?? 0) - 2.34) <= frame / 2 + 0.001)
    }

    /// A WebVTT line number or an SRT `{\an8}` puts the subtitle on its row (it was always written
    /// at the bottom); STL has no markup, so `<i>` as text stays as it is.
    @Test(arguments: [STLWriter.Kind.open, .teletext])
    func lineNumbersPickTheRowAndTextLikeMarkupIsKept(kind: STLWriter.Kind) throws {
        let vtt = try readWebVTT("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 line:0\ntop &lt;i&gt;\n\n00:00:03.000 --> 00:00:04.000 line:-1\nbottom\n")
        let srt = try readSRT("1\n00:00:05,000 --> 00:00:06,000\n{\\an8}also top\n")
        var document = vtt
        document.cues += srt.cues
        let writer = STLWriter(kind: kind)
        #expect(!writer.fit(&document).contains { $0.code == "convert.lost.literalMarkup" })
        let back = try STLReader().read(writer.write(document))
        let lines = back.cues.map { cue -> Double in if case .value(let line) = cue.settings.line { line } else { -1 } }
        #expect(lines[0] < 20 && lines[2] < 20, "\(lines)")
        #expect(lines[1] > 80, "\(lines)")
        #expect(back.cues[0].plainText == "top <i>")
    }

    /// Our STL written again from itself is the same file: every row reads as its own (open
    /// subtitles' VP 23, the foot, read as VP 22, so each one-line subtitle moved up a row), and
    /// runs of spaces, which a reader shows as one, are written as one (with a note).
    @Test(arguments: [STLWriter.Kind.open, .teletext])
    func writingOurSTLAgainChangesNothing(kind: STLWriter.Kind) throws {
        let vtt = try readWebVTT("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nbottom\n\n00:00:03.000 --> 00:00:04.000\nTwo\nlines\n\n00:00:05.000 --> 00:00:06.000 line:2\nhigh\n\n00:00:07.000 --> 00:00:08.000\n  TO  FIND   <i>HIM.</i>  \n")
        var document = vtt
        let writer = STLWriter(kind: kind)
        #expect(writer.fit(&document).contains { $0.code == "stl.spaces.collapsed" })
        #expect(document.cues.last?.plainText == "TO FIND HIM.")
        let first = writer.write(document)
        var again = try STLReader().read(first)
        _ = writer.fit(&again)
        let second = writer.write(again)
        // VP of each TTI block (offset 13 from the block's start, after the 1024-byte GSI).
        let rows = { (bytes: [UInt8]) in stride(from: 1024, to: bytes.count, by: 128).map { bytes[$0 + 13] } }
        #expect(rows(second) == rows(first))
        let same = second == first
        #expect(same, "the same bytes")
    }

    @Test func spruceTextSTLIsRead() throws {
        let text = "//comment\n$FontSize = 28\n00:00:01:00 , 00:00:02:12 , ^IHello^I | world\n"
        let document = try STLReader().read(Array(text.utf8))
        #expect(document.cues.map(\.plainText) == ["Hello\nworld"])
        #expect(document.cues.first?.end == MediaTime(value: 2 * 25 + 12, timescale: 25))
    }

    /// Every STL file of the real-world corpus reads, EBU's binary and Spruce's text.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.shared.appendingPathComponent("realworld").path)))
    func everyRealWorldSTLFileReads() throws {
        let root = TestPaths.shared.appendingPathComponent("realworld")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension.lowercased() == "stl" } ?? []
        #expect(files.count >= 55)
        for file in files {
            let document = try STLReader().read(Array(Data(contentsOf: file)))
            #expect(!document.cues.isEmpty, "\(file.path)")
        }
    }
}

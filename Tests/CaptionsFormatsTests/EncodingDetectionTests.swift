import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// Text encodings as real files break them: UTF-8 with a few bad bytes, Shift-JIS whose 0x5C is a
/// backslash, and files of a few short lines that the detectors misname.
@Suite struct EncodingDetectionTests {
    static func srt(_ lines: [String]) -> String {
        lines.enumerated().map { index, line in
            let second = index < 10 ? "0\(index)" : "\(index)"
            return "\(index + 1)\n00:00:\(second),000 --> 00:00:\(second),900\n\(line)\n"
        }.joined(separator: "\n")
    }

    /// One stray Windows-1252 byte in 40 lines of UTF-8 Russian, a byte order mark with a bad byte
    /// after it, and a file cut in the middle of its last letter: UTF-8 all the same (read as a
    /// code page, every letter was wrong), the bad bytes U+FFFD, a warning at the first.
    @Test func utf8WithAFewBadBytesStaysUTF8() throws {
        let lines = (0..<40).map { $0 % 2 == 0 ? "Привет, как дела?" : "Мы идём домой." }
        var stray = Array(Self.srt(lines).utf8)
        let dash = try #require(stray.firstIndex(of: UInt8(ascii: "?")))
        stray.insert(0x96, at: dash)
        let read = try SRTReader().read(stray)
        #expect(read.cues.map(\.plainText) == lines.enumerated().map { $0.offset == 0 ? "Привет, как дела\u{FFFD}?" : $0.element })
        #expect(read.diagnostics.map(\.code) == ["srt.encoding.invalid"])
        #expect(read.diagnostics.first?.location == SourceLocation(line: 3, column: 17))

        let marked = try SRTReader().read([0xEF, 0xBB, 0xBF] + Array(Self.srt(["Zażółć # gęślą"]).utf8).map { $0 == 0x23 ? 0x96 : $0 })
        #expect(marked.cues.map(\.plainText) == ["Zażółć \u{FFFD} gęślą"])
        #expect(marked.diagnostics.map(\.code) == ["srt.encoding.invalid"])

        let cut = try SRTReader().read(Array(Array(Self.srt(["Мы идём домой"]).utf8).dropLast(2)))
        #expect(cut.cues.map(\.plainText) == ["Мы идём домо\u{FFFD}"])
        #expect(cut.diagnostics.map(\.code) == ["srt.encoding.invalid"])

        // A code page's text stays a code page's text: its accented letters make no UTF-8.
        let french = try #require(SRTReaderTests.encode(Self.srt(["Café à la crème.", "Noël, déjà."]), as: "CP1252"))
        #expect(try SRTReader().read(french).cues.map(\.plainText) == ["Café à la crème.", "Noël, déjà."])
    }

    /// NUL padding at the end of a file (a zero-filled download) is left out with a note; it was a
    /// line of U+FFFD glued to the last cue. A NUL inside the text is still U+FFFD and a warning.
    @Test func nulPaddingAtTheEndIsLeftOut() throws {
        let text = Array(Self.srt(["hello", "after"]).utf8)
        let padded = try SRTReader().read(text + [UInt8](repeating: 0, count: 64))
        #expect(padded.cues.map(\.plainText) == ["hello", "after"])
        #expect(padded.diagnostics.map(\.code) == ["srt.encoding.padding"])
        #expect(padded.diagnostics.first?.severity == .note)
        let inside = try SRTReader().read(Array(Self.srt(["hel\u{0}lo"]).utf8))
        #expect(inside.cues.map(\.plainText) == ["hel\u{FFFD}lo"])
        #expect(inside.diagnostics.map(\.code) == ["srt.encoding.null"])
    }

    /// UTF-16 without a byte order mark whose letters have no NUL byte (Cyrillic): recognised by
    /// its NULs in one parity and a line feed among its units, so a MicroDVD file is sniffed as
    /// MicroDVD (it was taken for JSON by its first "{") and read.
    @Test(arguments: ["UTF-16LE", "UTF-16BE"])
    func unmarkedUTF16OfOtherScriptsIsRecognised(encoding: String) throws {
        let text = "{25}{75}Привет, как дела?\n{100}{150}Съешь же ещё этих мягких французских булок.\n"
        let bytes = try #require(SRTReaderTests.encode(text, as: encoding))
        #expect(Charset.unmarkedUTF16(bytes) == encoding)
        #expect(CaptionFormat.sniff(bytes) == .microdvd)
        let document = try MicroDVDReader(frameRate: 25).read(bytes)
        #expect(document.cues.map(\.plainText) == ["Привет, как дела?", "Съешь же ещё этих мягких французских булок."])
        // Text in a code page has no NUL: not UTF-16.
        #expect(Charset.unmarkedUTF16(try #require(SRTReaderTests.encode(text, as: "CP1251"))) == nil)
    }

    /// Shift-JIS is read as Windows-31J, as browsers read it: 0x5C is a backslash (glibc's own
    /// SHIFT_JIS made it ¥, so an ASS file lost its `\N` and `{\i1}`) and 0x7E a tilde.
    @Test func shiftJISKeepsBackslashesAndTildes() throws {
        let script = """
            [Script Info]
            ScriptType: v4.00+

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\i1}こんにちは{\\i0}\\N元気ですか？ ~100円

            """
        let bytes = try #require(SRTReaderTests.encode(script, as: "CP932"))
        let document = try ASSReader().read(bytes)
        #expect(document.cues.map(\.plainText) == ["こんにちは\n元気ですか？ ~100円"])
        let first: InlineNode? = document.cues.first?.content.first
        #expect(first.map { if case .span(let span) = $0 { span.kind == .italic } else { false } } == true)
        #expect(Charset.convert([0x5C, 0x7E], from: "Shift_JIS") == .success(Array("\\~".utf8)))
    }

    /// Short files are read in their code page, in both directions:
    /// - the detectors misname some (uchardet read Slovak Windows-1250 as IBM852, "╚o sa stalo?";
    ///   KOI8-R as Greek; Polish ISO-8859-2 as Windows-1252): read in the code page whose reading
    ///   has none of the marks of a wrong one; KOI8-R as KOI8-U, whose Ukrainian letters are box
    ///   drawing in KOI8-R;
    /// - readings they get right stay, marks or not (a review found the first version trading them
    ///   for GB18030 or EUC-KR): Shift-JIS and GBK with × or half-width katakana, Windows-1252 with
    ///   ´ for an apostrophe; and a short Shift-JIS line is no damaged UTF-8.
    @Test(arguments: [
        (["Ďakujem pekne.", "Čo sa stalo?", "Poďme domov.", "Kde je môj pes?"], "CP1250"),
        (["Да.", "Что?"], "KOI8-R"),
        (["Дякую, їжак і є.", "Добрий день."], "KOI8-U"),
        (["Dzień dobry.", "Żółw śpi."], "ISO-8859-2"),
        (["ナルト×サスケの対決だ！", "今日はとても寒いですね。", "そうですね、早く帰りましょう。"], "SHIFT_JIS"),
        (["ｺﾝﾆﾁﾊ、元気？", "今日はとても寒いですね。"], "SHIFT_JIS"),
        (["おはよう"], "SHIFT_JIS"),
        (["你好×我们现在去哪里？", "我不知道，他没有告诉我。"], "GBK"),
        (["I´m sure you don´t know.", "It´s what we´ll do."], "CP1252"),
        (["Não sei, João.", "Ele´s aqui? Não!"], "CP1252"),
    ])
    func shortFilesAreReadInTheirCodePage(lines: [String], encoding: String) throws {
        let bytes = try #require(SRTReaderTests.encode(Self.srt(lines), as: encoding))
        let document = try SRTReader().read(bytes)
        #expect(document.cues.map(\.plainText) == lines, "\(document.diagnostics.map(\.message))")
    }

    /// The marks of a wrong reading, and none in text read right, in any script.
    @Test func wrongReadingsShowMarks() {
        func marks(_ text: String) -> Int { DecodedTextPlausibility.penalty(Array(text.utf8)) }
        for right in ["Čo sa stalo?", "Что?", "naïve café, 20°C, £5", "元気ですか～？ ★", "네, 아니요.", "McDonald's iPhone", "¿Qué? ¡Sí!"] {
            #expect(marks(right) == 0, "\(right)")
        }
        #expect(marks("╚o sa stalo?") == 2)  // box drawing
        #expect(marks("m˘j pes") == 1)  // a symbol in a word
        #expect(marks("δΑ.") == 1)  // a capital after a small letter
        #expect(marks("Dzieс") == 1)  // two alphabets in a word
        #expect(marks("ｳﾗ") == 2)  // half-width katakana
        #expect(marks("caf\u{0089}") == 3)  // a C1 control
    }
}

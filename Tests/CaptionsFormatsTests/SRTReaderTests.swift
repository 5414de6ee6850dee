import CaptionsCore
@testable import CaptionsFormats
import Foundation
import Testing

@Suite struct SRTReaderTests {
    @Test func readsStandardSRTWithoutDiagnostics() throws {
        let document = try readSRT("""
            1
            00:00:01,000 --> 00:00:02,500
            <i>Hello</i> <b>there</b>,
            <u>friend</u>

            2
            00:00:03,000 --> 00:00:04,000
            <font color="#ffff00">Yellow</font>

            """)
        #expect(document.diagnostics.isEmpty)
        #expect(document.cues.map(\.id) == ["1", "2"])
        #expect(document.cues[0].plainText == "Hello there,\nfriend")
        #expect(document.cues[0].end == MediaTime(milliseconds: 2500))
        #expect(document.cues[1].content == [.span(Span(.class, style: TextStyle(color: RGBAColor(red: 255, green: 255, blue: 0)), children: [.text("Yellow")]))])
    }

    /// Mapped files are parsed in place when clean and from a decoded copy otherwise; either way the
    /// document is the one an owned array gives.
    @Test(arguments: [[UInt8]]([
        Array("1\n00:00:01,000 --> 00:00:02,000\nclean <i>text</i> & more\n".utf8),
        [0xEF, 0xBB, 0xBF] + Array("1\n00:00:01,000 --> 00:00:02,000\nwith a byte order mark\n".utf8),
        Array("1\n00:00:01,000 --> 00:00:02,000\ncaf".utf8) + [0xE9, 0x0A],
        Array("1\n00:00:01,000 --> 00:00:02,000\nnul".utf8) + [0x00, 0x0A],
        [0xFF, 0xFE] + "1\n00:00:01,000 --> 00:00:02,000\nwide\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
        [],
    ]))
    func readsBorrowedBytesLikeOwnedOnes(bytes: [UInt8]) {
        expectBorrowedReadMatchesOwned(SRTReader(), bytes)
    }

    /// A block that is only a number is a cue whose times were lost, not text of the cue before
    /// (ExoPlayer's typical_unexpected_end: "Hello\n2" before).
    @Test func aLoneIndexIsNotText() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n")
        #expect(document.cues.map(\.plainText) == ["Hello"])
        #expect(document.diagnostics.map(\.code.rawValue) == ["srt.block.indexOnly"])
        let number = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nHello\n\nroom 2\n")
        #expect(number.cues.map(\.plainText) == ["Hello\nroom 2"])
        // A number that is not the next cue's is text; after a skipped index the next cue is expected.
        let year = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nIn\n\n1985\n")
        #expect(year.cues.map(\.plainText) == ["In\n1985"])
        let lost = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n\n3\n00:00:03,000 --> 00:00:04,000\nB\n")
        #expect(lost.cues.map(\.plainText) == ["A", "B"])
        #expect(lost.diagnostics.map(\.code.rawValue) == ["srt.block.indexOnly"])
    }

    /// Two files joined: the second's byte order mark before its first index is not text of the
    /// cue before ("Hello\n\u{FEFF}1" and a cue without an index, before).
    @Test func aByteOrderMarkInsideTheFileIsIgnored() throws {
        let document = try SRTReader().read(
            Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n\n".utf8) + [0xEF, 0xBB, 0xBF]
                + Array("1\n00:00:03,000 --> 00:00:04,000\nWorld\n".utf8))
        #expect(document.cues.map(\.plainText) == ["Hello", "World"])
        #expect(document.cues.map(\.id) == ["1", "1"])
        #expect(document.diagnostics.map(\.code.rawValue).contains("srt.bom.inside"))
    }

    /// SubStation's `\N` and `\n` are line breaks and `\h` a no-break space in SRT, as VLC, FFmpeg
    /// and pysubs2 show them; tag names may hold `_` (`<x_y>` is a tag, dropped like `<wwww>`).
    @Test func subStationEscapesAndUnderscoredTags() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\none\\Ntwo\\nthree\\hfour <x_y>five</x_y> 5\\x\n")
        #expect(document.cues.map(\.plainText) == ["one\ntwo\nthree\u{00A0}four five 5\\x"])
        // Text holding them is written with an invisible U+200B after the backslash, and said
        // (found by the fuzzer: TTML's "\\he" came back from SRT as " e").
        var literal = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nx\n")
        literal.cues[0].content = [.text("\\he said C:\\new")]
        #expect(SRTWriter().fit(&literal).map(\.code.rawValue) == ["convert.lost.literalMarkup"])
        let back = try SRTReader().read(SRTWriter().write(literal))
        #expect(back.cues.map(\.plainText) == ["\\\u{200B}he said C:\\\u{200B}new"])
    }

    @Test func eachLeniencyIsReportedWithItsPosition() throws {
        let document = try readSRT(
            "1\n00:00:01.5 -> 00:00:02,000  X1:10 X2:20\nfirst   \n\n\n\n5\n00:00:03,000 --> 00:00:04,000\nsecond\n"
                + "00:00:05,000 -- > 00:00:06,000\nno index, no blank line\n\nstray text\n\n7\n01:02,000 --> 01:03,000\n"
                + "{\\an8}<x>top</x>{\\pos(1,2)}\n")
        #expect(document.cues.map(\.plainText) == ["first", "second", "no index, no blank line\nstray text", "top"])
        #expect(codes(document) == [
            "srt.timestamp.separator@2:1", "srt.timestamp.digits@2:1", "srt.arrow.nonstandard@2:12",
            "srt.timing.extra@2:29", "srt.whitespace.trailing@3:6", "srt.blankLines.extra@5:1",
            "srt.index.unexpected@7:1", "srt.blankLine.missing@10:1", "srt.index.missing@10:1",
            "srt.text.afterBlankLine@13:1", "srt.timestamp.hours@16:1", "srt.tag.unknown@17:7", "srt.tag.override@17:17",
        ])
        #expect(document.cues[3].settings == NumpadPosition(rawValue: 8)?.settings)
        #expect(document.cues[0].start == MediaTime(milliseconds: 1500))
    }

    /// `→` arrows have no `>` to size the cue storage by, and lone CR lines no LF: every cue is
    /// still read.
    @Test func unicodeArrowsOnCarriageReturnLinesAreAllRead() throws {
        let cues = (1...5).map { "\($0)\r00:00:0\($0),000 \u{2192} 00:00:0\($0),500\rline \($0)\r" }
        let document = try readSRT(cues.joined(separator: "\r"))
        #expect(document.cues.map(\.plainText) == (1...5).map { "line \($0)" })
    }

    @Test func aNumberAloneIsTextUnlessTimesFollow() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nThe year was\n1984\n\n2\n00:00:03,000 --> 00:00:04,000\nx\n")
        #expect(document.cues.map(\.plainText) == ["The year was\n1984", "x"])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func overlappingCuesAreKept() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:05,000\na\n\n2\n00:00:02,000 --> 00:00:03,000\nb\n")
        #expect(document.cues.count == 2)
    }

    /// A `<font>` that keeps nothing (its size and face dropped, and reported) leaves no span: the
    /// cue is its plain text, joined as one, as it reads once written back, so `captions fix`
    /// re-wraps it the first time (pysrt's capability tester was re-wrapped on a second fix). A
    /// colour keeps its span.
    @Test func aFontThatKeepsNothingLeavesNoSpan() throws {
        let document = try readSRT(
            "1\n00:00:01,000 --> 00:00:02,000\n<font size=\"8\">small</font>\nnormal <font face=\"Arial\">big</font>!\n\n"
                + "2\n00:00:03,000 --> 00:00:04,000\n<font color=\"#00ff00\" size=\"8\">green</font>\n")
        #expect(document.cues[0].content == [.text("small\nnormal big!")])
        #expect(document.cues[1].content == [.span(Span(.class, style: TextStyle(color: RGBAColor(red: 0, green: 255, blue: 0)), children: [.text("green")]))])
        #expect(codes(document) == ["srt.font.attribute@3:1"])  // one diagnostic for the three, counted
    }

    @Test func windows1252AndUTF16AreDecoded() throws {
        var latin = bytes("1\n00:00:01,000 --> 00:00:02,000\ncaf")
        latin += [0xE9, 0x20, 0x93, 0x68, 0x69, 0x94, 0x0A]
        let fromLatin = try SRTReader().read(latin)
        #expect(fromLatin.cues[0].plainText == "café “hi”")
        #expect(fromLatin.diagnostics.map(\.code) == ["srt.encoding.detected"])

        let text = "1\r\n00:00:01,000 --> 00:00:02,000\r\nnaïve\r\n"
        let utf16: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let fromUTF16 = try SRTReader().read(utf16)
        #expect(fromUTF16.cues[0].plainText == "naïve")
        #expect(fromUTF16.diagnostics.map(\.code) == ["srt.encoding.utf16"])
    }

    /// Code pages other than Windows-1252 are detected (uchardet) and converted (iconv); UTF-32
    /// with a byte order mark and UTF-16 without one are recognised.
    @Test func otherEncodingsAreDetectedAndConverted() throws {
        let russian = "1\r\n00:00:01,000 --> 00:00:02,000\r\nПривет, как дела? Сегодня хорошая погода.\r\n"
        let encoded = try #require(Self.encode(russian, as: "CP1251"))
        let fromCP1251 = try SRTReader().read(encoded)
        #expect(fromCP1251.cues.first?.plainText == "Привет, как дела? Сегодня хорошая погода.")
        #expect(fromCP1251.diagnostics.map(\.code) == ["srt.encoding.detected"])
        #expect(fromCP1251.diagnostics.first?.message.contains("WINDOWS-1251") == true)
        // uchardet names it; ICU's detector, asked for a second opinion, agrees and says how sure it is.
        let opinion = try #require(fromCP1251.diagnostics.first?.message)
        #expect(opinion.contains("ICU's detector agrees, confidence "), "\(opinion)")
        let confidence = try #require(Int(opinion.split(separator: "confidence ")[1].prefix { $0.isNumber }))
        #expect((1...100).contains(confidence))

        let text = "1\n00:00:01,000 --> 00:00:02,000\nnaïve café\n"
        let utf32 = try #require(Self.encode(text, as: "UTF-32LE"))
        let fromUTF32 = try SRTReader().read([0xFF, 0xFE, 0, 0] + utf32)
        #expect(fromUTF32.cues.first?.plainText == "naïve café")
        #expect(fromUTF32.diagnostics.map(\.code) == ["srt.encoding.utf32"])
        let fromBareUTF16 = try SRTReader().read(try #require(Self.encode(text, as: "UTF-16BE")))
        #expect(fromBareUTF16.cues.first?.plainText == "naïve café")
        #expect(fromBareUTF16.diagnostics.map(\.code) == ["srt.encoding.utf16"])
    }

    /// ICU's candidates come best first with confidences; names that read text the same way match
    /// however they are spelled, and ISO 8859 parts match the Windows code pages built on them.
    @Test func icuGivesCandidatesAndNamesMatchAcrossSpellings() throws {
        let greek = try #require(Self.encode(String(repeating: "Καλημέρα σας, τι κάνετε σήμερα; Ο καιρός είναι ωραίος. ", count: 4), as: "ISO-8859-7"))
        let candidates = Charset.candidates(greek)
        #expect(candidates.first.map { Charset.sameReading($0.name, "ISO-8859-7") } == true, "\(candidates)")
        #expect(zip(candidates, candidates.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        #expect(Charset.candidates([]).isEmpty)
        #expect(Charset.sameReading("WINDOWS-1251", "windows-1251") && Charset.sameReading("Shift_JIS", "SHIFT-JIS"))
        #expect(Charset.sameReading("ISO-8859-2", "windows-1250") && Charset.sameReading("UTF-16LE", "UTF-16BE"))
        #expect(!Charset.sameReading("WINDOWS-1251", "WINDOWS-1252") && !Charset.sameReading("ISO-8859-5", "KOI8-R"))
    }

    /// Detection mistakes found on real-looking text: short English Windows-1252 with curly quotes
    /// was read as MAC-CENTRALEUROPE ("I’m" as "Iím"), Czech Windows-1250 as ISO-8859-2 ("š" at
    /// 0x9A, a C1 control there); a Czech Mac file stays a Mac file.
    @Test(arguments: [
        ("I’m here – you’re there. It’s fine, we don’t know what’s there.", "CP1252", "windows-1252"),
        ("Příliš žluťoučký kůň úpěl ďábelské ódy. Česká republika je krásná země.", "CP1250", "WINDOWS-1250"),
        ("Příliš žluťoučký kůň úpěl ďábelské ódy. Česká republika je krásná země.", "MAC-CENTRALEUROPE", "MAC-CENTRALEUROPE"),
    ])
    func windowsCodePagesAreNotTakenForOthers(text: String, encoding: String, detected: String) throws {
        let encoded = try #require(Self.encode("1\n00:00:01,000 --> 00:00:02,000\n\(text)\n", as: encoding))
        let document = try SRTReader().read(encoded)
        #expect(document.cues.first?.plainText == text)
        #expect(document.diagnostics.first?.message.contains("read as \(detected)") == true, "\(document.diagnostics)")
    }

    /// `text` in `encoding`, through iconv the other way.
    static func encode(_ text: String, as encoding: String) -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        process.arguments = ["-f", "UTF-8", "-t", encoding]
        let input = Pipe(), output = Pipe()
        (process.standardInput, process.standardOutput) = (input, output)
        guard (try? process.run()) != nil else { return nil }
        input.fileHandleForWriting.write(Data(text.utf8))
        try? input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Array(bytes) : nil
    }

    @Test(arguments: ["just words\nno times\n", String(repeating: "a", count: 100_000)])
    func inputWithoutCuesIsAnError(text: String) {
        #expect(throws: CaptionsError.self) { try readSRT(text) }
    }

    /// An empty file is how SRT writes a document without cues, so it reads back as one.
    @Test(arguments: ["", "\n\n", "\u{FEFF} \r\n"])
    func anEmptyFileIsNoCuesWithAWarning(text: String) throws {
        let document = try readSRT(text)
        #expect(document.cues.isEmpty)
        #expect(codes(document) == ["srt.empty@1:1"])
    }

    @Test func aFileThatEndsInsideACueIsAnError() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nx\n\n2\n00:00:03,000 --> 00:00:0")
        #expect(document.diagnostics.contains { $0.severity == .error && $0.code == "srt.input.truncated" })
        let complete = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nx")
        #expect(complete.diagnostics.isEmpty)
    }

    /// MicroDVD's control codes left in SRT text (pysrt's capability tester) are dropped with a
    /// warning; braces around other text are text.
    @Test func microDVDControlCodesAreDropped() throws {
        let document = try readSRT(
            "1\n00:00:01,000 --> 00:00:02,000\nhide {Y:i}these{c:$0000FF}{s:12}{Y:some_letters_or_numbers}, show {normal text} {x:y} {h:mm} {c:red}\n")
        #expect(document.cues.map(\.plainText) == ["hide these, show {normal text} {x:y} {h:mm} {c:red}"])
        // One warning a cue for the code, at its first place (as for other dropped tags).
        #expect(codes(document) == ["srt.tag.microDVD@3:6"])
        // Text that holds one (a MicroDVD line's text, found by the fuzzer) is written with an
        // invisible U+200B after the brace, and said.
        var literal = document
        literal.cues[0].content = [.text("25}{50}{y:i}Hello")]
        #expect(SRTWriter().fit(&literal).map(\.code.rawValue) == ["convert.lost.literalMarkup"])
        let back = try SRTReader().read(SRTWriter().write(literal))
        #expect(back.cues.map(\.plainText) == ["25}{50}{\u{200B}y:i}Hello"])
    }

    /// A file that ends on whole times (webvtt-py's invalid_format4.srt) keeps the cues before it:
    /// a warning, not an error that wrote nothing; the last cue is read as the same bytes with a
    /// line break after them read it.
    @Test func aFileThatEndsOnWholeTimesKeepsItsCues() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:04,000"
        let document = try readSRT(text)
        #expect(codes(document) == ["srt.input.truncated@6:1"])
        #expect(document.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(document.cues.map(\.plainText) == (try readSRT(text + "\n")).cues.map(\.plainText))
        #expect(document.cues.first?.plainText == "Hello")
        // Written leniently (a dot, one-digit fields), whole all the same; cut short, an error.
        for lenient in ["00:00:03.000 --> 00:00:04.000", "0:0:3,0 --> 0:0:4,5"] {
            let read = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n" + lenient)
            #expect(read.diagnostics.filter { $0.code == "srt.input.truncated" }.map(\.severity) == [.warning], "\(lenient)")
        }
        let cut = try readSRT("1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:0")
        #expect(cut.diagnostics.filter { $0.code == "srt.input.truncated" }.map(\.severity) == [.error])
    }

    @Test(arguments: ["999999", "99999999999999999999"])
    func implausibleTimesAreErrors(hours: String) throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n\(hours):00:00,000 --> \(hours):00:01,000\nx\n")
        #expect(document.diagnostics.contains { $0.severity == .error && $0.code == "time.outOfRange" })
        #expect(document.cues.map(\.plainText) == ["a", "x"], "the cue is read as a cue, not as text of the one before")
    }

    /// A file shifted too far back: the time is read as 0 with a warning, and the cue stays a cue
    /// (it was taken for text of the cue before).
    @Test func aNegativeTimeIsReadAsZero() throws {
        let document = try readSRT("1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n-00:00:01,500 --> 00:00:03,000\nb\n")
        #expect(document.cues.map(\.plainText) == ["a", "b"])
        #expect(document.cues.last?.start == .zero)
        #expect(document.cues.last?.end == MediaTime(milliseconds: 3000))
        #expect(codes(document) == ["srt.time.negative@6:1"])
    }
}

import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// ASS/SSA, SBV/SubViewer and MicroDVD: read into the model with styles, positions and speakers, written back, and
/// every such file of the shared real-world corpus read.
@Suite struct SubStationAndSBVTests {
    static let ass = """
        [Script Info]
        ; a comment
        ScriptType: v4.00+

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment
        Style: Default,Arial,20,&H00FFFFFF,0,0,2
        Style: Sign,Arial,20,&H0000FFFF,-1,0,8

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.50,0:00:03.00,Default,Ann,0,0,0,,{\\i1}Hello{\\i0}, world,\\Nsecond line
        Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,not shown
        Dialogue: 0,0:00:04.00,0:00:05.25,Sign,,0,0,0,,{\\an7\\pos(10,10)\\fad(100,100)}EXIT
        Dialogue: 0,0:00:06.00,0:00:07.00,Default,,0,0,0,,soft\\nbreak {\\p1}m 0 0 l 10 10{\\p0}and\\hspace
        """

    @Test func assStylesPositionsAndSpeakersAreRead() throws {
        let document = try ASSReader().read(Array(Self.ass.utf8))
        #expect(document.cues.map(\.plainText) == ["Hello, world,\nsecond line", "EXIT", "soft break and\u{00A0}space"])
        #expect(document.cues.map(\.start) == [MediaTime(milliseconds: 1500), MediaTime(seconds: 4), MediaTime(seconds: 6)])
        #expect(document.cues[0].end == MediaTime(milliseconds: 3000))
        #expect(document.cues[0].speaker == "Ann")
        guard case .span(let italic) = document.cues[0].content.first else { Issue.record("no italic span"); return }
        #expect(italic.kind == .italic && italic.children == [.text("Hello")])
        // The override's \an7 wins over the style's 8; the style's bold and yellow colour apply.
        #expect(NumpadPosition.nearest(to: document.cues[1].settings) == NumpadPosition(rawValue: 7))
        guard case .span(let coloured) = document.cues[1].content.first else { Issue.record("no colour span"); return }
        #expect(coloured.style?.color == RGBAColor(red: 255, green: 255, blue: 0))
        #expect(coloured.children.first.map { if case .span(let bold) = $0 { bold.kind == .bold } else { false } } == true)
        let dropped = document.diagnostics.first { $0.code.rawValue == "ass.override.dropped" }
        #expect(dropped?.message.contains("\\fad") == true && dropped?.message.contains("\\pos") == true)
        #expect(dropped?.location?.line == 14)
        // A position dropped is a warning, as in SRT (it was a note, shown only with -v).
        #expect(dropped?.severity == .warning)
    }

    /// Override tags named with a leading digit are listed by name (a bare "\\" before), and
    /// those of the font alone are a note.
    @Test func droppedOverridesAreNamed() throws {
        let ass = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\3c&H0000FF&\\fs40}Big\n"
        let document = try ASSReader().read(Array(ass.utf8))
        let dropped = document.diagnostics.first { $0.code.rawValue == "ass.override.dropped" }
        #expect(dropped?.message.contains("\\3c") == true && dropped?.message.contains("\\fs") == true, "\(String(describing: dropped))")
        #expect(dropped?.severity == .note)
    }

    /// A line that only draws shapes (`\p1`) has no text: left out, with the drawings said once
    /// (it was an empty cue, written to SRT as a block with no text, which players drop).
    @Test func linesThatOnlyDrawAreLeftOutAndSaid() throws {
        let document = try ASSReader().read(Array((Self.ass + "\nDialogue: 0,0:00:08.00,0:00:09.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}\n").utf8))
        #expect(document.cues.map(\.plainText) == ["Hello, world,\nsecond line", "EXIT", "soft break and\u{00A0}space"])
        let drawings = document.diagnostics.filter { $0.code.rawValue == "ass.drawing.dropped" }
        #expect(drawings.count == 1 && drawings.first?.message.hasPrefix("2 Dialogue lines") == true, "\(drawings)")
        #expect(drawings.first?.location?.line == 15)
    }

    /// SSA: `[V4 Styles]`, legacy `\a` numbering (6 is top centre) and `\n` as a line break.
    @Test func ssaLegacyAlignmentAndBreaksAreRead() throws {
        let ssa = """
            [Script Info]
            ScriptType: v4.00
            [V4 Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment
            Style: Default,Arial,20,16777215,0,-1,2
            [Events]
            Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\a6}top\\nline
            """
        let document = try ASSReader().read(Array(ssa.utf8))
        #expect(document.cues.map(\.plainText) == ["top\nline"])
        #expect(NumpadPosition.nearest(to: document.cues[0].settings) == NumpadPosition(rawValue: 8))
        guard case .span(let italic) = document.cues[0].content.first else { Issue.record("style italic not applied"); return }
        #expect(italic.kind == .italic)
    }

    /// UTF-16 with a byte order mark is recognised by its text, whatever its length.
    @Test(arguments: [0, 1, 3, 5000])
    func utf16ContentIsRecognised(padding: Int) throws {
        let text = Self.ass + "\n" + String(repeating: "x", count: padding)
        let units: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16: [UInt8] = [0xFF, 0xFE] + units + (padding % 2 == 1 ? [0x41] : [])
        #expect(CaptionFormat.sniff(utf16) == .ass)
    }

    /// UTF-16 without a byte order mark is recognised by its text too: MicroDVD's first "{" was
    /// taken for JSON (podcast.json.invalid), in either byte order.
    @Test(arguments: [false, true])
    func unmarkedUTF16IsRecognised(bigEndian: Bool) throws {
        let text = "{1}{50}Hello world\n{60}{100}Second|line\n"
        let bytes: [UInt8] = text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(CaptionFormat.sniff(bytes) == .microdvd)
    }

    /// `H:MM:SS:cc` (ExoPlayer reads it; libass skips the line) is read as `H:MM:SS.cc`, with a
    /// note; a time that is neither is still skipped with a warning.
    @Test func centisecondsAfterAColonAreRead() throws {
        let events = Self.ass.components(separatedBy: "[Events]")[0] + """
            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:04:56,0:00:08:90,Default,,0,0,0,,Colon
            Dialogue: 0,0:00:09.00,0:00:10:5,Default,,0,0,0,,Mixed
            Dialogue: 0,0:00:11:00:00,0:00:12.00,Default,,0,0,0,,Five fields
            Dialogue: 0,0:00:13:x,0:00:14.00,Default,,0,0,0,,Not a number
            Dialogue: 0,0:01:75.00,0:02:20.00,Default,,0,0,0,,Carried
            Dialogue: 0,0:01:100.00,0:02:20.00,Default,,0,0,0,,Three digits

            """
        let document = try ASSReader().read(Array(events.utf8))
        #expect(document.cues.map(\.plainText) == ["Colon", "Mixed", "Carried"])
        // Seconds past 59 carry over, as libass, FFmpeg and pysubs2 read them (it was skipped).
        #expect(document.cues.last?.start == MediaTime(seconds: 135))
        #expect(document.diagnostics.filter { $0.code.rawValue == "ass.time.carried" }.map(\.location?.line) == [16])
        #expect(document.cues.first?.start == MediaTime(milliseconds: 4_560))
        #expect(document.cues.first?.end == MediaTime(milliseconds: 8_900))
        #expect(document.cues[1].end == MediaTime(milliseconds: 10_500))
        #expect(document.diagnostics.filter { $0.code.rawValue == "ass.time.colon" }.count == 1)
        #expect(document.diagnostics.filter { $0.code.rawValue == "ass.time.malformed" }.count == 3)
    }

    /// Dialogue lines with no events `Format` line are read with ASS's usual columns, and say so.
    @Test func dialogueWithoutAFormatLineSaysWhichColumnsWereAssumed() throws {
        let script = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,Ann,0,0,0,,Hello\n"
        let document = try ASSReader().read(Array(script.utf8))
        #expect(document.cues.map(\.plainText) == ["Hello"])
        #expect(document.cues.first?.speaker == "Ann")
        #expect(document.diagnostics.map(\.code.rawValue) == ["ass.format.assumed"])
        let withFormat = try ASSReader().read(Array(Self.ass.utf8))
        #expect(!withFormat.diagnostics.contains { $0.code.rawValue == "ass.format.assumed" })
    }

    /// A piece of a script that starts with its events' `Format` line is taken for ASS, and
    /// refused as one (it was read as SRT: "does not look like an SRT file").
    @Test func aLoneFormatLineIsRecognisedAsASS() {
        let piece = Array("Format: Layer, Start, End, Style, Name, Text\n".utf8)
        #expect(CaptionFormat.sniff(piece) == .ass)
    }

    /// What ASS would read as codes stays text, and says so; a style inside the same style ends
    /// back in the outer one (`{\\c}` and `{\\b0}` used to end both). The literal backslashes come
    /// from the model (SRT's own `\\N`, `\\n` and `\\h` are SubStation's escapes, as players read them).
    @Test func literalCodesAndNestedStylesSurviveTheASSWriter() throws {
        let srt = """
            1
            00:00:01,000 --> 00:00:02,000
            set {x} and a\\Nb and C:\\hello\\new

            2
            00:00:03,000 --> 00:00:04,000
            <font color="#00FF00">green <font color="#FF0000">red</font> green again</font>

            3
            00:00:05,000 --> 00:00:06,000
            <b>bold <b>bold2</b> still bold</b> plain

            """
        var document = try SRTReader().read(Array(srt.utf8))
        document.cues[0].content = [.text("set {x} and a\\Nb and C:\\hello\\new")]
        let writer = ASSWriter()
        let diagnostics = writer.fit(&document)
        #expect(diagnostics.map(\.code.rawValue) == ["convert.lost.literalMarkup"])
        let back = try ASSReader().read(writer.write(document))
        #expect(back.cues[0].plainText == "set (x) and a\\\u{200B}Nb and C:\\\u{200B}hello\\\u{200B}new")
        let webvtt = String(decoding: WebVTTWriter().write(back), as: UTF8.self)
        #expect(webvtt.contains("<c.lime>green </c><c.red>red</c><c.lime> green again</c>"), "\(webvtt)")
        #expect(webvtt.contains("<b>bold bold2 still bold</b> plain"), "\(webvtt)")
    }

    /// Times move to centiseconds, with a note; a cue shorter than one lasts one, with a warning
    /// (it was written starting and ending on the same centisecond, never shown).
    @Test func assTimesAreCentisecondsAndNoCueVanishes() throws {
        let srt = "1\n00:00:01,234 --> 00:00:02,345\nOne\n\n2\n00:00:03,001 --> 00:00:03,004\nBlink\n"
        var document = try SRTReader().read(Array(srt.utf8))
        let diagnostics = ASSWriter().fit(&document)
        #expect(diagnostics.map(\.code.rawValue) == ["ass.time.centiseconds", "ass.time.tooShort"])
        let back = try ASSReader().read(ASSWriter().write(document))
        #expect(back.cues.map(\.start) == [MediaTime(milliseconds: 1_230), MediaTime(milliseconds: 3_000)])
        #expect(back.cues.map(\.end) == [MediaTime(milliseconds: 2_350), MediaTime(milliseconds: 3_010)])
    }

    /// A speaker name holding a comma would end ASS's Name field (the rest became the margins and
    /// the text): it is written with a space instead, and said so.
    @Test func aSpeakerNameWithACommaIsWrittenWithoutItAndReported() throws {
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Smith, John>Hello, there\n\n00:00:03.000 --> 00:00:04.000\n<v Ann>Hi\n"
        var document = try WebVTTReader().read(Array(vtt.utf8))
        let diagnostics = ASSWriter().fit(&document)
        #expect(diagnostics.map(\.code.rawValue) == ["ass.name.comma"])
        #expect(diagnostics.first?.message.hasPrefix("1 cue with a speaker name") == true)
        let back = try ASSReader().read(ASSWriter().write(document))
        #expect(back.cues.map(\.speaker) == ["Smith John", "Ann"])
        #expect(back.cues.map(\.plainText) == ["Hello, there", "Hi"])
    }

    /// Overrides are written as a state that changes between runs of text, not as nested spans:
    /// styles nested in any order, a colour inside another, a colour around changes of weight
    /// (SAMI's), and two italic spans side by side come out as few blocks as the runs need, and
    /// writing what was read back gives the same bytes.
    @Test func assWrittenTwiceIsTheSame() throws {
        let srt = """
            1
            00:00:01,000 --> 00:00:02,000
            <i><u><font color="#FFFF00">text</font></u></i>

            2
            00:00:03,000 --> 00:00:04,000
            <font color="#FF0000"><font color="#000000">(deep rumbling)</font></font>

            3
            00:00:05,000 --> 00:00:06,000
            <font color="#FFEEDD">I <b>do</b> <i>not</i> go</font>

            4
            00:00:07,000 --> 00:00:08,000
            <i>This is a </i><i>test</i>

            """
        var document = try SRTReader().read(Array(srt.utf8))
        _ = ASSWriter().fit(&document)
        let first = ASSWriter().write(document)
        var back = try ASSReader().read(first)
        _ = ASSWriter().fit(&back)
        let second = ASSWriter().write(back)
        #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))
        let lines = String(decoding: first, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("Dialogue:") }
            .map { $0.split(separator: ",", maxSplits: 9).last.map(String.init) ?? "" }
        #expect(lines == [
            "{\\i1\\u1\\c&H00FFFF&}text{\\i0\\u0\\c}", "{\\c&H000000&}(deep rumbling){\\c}",
            "{\\c&HDDEEFF&}I {\\b1}do{\\b0} {\\i1}not{\\i0} go{\\c}", "{\\i1}This is a test{\\i0}",
        ])
    }

    @Test func assWrittenReadsBackAsItself() throws {
        let document = try ASSReader().read(Array(Self.ass.utf8))
        let written = ASSWriter().write(document)
        let reread = try ASSReader().read(written)
        #expect(reread.cues.map(\.plainText) == document.cues.map(\.plainText))
        #expect(reread.cues.map(\.start) == document.cues.map(\.start))
        #expect(reread.cues.map(\.speaker) == document.cues.map(\.speaker))
        #expect(reread.cues.map { NumpadPosition.nearest(to: $0.settings) } == document.cues.map { NumpadPosition.nearest(to: $0.settings) })
        #expect(CaptionFormat.sniff(written) == .ass)
    }

    @Test func sbvIsReadWrittenAndItsBadTimingsReported() throws {
        let sbv = "0:00:01.000,0:00:02.500\nfirst\nline two\n\n0:00:0x.000,0:00:04.000\nbroken\n\n1:02:03.4,1:02:05.000\nlast\n"
        let document = try SBVReader().read(Array(sbv.utf8))
        #expect(document.cues.map(\.plainText) == ["first\nline two", "last"])
        #expect(document.cues[1].start == MediaTime(milliseconds: 3_723_400))
        #expect(document.diagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["sbv.timing.malformed 5"])
        let written = SBVWriter().write(document)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("0:00:01.000,0:00:02.500\nfirst\nline two\n\n"))
        let reread = try SBVReader().read(written)
        #expect(reread.cues.map(\.plainText) == document.cues.map(\.plainText))
        #expect(reread.cues.map(\.start) == document.cues.map(\.start) && reread.cues.map(\.end) == document.cues.map(\.end))
        #expect(reread.cues.map { $0.location?.line } == [1, 5])
        #expect(CaptionFormat.sniff(written) == .sbv)
        #expect(throws: CaptionsError.self) { try SBVReader().read(Array("no cues here\n".utf8)) }
    }


    /// A cue that ends before it starts (webvtt-py's sample.sbv has one) is read as ending when it
    /// starts, and said so with its line, as SRT and WebVTT say it; it used to be clamped silently.
    @Test func cuesEndingBeforeTheyStartAreReported() throws {
        let sbv = try SBVReader().read(Array("0:00:01.000,0:00:02.000\nfine\n\n0:00:17.484,0:00:16.543\nbackwards\n".utf8))
        #expect(sbv.cues.map(\.plainText) == ["fine", "backwards"])
        #expect(sbv.cues[1].end == sbv.cues[1].start)
        #expect(sbv.diagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["sbv.cue.endBeforeStart 4"])
        let ass = Self.ass.replacingOccurrences(of: "0:00:04.00,0:00:05.25", with: "0:00:05.25,0:00:04.00")
        let read = try ASSReader().read(Array(ass.utf8))
        #expect(read.diagnostics.contains { $0.code.rawValue == "ass.cue.endBeforeStart" && $0.location?.line == 14 })
    }

    /// A document without cues written as ASS reads back as one, with a warning (it used to be
    /// refused: our own output, from a TTML file whose paragraphs no region shows); a file with no
    /// [Events] section at all is still not ASS.
    @Test func anEmptyScriptReadsBackAsNoCues() throws {
        let written = ASSWriter().write(TimedTextDocument())
        let document = try ASSReader().read(written)
        #expect(document.cues.isEmpty)
        #expect(document.diagnostics.map(\.code.rawValue) == ["ass.empty"])
        #expect(throws: CaptionsError.self) { try ASSReader().read(Array("[Script Info]\nTitle: nothing\n".utf8)) }
    }

    /// Text that MicroDVD or SBV would read as codes (`|`, `{y:b}` or `/` at a line's start,
    /// `[br]`) reads back as the same words, said in one warning; it used to become line breaks,
    /// bold and italics without a word.
    @Test func textLikeCodesStaysTextInMicroDVDAndSBV() throws {
        let source = try readWebVTT("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n{y:b}Bold? no\n\n00:00:03.000 --> 00:00:04.000\nsee /usr\n/etc too\n\n00:00:05.000 --> 00:00:06.000\nA|B [br] [BR]\n\n00:00:07.000 --> 00:00:08.000\nplain\n")
        func visible(_ text: String) -> String { text.replacing("\u{200B}", with: "").replacing("¦", with: "|") }
        var microDVD = source
        let microWriter = MicroDVDWriter(frameRate: 25)
        let microDiagnostics = microWriter.fit(&microDVD)
        #expect(microDiagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["convert.lost.literalMarkup 3"])
        #expect(microDiagnostics.first?.message.hasPrefix("3 cues hold") == true)
        let microBack = try MicroDVDReader().read(microWriter.write(microDVD))
        #expect(microBack.cues.map { visible($0.plainText) } == source.cues.map(\.plainText))
        #expect(microBack.cues.allSatisfy { $0.content.allSatisfy { if case .text = $0 { true } else { false } } }, "no styles")
        var sbv = source
        #expect(SBVWriter().fit(&sbv).map(\.code.rawValue) == ["convert.lost.literalMarkup"])
        let sbvBack = try SBVReader().read(SBVWriter().write(sbv))
        #expect(sbvBack.cues.map { visible($0.plainText) } == source.cues.map(\.plainText))
    }

    /// An empty document written as SBV or MicroDVD reads back as no cues with a warning, as SRT
    /// does, not as an error; text that holds no cue is still refused.
    @Test func emptyDocumentsReadBackAsNoCues() throws {
        let sbv = try SBVReader().read(SBVWriter().write(TimedTextDocument()))
        #expect(sbv.cues.isEmpty && sbv.diagnostics.map(\.code.rawValue) == ["sbv.empty"])
        let microDVD = try MicroDVDReader().read(MicroDVDWriter(frameRate: 25).write(TimedTextDocument()))
        #expect(microDVD.cues.isEmpty && microDVD.diagnostics.map(\.code.rawValue) == ["microdvd.empty"])
        #expect(throws: CaptionsError.self) { try SBVReader().read(Array("not a cue\n".utf8)) }
        #expect(throws: CaptionsError.self) { try MicroDVDReader().read(Array("not a cue\n".utf8)) }
    }

    /// MicroDVD styles whole lines: a line whose letters are all italic, bold, underlined or of
    /// one colour is written with its codes and reads back so (italics were dropped, even
    /// MicroDVD to MicroDVD); a line whose look changes part-way is written plain and said.
    @Test func microDVDWritesTheLooksOfWholeLines() throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n<i>Italic line</i>\n<b>Bold</b> and plain\n\n"
            + "2\n00:00:03,000 --> 00:00:04,000\n<font color=\"#00ff00\"><u>green {x}</u></font>!\n"
        var document = try SRTReader().read(Array(srt.utf8))
        let writer = MicroDVDWriter(frameRate: 25)
        #expect(writer.fit(&document).map(\.code.rawValue) == ["microdvd.style.partLine"])
        let written = String(decoding: writer.write(document), as: UTF8.self)
        #expect(written == "{1}{1}25\n{25}{50}{y:i}Italic line|Bold and plain\n{75}{100}{y:u}{c:$00FF00}green {x}!\n", "\(written)")
        let back = try MicroDVDReader().read(Array(written.utf8))
        #expect(back.cues.map(\.plainText) == ["Italic line\nBold and plain", "green {x}!"])
        #expect(back.cues[0].content.first.map { if case .span(let span) = $0 { span.kind == .italic } else { false } } == true)
        let again = String(decoding: writer.write(back), as: UTF8.self)
        #expect(again == written)
    }

    /// A MicroDVD cue with no end frame (`{100}{}`) lasts until the next cue starts, as VLC and
    /// FFmpeg show it (it was a cue of no length, never shown); the last such cue is open-ended.
    @Test func microDVDCuesWithoutAnEndLastUntilTheNext() throws {
        let document = try MicroDVDReader().read(Array("{1}{1}25\n{25}{75}First\n{100}{}Open\n{200}{250}Third\n{300}{}Last\n".utf8))
        #expect(document.cues.map(\.plainText) == ["First", "Open", "Third", "Last"])
        #expect(document.cues[1].start == MediaTime(seconds: 4) && document.cues[1].end == MediaTime(seconds: 8))
        #expect(document.cues[3].end == nil)
        #expect(document.diagnostics.map(\.code.rawValue) == ["microdvd.end.none"])
        #expect(document.diagnostics.first?.location?.line == 3)
    }

    /// Dialogue lines cut from their script (as ExoPlayer's `ssa/typical_dialogue` test piece) are
    /// recognised as ASS and refused with what is missing, not as "not an SRT file".
    @Test func dialogueLinesWithoutTheirHeaderAreNamedAsSuch() throws {
        let piece = Array("Dialogue: 0,0:00:00.00,0:00:01.23,Default,Olly,First.\nDialogue: 0,0:00:02.34,0:00:03.45,Default,Olly,Second.\n".utf8)
        #expect(CaptionFormat.sniff(piece) == .ass)
        #expect(CaptionFormat.sniff(Array("\u{FEFF}[Events]\nFormat: Start, End, Text\n".utf8)) == .ass)
        #expect(CaptionFormat.sniff(Array("1\n00:00:01,000 --> 00:00:02,000\nDialogue: text\n".utf8)) == .srt)
        do {
            _ = try ASSReader().read(piece)
            Issue.record("a headless piece was read")
        } catch {
            #expect(error.code.rawValue == "ass.header.missing")
            #expect(error.location?.line == 1)
        }
    }

    /// An hour field too wide for a time in milliseconds (found by the fuzzer: it overflowed and
    /// trapped) is a malformed timing, reported, and the cues around it are still read.
    @Test func hourFieldsTooWideAreReportedNotOverflowed() throws {
        let sbv = "99999999999999999:00:00.000,0:00:01.000\ntoo wide\n\n999999999:00:00.000,999999999:00:01.000\nwidest\n"
        let document = try SBVReader().read(Array(sbv.utf8))
        #expect(document.cues.map(\.plainText) == ["widest"])
        #expect(document.cues.first?.start == MediaTime(seconds: 999_999_999 * 3600))
        #expect(document.diagnostics.map(\.code.rawValue).contains("sbv.timing.malformed"))
        let ass = Self.ass.replacingOccurrences(of: "0:00:01.50,0:00:03.00", with: "99999999999999999:00:01.50,0:00:03.00")
        let read = try ASSReader().read(Array(ass.utf8))
        #expect(read.cues.map(\.plainText).contains("EXIT") && !read.cues.map(\.plainText).contains { $0.hasPrefix("Hello") })
    }
    @Test func microDVDFramesStylesAndRatesAreRead() throws {
        let sub = "{1}{1}25\n{25}{50}{y:i}Hello|/World\n{75}{100}{Y:b}{c:$0000FF}Red|bold\n{150}{175}{f:Arial}plain\n"
        let document = try MicroDVDReader().read(Array(sub.utf8))
        #expect(document.cues.map(\.plainText) == ["Hello\nWorld", "Red\nbold", "plain"])
        #expect(document.cues.map(\.start) == [MediaTime(seconds: 1), MediaTime(seconds: 3), MediaTime(seconds: 6)])
        guard case .span(let italic) = document.cues[0].content.first else { Issue.record("no italic"); return }
        #expect(italic.kind == .italic)
        #expect(document.cues[0].content.last.map { if case .span(let span) = $0 { span.kind == .italic } else { false } } == true)
        #expect(document.diagnostics.map(\.code.rawValue) == ["microdvd.control.dropped"])
        // Without a header: 23.976 and a warning, unless a rate is given.
        let bare = Array("{24}{48}one second at 23.976\n".utf8)
        let assumed = try MicroDVDReader().read(bare)
        #expect(assumed.cues[0].start == MediaTime(value: 24 * 1001, timescale: 24000))
        #expect(assumed.diagnostics.map(\.code.rawValue) == ["microdvd.frameRate.assumed"])
        let given = try MicroDVDReader(frameRate: 24).read(bare)
        #expect(given.cues[0].start == MediaTime(seconds: 1) && given.diagnostics.isEmpty)
        // A rate given over the file's own is used, and said (it was silent).
        let overridden = try MicroDVDReader(frameRate: 24).read(Array(sub.utf8))
        #expect(overridden.cues[0].start == MediaTime(value: 25, timescale: 24))
        #expect(overridden.diagnostics.map(\.code.rawValue).contains("microdvd.frameRate.overridden"))
        let written = MicroDVDWriter(frameRate: 25).write(document)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("{1}{1}25\n{25}{50}{y:i}Hello|{y:i}World\n{75}{100}{y:b}{c:$0000FF}Red|{y:b}bold\n"))
        #expect(try MicroDVDReader().read(written).cues.map(\.start) == document.cues.map(\.start))
        #expect(CaptionFormat.sniff(written) == .microdvd)
    }

    /// A cue shorter than a frame is written a frame long, with a warning (`{75}{75}` is never
    /// shown), and a first cue at frames 0–1 whose text is a number is a cue, not a second header.
    @Test func microDVDKeepsShortCuesAndNumbersAtTheStart() throws {
        var document = TimedTextDocument(cues: [
            Cue(start: .zero, end: MediaTime(milliseconds: 30), content: [.text("23.976")]),
            Cue(start: MediaTime(seconds: 3), end: MediaTime(milliseconds: 3010), content: [.text("tiny")]),
        ])
        let writer = MicroDVDWriter(frameRate: 25)
        #expect(writer.fit(&document).map(\.code.rawValue) == ["microdvd.time.tooShort"])
        let written = writer.write(document)
        #expect(String(decoding: written, as: UTF8.self) == "{1}{1}25\n{0}{1}23.976\n{75}{76}tiny\n")
        let back = try MicroDVDReader().read(written)
        #expect(back.cues.map(\.plainText) == ["23.976", "tiny"])
        #expect(back.cues.allSatisfy { $0.end! > $0.start })
    }

    @Test func subViewerHeadersAndBreaksAreRead() throws {
        let sub = "[INFORMATION]\n[TITLE]x\n[END INFORMATION]\n[SUBTITLE]\n00:00:01.50,00:00:03.00\none[br]two\n"
        #expect(CaptionFormat.sniff(Array(sub.utf8)) == .sbv)
        let document = try SBVReader().read(Array(sub.utf8))
        #expect(document.cues.map(\.plainText) == ["one\ntwo"])
        #expect(document.cues[0].start == MediaTime(milliseconds: 1500) && document.diagnostics.isEmpty)
    }

    /// Every ASS, SSA, SBV and `.sub` (MicroDVD, SubViewer) file of the real-world corpus reads, with at least one cue.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.shared.appendingPathComponent("realworld").path)))
    func everyRealWorldFileReads() throws {
        let root = TestPaths.shared.appendingPathComponent("realworld")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { ["ass", "ssa", "sbv", "sub"].contains($0.pathExtension.lowercased()) } ?? []
        #expect(files.count >= 15)
        for file in files where !file.lastPathComponent.contains("invalid_format") && !file.lastPathComponent.contains("empty") {
            let bytes = try Array(Data(contentsOf: file))
            let format = CaptionFormat(fileExtensionOf: file.path) ?? CaptionFormat.sniff(bytes)
            let document = try format.reader!.read(bytes)
            #expect(!document.cues.isEmpty, "\(file.path)")
        }
    }
}

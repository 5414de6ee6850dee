import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// The failures hostile input found in the release CLI (issue 15), each kept as a test: deep
/// nesting, and text that was written, then could not be read back as written.
@Suite struct HostileInputTests {
    /// Reads `input` as `from`, reduces it for `to` as `convert` does, and writes it; returns the
    /// output and every diagnostic of the way.
    static func convert(_ input: String, from: CaptionFormat, to: CaptionFormat) throws -> (String, [Diagnostic]) {
        guard let reader = from.reader else { throw CaptionsError("test.reader", "no reader") }
        var document = try reader.read(Array(input.utf8))
        guard let writer = to.writer() else { throw CaptionsError("test.writer", "no writer") }
        let losses = CapabilityReducer(capabilities: writer.capabilities, formatName: to.displayName).reduce(&document)
        return (String(decoding: writer.write(document), as: UTF8.self), document.diagnostics + losses)
    }

    static func codeNames(_ document: TimedTextDocument) -> [String] { document.diagnostics.map(\.code.rawValue) }

    // MARK: Nesting

    @Test func twentyOneThousandNestedWebVTTTagsAreCappedAndWritten() throws {
        let input = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + String(repeating: "<b>", count: 21_000) + "deep"
        let document = try readWebVTT(input)
        #expect(InlineNode.depth(of: document.cues[0].content) == InlineNode.maximumDepth)
        #expect(document.cues[0].plainText == "deep")
        #expect(Self.codeNames(document).contains("webvtt.nesting.tooDeep"))
        for format in [CaptionFormat.webvtt, .srt, .ttml, .json] {
            let (output, _) = try Self.convert(input, from: .webvtt, to: format)
            #expect(output.contains("deep"), "\(format)")
        }
    }

    @Test func fiftyThousandNestedSRTTagPairsAreCappedAndWritten() throws {
        let input = "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<b><i>", count: 50_000) + "deep\n"
        let document = try readSRT(input)
        #expect(InlineNode.depth(of: document.cues[0].content) == InlineNode.maximumDepth)
        #expect(Self.codeNames(document).contains("srt.nesting.tooDeep"))
        for format in [CaptionFormat.webvtt, .srt, .ttml, .json] {
            let (output, _) = try Self.convert(input, from: .srt, to: format)
            #expect(output.contains("deep"), "\(format)")
        }
    }

    @Test func jsonOfDeeplyNestedTextGrowsLinearlyWithTheInput() throws {
        // 10,000 nested <b> (30 KB) made 1.2 GB of JSON: the indentation grew with the depth.
        let input = "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<b>", count: 10_000) + "x\n"
        let (output, _) = try Self.convert(input, from: .srt, to: .json)
        #expect(output.utf8.count < 100 * input.utf8.count)
    }

    /// The deepest cue the model holds, written as TTML, reads back with nothing left out (the
    /// reader kept 24 levels of elements, and our TTML has `tt`, `body`, `div` and `p` above 32 spans).
    @Test func theDeepestCueWeWriteAsTTMLReadsBackWhole() throws {
        let input = "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<b><i>", count: 40) + "x\n"
        let source = try SRTReader().read(Array(input.utf8))
        #expect(InlineNode.depth(of: source.cues[0].content) == InlineNode.maximumDepth)
        let back = try TTMLReader().read(TTMLWriter().write(source))
        #expect(!Self.codeNames(back).contains("ttml.nesting.tooDeep"))
        #expect(back.cues.first?.plainText == "x")
    }

    @Test func deeplyNestedTTMLElementsAreLeftOutWithTheirTextKept() throws {
        func ttml(depth: Int) -> [UInt8] {
            let spans = String(repeating: #"<span tts:fontStyle="italic" tts:fontWeight="bold">"#, count: depth) + "deep"
                + String(repeating: "</span>", count: depth)
            return Array("""
                <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>\
                <p begin="1s" end="2s">\(spans)</p></div></body></tt>
                """.utf8)
        }
        let document = try TTMLReader().read(ttml(depth: 200))
        #expect(document.cues.first?.plainText == "deep")
        #expect(Self.codeNames(document).contains("ttml.nesting.tooDeep"))
        #expect(InlineNode.depth(of: document.cues[0].content) <= InlineNode.maximumDepth)
        // Deeper than libxml2 reads at all: a clean error.
        #expect(throws: CaptionsError.self) { try TTMLReader().read(ttml(depth: 5_000)) }
    }

    // MARK: Written, then unreadable or lost

    @Test func aCueStartingWithALineBreakKeepsItsText() throws {
        // `{\an8}` on a line of its own, and TTML `<br/><br/>`, made WebVTT and SRT cues whose text
        // came after a blank line, lost to every reader.
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}\nhello\n"
        #expect(try readSRT(srt).cues[0].plainText == "hello")
        let ttml = """
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s"><br/><br/>after<br/><br/>end<br/></p></div></body></tt>
            """
        for format in [CaptionFormat.webvtt, .srt] {
            let (output, diagnostics) = try Self.convert(ttml, from: .ttml, to: format)
            let back = try #require(try format.reader?.read(Array(output.utf8)))
            #expect(back.cues.map(\.plainText) == ["after\nend"], "\(format): \(output)")
            #expect(diagnostics.contains { $0.code == "convert.lost.blankLines" })
        }
    }

    /// ASS (`\N\N`) and MicroDVD (`||`) write an empty line inside a cue with their line-break
    /// codes, so it is kept and read back, with no loss reported; formats where an empty line ends
    /// a cue say what they did instead.
    @Test func anEmptyLineIsKeptWhereTheFormatHasALineBreakCode() throws {
        let ttml = """
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">A<br/><br/>B</p></div></body></tt>
            """
        for format in [CaptionFormat.ass, .microdvd] {
            let (output, diagnostics) = try Self.convert(ttml, from: .ttml, to: format)
            let back = try #require(try format.reader?.read(Array(output.utf8)))
            #expect(back.cues.map(\.plainText) == ["A\n\nB"], "\(format): \(output)")
            #expect(!diagnostics.contains { $0.code == "convert.lost.blankLines" }, "\(format)")
        }
        let (_, diagnostics) = try Self.convert(ttml, from: .ttml, to: .sbv)
        let lost = try #require(diagnostics.first { $0.code == "convert.lost.blankLines" })
        #expect(lost.message.contains("removed, the lines around them kept"), "\(lost.message)")
    }

    @Test func aBlankLineAcrossSpansIsFoundToo() throws {
        let input = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>one\n</i>\n<b>two</b>\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .webvtt)
        #expect(try readWebVTT(output).cues.map(\.plainText) == ["one\ntwo"])
        #expect(diagnostics.contains { $0.code == "convert.lost.blankLines" })
    }

    @Test func controlCharactersAreNotWrittenIntoTTML() throws {
        // U+0001 and U+FFFF were copied into TTML, which no XML parser (ours included) then reads.
        let input = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann\u{1}e>A\u{1}B&#xFFFF;C\u{7}</v>\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .ttml)
        let back = try TTMLReader().read(Array(output.utf8))
        #expect(back.cues.map(\.plainText) == ["ABC"])
        #expect(back.cues.first?.speaker == "Anne")
        #expect(diagnostics.contains { $0.code == "convert.lost.controlCharacters" })
    }

    @Test func textThatLooksLikeATagStaysTextInSRT() throws {
        // `&lt;i&gt;` in WebVTT is the text "<i>"; written to SRT as is, it became italics.
        let input = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n&lt;i&gt;literal&lt;/i&gt; {\\an8} 3 &lt; 4\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .srt)
        let back = try readSRT(output)
        #expect(back.cues[0].content.count == 1)
        #expect(back.cues[0].plainText.replacing("\u{200B}", with: "") == "<i>literal</i> {\\an8} 3 < 4")
        #expect(back.cues[0].settings == CueSettings())
        #expect(diagnostics.contains { $0.code == "convert.lost.literalMarkup" })
        let (again, _) = try Self.convert(output, from: .srt, to: .srt)
        #expect(again == output)
    }

    @Test func hugeAndTinyNumbersAreWrittenWithoutExponents() throws {
        let input = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 line:100000000000000000000000000000000000 position:0.0000001%\nx\n"
        let (output, _) = try Self.convert(input, from: .webvtt, to: .webvtt)
        #expect(!output.contains("e+") && !output.contains("e-"))
        #expect(output.contains("line:100000000000000000000000000000000000 position:0.0000001%"))
        #expect(try readWebVTT(output).cues[0].settings == readWebVTT(input).cues[0].settings)
        #expect(NumberFormatting.shortest(1.5e-10) == "0.00000000015")
        #expect(NumberFormatting.shortest(-2.5e20) == "-250000000000000000000")
        #expect(NumberFormatting.shortest(12.5) == "12.5")
    }

    @Test func aDocumentWithoutCuesWrittenAsSRTReadsBack() throws {
        let (output, _) = try Self.convert("WEBVTT\n", from: .webvtt, to: .srt)
        let back = try SRTReader().read(Array(output.utf8))
        #expect(back.cues.isEmpty)
        #expect(Self.codeNames(back) == ["srt.empty"])
        #expect(throws: CaptionsError.self) { try readSRT("not captions at all\n") }
    }

    @Test func podcastTimesBeyondTenThousandHoursAreRefusedBeforeWriting() throws {
        let input = #"{"version":"1.0.0","segments":[{"startTime":40000000,"endTime":40000001,"body":"x"}]}"#
        let document = try PodcastTranscriptReader().read(Array(input.utf8))
        #expect(document.diagnostics.contains { $0.code == "time.outOfRange" && $0.severity == .error })
        let ttml = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="99999999h" end="100000000h">x</p></div></body></tt>"#
        #expect(try TTMLReader().read(Array(ttml.utf8)).diagnostics.contains { $0.code == "time.outOfRange" })
    }

    @Test func aCentredTTMLRegionStaysWhereItWasOnATTMLRoundTrip() throws {
        let input = """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><head><layout>\
            <region xml:id="low" tts:origin="0% 70%" tts:extent="100% 20%" tts:displayAlign="center"/></layout></head>\
            <body><div><p begin="1s" end="2s" region="low">x</p></div></body></tt>
            """
        let first = try TTMLReader().read(Array(input.utf8)).cues[0].settings
        let (output, _) = try Self.convert(input, from: .ttml, to: .ttml)
        let second = try TTMLReader().read(Array(output.utf8)).cues[0].settings
        #expect(first.line == .value(80))
        #expect(second.line == first.line)
        #expect(second.lineAlign == first.lineAlign)
    }

    @Test func speakerNamesWithLineBreaksStayOneName() throws {
        let input = #"{"version":"1.0.0","segments":[{"speaker":"Ann\n\nLee","startTime":1,"endTime":2,"body":"x"}]}"#
        for format in [CaptionFormat.webvtt, .ttml] {
            let (output, _) = try Self.convert(input, from: .podcastJSON, to: format)
            let back = try #require(try format.reader?.read(Array(output.utf8)))
            #expect(back.cues.map(\.speaker) == ["Ann Lee"], "\(format): \(output)")
            #expect(back.cues.map(\.plainText) == ["x"])
        }
    }

    @Test func anSRTTextLineThatReadsAsATimingLineStaysText() throws {
        // Found by the WebVTT fuzz target: '0:6->0:3' as cue text became a second SRT cue.
        let input = "WEBVTT\n\n01:36.000 --> 01:48.000\nsee\n0:6->0:3\n 12 - > 13 → 14\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .srt)
        let back = try readSRT(output)
        #expect(back.cues.count == 1)
        #expect(back.cues.first?.plainText.replacing("\u{200B}", with: "") == "see\n0:6->0:3\n 12 - > 13 → 14")
        #expect(diagnostics.contains { $0.code == "convert.lost.literalMarkup" })
        #expect(try Self.convert(output, from: .srt, to: .srt).0 == output)
    }

    @Test func cuesOutOfOrderKeepTheirOrderOnATTMLRoundTrip() throws {
        // Found by the WebVTT fuzz target: the TTML reader sorts by time, the writer wrote file order.
        let input = "WEBVTT\n\n00:26.760 --> 00:32.200\nt\n\n00:14.848 --> 00:17.000\nM\n"
        let (first, _) = try Self.convert(input, from: .webvtt, to: .ttml)
        let (second, _) = try Self.convert(first, from: .ttml, to: .ttml)
        #expect(first == second)
        #expect(try TTMLReader().read(Array(first.utf8)).cues.map(\.plainText) == ["M", "t"])
    }

    @Test(arguments: ["line:-1", "line:-2", "line:88%,end", "line:50%,center size:40% position:10%,line-left", "align:left", "vertical:rl line:3"])
    func aRegionTheTTMLWriterWritesSurvivesASecondRoundTrip(settings: String) throws {
        let input = "WEBVTT\n\n00:01.000 --> 00:03.000 \(settings)\nL\n"
        let (first, _) = try Self.convert(input, from: .webvtt, to: .ttml)
        let (second, _) = try Self.convert(first, from: .ttml, to: .ttml)
        #expect(first == second)
    }

    @Test func anSRTCueWithoutTextIsDroppedFromTTMLWithAWarning() throws {
        // Found by the SRT fuzz target: TTML readers show no cue for an empty paragraph, so the
        // second pass had one cue fewer, and nothing said so.
        let input = "1\n00:00:01,000 --> 00:00:02,000\nfirst\n\n2\n00:00:07,000 --> 00:00:11,890\n \n\n3\n00:00:12,000 --> 00:00:13,000\nlast\n"
        let (output, diagnostics) = try Self.convert(input, from: .srt, to: .ttml)
        #expect(try TTMLReader().read(Array(output.utf8)).cues.map(\.plainText) == ["first", "last"])
        #expect(diagnostics.contains { $0.code == "convert.lost.emptyCues" })
        #expect(try Self.convert(output, from: .ttml, to: .ttml).0 == output)
    }

    @Test func aLineBreakBetweenTwoFontTagsStaysBetweenThem() throws {
        // Found by the TTML fuzz target: the break went inside the second <font>, so a second SRT
        // pass wrote the markup differently.
        let input = "1\n00:00:00,000 --> 00:00:10,000\n<font color=\"#ff0000\">red</font>\n<font color=\"#00ff00\">green</font>\n"
        let document = try readSRT(input)
        #expect(document.cues[0].content.count == 3)
        #expect(document.cues[0].content[1] == .text("\n"))
        #expect(try Self.convert(input, from: .srt, to: .srt).0 == input)
    }

    @Test func adjacentTextNodesThatFormATagStayText() throws {
        // Found by the WebVTT fuzz target: `&lt<>t>` is the text nodes "<" and "t>", written to SRT
        // as "<t>", which an SRT reader drops as an unknown tag.
        let input = "WEBVTT\n\n00:09.209 --> 00:12.312\n&lt<>t>\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .srt)
        #expect(try readSRT(output).cues.map { $0.plainText.replacing("\u{200B}", with: "") } == ["<t>"])
        #expect(diagnostics.contains { $0.code == "convert.lost.literalMarkup" })
    }

    @Test func cuesThatLastNoTimeAreDroppedFromTTMLWithAWarning() throws {
        // Found by the WebVTT fuzz target: TTML readers show no paragraph that ends when it begins.
        let input = "WEBVTT\n\n00:01.000 --> 00:01.000\nText\n\n00:02.000 --> 00:03.000\nkept\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .ttml)
        #expect(diagnostics.contains { $0.code == "convert.lost.instantCues" })
        #expect(try Self.convert(output, from: .ttml, to: .ttml).0 == output)
        #expect(try TTMLReader().read(Array(output.utf8)).cues.map(\.plainText) == ["kept"])
    }

    @Test func timesNoTickRateCanHoldAreWrittenAsMilliseconds() throws {
        // Found by the podcast fuzz target: 0.5888888888 s fit no tick rate up to 10^9, was written
        // as 589 ticks of 1000 and came back as clock time on the next pass.
        let input = #"{"segments":[{"startTime":0.5888888888,"endTime":2,"body":"."}]}"#
        let (output, _) = try Self.convert(input, from: .podcastJSON, to: .ttml)
        #expect(output.contains(#"begin="00:00:00.589""#))
        #expect(try Self.convert(output, from: .ttml, to: .ttml).0 == output)
        // Times a tick rate holds exactly are still written exactly.
        let frames = #"{"segments":[{"startTime":1.001,"endTime":2.0005,"body":"."}]}"#
        #expect(try Self.convert(frames, from: .podcastJSON, to: .ttml).0.contains("ttp:tickRate=\"2000\""))
    }

    @Test func anAmpersandBeforeACombiningMarkIsEscapedInXML() throws {
        // Found by the WebVTT fuzz target: "&" + U+0350 is one Character, and a character-level
        // replacement left it unescaped, so the TTML was not well-formed.
        let input = "WEBVTT\n\n00:01.000 --> 00:02.000\nA &amp;\u{0350} &lt;\u{034D} B\n"
        let (output, _) = try Self.convert(input, from: .webvtt, to: .ttml)
        #expect(try TTMLReader().read(Array(output.utf8)).cues.map(\.plainText) == ["A &\u{0350} <\u{034D} B"])
    }

    @Test(arguments: ["A <lang>x</lang>B", "T<lang", "A <lang en></lang>B", "<lang r>n</lang>", "<lang fr><i>oui</i></lang> yes"])
    func aLanguageSpanWithoutALanguageSurvivesTTMLRoundTrips(text: String) throws {
        let input = "WEBVTT\n\n00:01.000 --> 00:02.000\n\(text)\n"
        let (first, _) = try Self.convert(input, from: .webvtt, to: .ttml)
        #expect(try Self.convert(first, from: .ttml, to: .ttml).0 == first)
    }

    @Test func languageSpansSurviveTTML() throws {
        // Found by the WebVTT fuzz target: the TTML reader ignored xml:lang on spans.
        let input = "WEBVTT\n\n00:01.000 --> 00:02.000\n<lang fr>oui</lang> yes\n"
        let (output, _) = try Self.convert(input, from: .webvtt, to: .ttml)
        let back = try TTMLReader().read(Array(output.utf8))
        #expect(back.cues.first?.content.first == .span(Span(.language, annotation: "fr", children: [.text("oui")])))
    }

    @Test func aCueEndingInALineBreakAfterSpacesLosesOnlyTheBreak() throws {
        // Found by the WebVTT fuzz target: " \n" (a lone "<" dropped after it) was written with the
        // break as the blank line that ends the cue, and read back as " ", with nothing said.
        let input = "WEBVTT\n\n00:00.000 --> 00:01.000\n \n<\n"
        let (output, diagnostics) = try Self.convert(input, from: .webvtt, to: .webvtt)
        #expect(diagnostics.contains { $0.code == "convert.lost.blankLines" })
        #expect(try Self.convert(output, from: .webvtt, to: .webvtt).0 == output)
    }
}

@testable import CaptionsFormats
import CaptionsCore
import Foundation
import PropertyBased
import Testing

/// `value / timescale` seconds.
func exact(_ value: Int64, _ timescale: Int64) -> MediaTime { MediaTime(value: value, timescale: timescale) ?? .zero }

/// A TTML document around `body`, with root attributes `parameters`.
func ttml(_ body: String, parameters: String = "", head: String = "") -> [UInt8] {
    Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \
        xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" \(parameters)>
        <head>\(head)</head><body>\(body)</body></tt>
        """.utf8)
}

@Suite struct TTMLTimeExpressionTests {
    private func timing(_ parameters: String) throws -> TTMLTiming {
        let root = try XMLTree.parse(ttml("", parameters: parameters), codePrefix: "ttml")
        return TTMLTiming(root: root) { _, _ in }
    }

    @Test(arguments: [
        ("00:00:01", "", MediaTime(seconds: 1)),
        ("01:02:03.5", "", MediaTime(milliseconds: 3_723_500)),
        ("00:00:00.123456789", "", exact(123_456_789, 1_000_000_000)),
        ("00:00:15:12", "ttp:frameRate=\"24\" ttp:frameRateMultiplier=\"1000 1001\"",
         MediaTime(seconds: 15) + exact(12 * 1001, 24000)),
        ("00:00:01:10.1", "ttp:frameRate=\"25\" ttp:subFrameRate=\"2\"",
         MediaTime(seconds: 1) + exact(10, 25) + exact(1, 50)),
        ("2.5h", "", MediaTime(seconds: 9000)), ("3m", "", MediaTime(seconds: 180)), ("1.5s", "", MediaTime(milliseconds: 1500)),
        ("250ms", "", MediaTime(milliseconds: 250)), ("48f", "ttp:frameRate=\"24\"", MediaTime(seconds: 2)),
        ("30f", "", MediaTime(seconds: 1)),
        ("100t", "ttp:tickRate=\"50\"", MediaTime(seconds: 2)),
        ("48t", "ttp:frameRate=\"24\"", MediaTime(seconds: 2)),
        ("10t", "", MediaTime(seconds: 10)),
        ("00:01:00:00", "ttp:timeBase=\"smpte\" ttp:frameRate=\"30\" ttp:frameRateMultiplier=\"1000 1001\" ttp:dropMode=\"dropNTSC\"",
         exact(1798 * 1001, 30000)),
    ])
    func parsesEveryForm(expression: String, parameters: String, expected: MediaTime?) throws {
        #expect(try timing(parameters).parse(expression) == expected)
    }

    @Test(arguments: [
        ("00:00:01:30", "ttp:frameRate=\"30\"", "ttml.time.frames"), ("00:61:00", "", "ttml.time.range"),
        ("00:00:61", "", "ttml.time.range"), ("5x", "", "ttml.time.metric"), ("1:2:3", "", "ttml.time.malformed"),
        ("soon", "", "ttml.time.malformed"), ("00:00:00:01.2", "ttp:subFrameRate=\"2\"", "ttml.time.frames"),
    ])
    func rejectsMalformedTimes(expression: String, parameters: String, code: String) throws {
        let timing = try timing(parameters)
        do {
            _ = try timing.parse(expression)
            Issue.record("\(expression) should not parse")
        } catch {
            #expect(error.code.rawValue == code)
        }
    }
}

@Suite struct TTMLReaderTests {
    private func read(_ body: String, parameters: String = "", head: String = "") throws -> TimedTextDocument {
        try TTMLReader().read(ttml(body, parameters: parameters, head: head))
    }

    /// A document without cues is read, and says so, as the other readers do (it was silent).
    @Test func aDocumentWithoutCuesIsReportedEmpty() throws {
        #expect(try read("<div></div>").diagnostics.map(\.code.rawValue) == ["ttml.empty"])
        #expect(try read("<div><p begin=\"0s\" end=\"1s\">one</p></div>").diagnostics.isEmpty)
        let bodiless = try TTMLReader().read(Array(#"<tt xmlns="http://www.w3.org/ns/ttml"/>"#.utf8))
        #expect(bodiless.diagnostics.map(\.message) == ["the document has no body: no cues"])
    }

    @Test func seqContainersPlayChildrenOneAfterAnother() throws {
        let document = try read("""
            <div timeContainer="seq"><p dur="2s">one</p><p begin="1s" dur="2s">two</p><p dur="1s">three</p></div>
            """)
        #expect(document.cues.map(\.plainText) == ["one", "two", "three"])
        #expect(document.cues.map(\.start) == [.zero, MediaTime(seconds: 3), MediaTime(seconds: 5)])
        #expect(document.cues.map(\.end) == [MediaTime(seconds: 2), MediaTime(seconds: 5), MediaTime(seconds: 6)])
    }

    @Test func childrenAreClippedByTheirParentAndSpansSplitCues() throws {
        let document = try read("""
            <div begin="1s" end="5s"><p begin="0s" end="10s">Hello <span begin="2s" end="3s">there</span></p></div>
            """)
        #expect(document.cues.map(\.plainText) == ["Hello", "Hello there", "Hello"])
        #expect(document.cues.map(\.start) == [MediaTime(seconds: 1), MediaTime(seconds: 3), MediaTime(seconds: 4)])
        #expect(document.cues.last?.end == MediaTime(seconds: 5))
    }

    @Test func displayNoneAndSetAnimations() throws {
        let document = try read("""
            <div><p begin="0s" end="10s" tts:display="none"><set begin="4s" end="6s" tts:display="auto"/>shown 4–6</p>
            <p begin="0s" end="2s" style="hidden">never</p></div>
            """, head: "<styling><style xml:id=\"hidden\" tts:display=\"none\"/></styling>")
        #expect(document.cues.map(\.plainText) == ["shown 4–6"])
        #expect(document.cues.first?.start == MediaTime(seconds: 4))
        #expect(document.cues.first?.end == MediaTime(seconds: 6))
    }

    /// Text hidden at some time (`tts:visibility="hidden"`, `tts:opacity="0"`: a quiz's answer) is
    /// written as text anyone sees, as IMSC's own animation tests keep it in the document; that is
    /// a warning now (it was a note, shown only with -v). Struck-out text is kept, with a warning
    /// (it was dropped without a word).
    @Test func hiddenAndStruckOutTextAreSaid() throws {
        let document = try read("""
            <div><p begin="0s" end="2s">Answer: <span tts:visibility="hidden">Paris</span></p>
            <p begin="4s" end="6s"><span tts:opacity="0">ghost</span> seen</p>
            <p begin="10s" end="12s">old <span tts:textDecoration="lineThrough">price</span></p></div>
            """)
        #expect(document.cues.map(\.plainText) == ["Answer: Paris", "ghost seen", "old price"])
        let warnings = document.diagnostics.filter { $0.severity == .warning }.map(\.code.rawValue)
        #expect(warnings.contains("ttml.style.hidden") && warnings.contains("ttml.style.lineThrough"), "\(warnings)")
        // A transparent colour hides text as well (it was converted to white without a word).
        let transparent = try read(##"<div><p begin="0s" end="2s"><span tts:color="#ffffff00">ghost</span></p></div>"##)
        #expect(transparent.diagnostics.contains { $0.code.rawValue == "ttml.style.hidden" && $0.severity == .warning })
    }

    @Test func stylesAreInheritedAndReferenced() throws {
        let document = try read("""
            <div tts:fontStyle="italic"><p begin="0s" end="1s">a <span style="loud">b</span></p></div>
            """, head: "<styling><style xml:id=\"base\" tts:color=\"#ffff00\"/><style xml:id=\"loud\" style=\"base\" tts:fontWeight=\"bold\"/></styling>")
        let expected: [InlineNode] = [.span(Span(.italic, children: [
            .text("a "), .span(Span(.bold, children: [.span(Span(.class, style: TextStyle(color: RGBAColor(red: 255, green: 255, blue: 0)), children: [.text("b")]))])),
        ]))]
        #expect(document.cues.first?.content == expected)
    }

    /// A colour is kept where it changes the text's colour, and only there: white inside yellow is
    /// white (it was read as yellow), white in white text is nothing; and what is written of a
    /// white span reads back as itself, so a second conversion changes nothing (the fuzzer found
    /// a SAMI `<font color="#ffffff">` written as a style the reader then dropped).
    @Test func aColourIsKeptWhereItChangesTheTextsColour() throws {
        let white = TextStyle(color: .white), yellow = TextStyle(color: RGBAColor(red: 255, green: 255, blue: 0))
        let nested = try read("""
            <div><p begin="0s" end="1s" tts:color="yellow">a <span tts:color="white">b</span></p>\
            <p begin="1s" end="2s">c <span tts:color="#fff">d</span></p></div>
            """)
        #expect(nested.cues.map(\.content) == [
            [.span(Span(.class, style: yellow, children: [.text("a "), .span(Span(.class, style: white, children: [.text("b")]))]))],
            [.text("c "), .text("d")],
        ])
        let document = TimedTextDocument(cues: [
            Cue(start: .zero, end: MediaTime(seconds: 1), content: [.span(Span(.class, style: white, children: [.text("e")])), .text(" f")]),
            Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 2), content: [
                .span(Span(.class, style: yellow, children: [.span(Span(.class, style: white, children: [.text("g")]))])),
            ]),
        ])
        let once = TTMLWriter().write(document)
        let twice = TTMLWriter().write(try TTMLReader().read(once))
        #expect(String(decoding: twice, as: UTF8.self) == String(decoding: once, as: UTF8.self))
        #expect(try TTMLReader().read(once).cues.map(\.plainText) == ["e f", "g"])
    }

    @Test func agentsRegionsAndLanguage() throws {
        let document = try read("""
            <div><p begin="0s" end="1s" ttm:agent="a1" region="top">Hi</p><p begin="1s" end="2s" region="nowhere">lost</p></div>
            """, parameters: "xml:lang=\"fr\"", head: """
            <metadata><ttm:agent xml:id="a1" type="person"><ttm:name type="full">Ann</ttm:name></ttm:agent></metadata>
            <layout><region xml:id="top" tts:origin="10% 5%" tts:extent="80% 20%" tts:displayAlign="before"/></layout>
            """)
        #expect(document.language == "fr")
        #expect(document.cues.map(\.plainText) == ["Hi"])
        #expect(document.cues.first?.speaker == "Ann")
        #expect(document.cues.first?.settings.line == .value(5))
        #expect(document.cues.first?.settings.snapToLines == false)
    }

    @Test func droppedAndUnknownStylesAreReported() throws {
        let document = try read("<div>\n<p begin=\"0s\" end=\"1s\" tts:fontSize=\"120%\" tts:sparkle=\"yes\">a</p></div>")
        #expect(document.diagnostics.map(\.code.rawValue).sorted() == ["ttml.style.ignored", "ttml.style.unknown"])
        #expect(document.diagnostics.allSatisfy { $0.location?.line == 4 })
    }

    /// Styles first used on the same line are reported in name order: the report is the same on
    /// every run (they came out in hash order, different from one process to the next).
    @Test func stylesDroppedOnOneLineAreReportedInNameOrder() throws {
        let document = try read("<div><p begin=\"0s\" end=\"1s\" tts:wrapOption=\"noWrap\" tts:fontSize=\"1c\" tts:opacity=\"1\" tts:fontFamily=\"x\" tts:padding=\"1px\">a</p></div>")
        let names = document.diagnostics.filter { $0.code.rawValue == "ttml.style.ignored" }.map { String($0.message.prefix { $0 != " " }) }
        #expect(names.count == 5)
        #expect(names == names.sorted())
    }

    @Test func verticalRegionsBecomeVerticalCues() throws {
        let document = try read("<div><p begin=\"0s\" end=\"1s\" region=\"side\">縦</p></div>",
                                head: "<layout><region xml:id=\"side\" tts:writingMode=\"tbrl\"/></layout>")
        #expect(document.cues.first?.settings.vertical == .rightToLeft)
    }

    @Test func badTimesAreReportedWithTheirLine() throws {
        let document = try read("<div>\n<p begin=\"0s\" end=\"2x\">a</p></div>")
        #expect(document.diagnostics.map(\.code) == ["ttml.time.metric"])
        #expect(document.diagnostics.first?.location?.line == 4)
    }
}

@Suite struct TTMLSecurityTests {
    private func refuses(_ xml: String, codes: Set<String>) {
        let started = Date()
        do {
            _ = try TTMLReader().read(Array(xml.utf8))
            Issue.record("accepted a hostile document")
        } catch {
            #expect(codes.contains(error.code.rawValue), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func externalEntitiesAreNeverRead() {
        refuses("""
            <?xml version="1.0"?><!DOCTYPE tt [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&secret;</p></div></body></tt>
            """, codes: ["ttml.xml.entities"])
    }

    @Test func billionLaughsIsRefusedAtOnce() {
        var entities = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 { entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">" }
        refuses("""
            <?xml version="1.0"?><!DOCTYPE tt [\(entities)]>
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&lol9;</p></div></body></tt>
            """, codes: ["ttml.xml.entities", "ttml.xml.malformed"])
    }

    @Test func deepNestingIsRefused() {
        let depth = 5000
        refuses(
            "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p>" + String(repeating: "<span>", count: depth)
                + "x" + String(repeating: "</span>", count: depth) + "</p></div></body></tt>", codes: ["ttml.xml.malformed"])
    }

    @Test func aHundredMegabyteDocumentIsRefusedBeforeParsing() {
        var bytes = Array("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p>".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 100 << 20)
        let started = Date()
        #expect(throws: CaptionsError.self) { try TTMLReader().read(bytes) }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func malformedXMLGivesALine() {
        do {
            _ = try TTMLReader().read(Array("<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body>\n<p></div>".utf8))
            Issue.record("accepted malformed XML")
        } catch {
            #expect(error.code == "ttml.xml.malformed")
            #expect(error.location?.line == 3)
        }
    }
}

@Suite struct TTMLRoundTripTests {
    private static func through(_ format: CaptionFormat, _ document: TimedTextDocument) throws -> TimedTextDocument {
        var reduced = document
        let writer = try #require(CaptionFormat.ttml.writer())
        _ = CapabilityReducer(capabilities: writer.capabilities, formatName: "TTML").reduce(&reduced)
        let ttmlBytes = writer.write(reduced)
        let back = try TTMLReader().read(ttmlBytes)
        #expect(back.diagnostics.isEmpty)
        var again = back
        let target = try #require(format.writer())
        _ = CapabilityReducer(capabilities: target.capabilities, formatName: format.displayName).reduce(&again)
        return try #require(format.reader).read(target.write(again))
    }

    @Test(arguments: [CaptionFormat.srt, .webvtt])
    func throughTTMLKeepsTimesTextAndSpeakersExactly(format: CaptionFormat) async throws {
        await propertyCheck(count: 50, input: Gen.int(in: 1...15), Gen.int(in: 0...1_000_000)) { count, seed in
            let written = format.writer()!.write(RoundTripTests.document(cueCount: count, seed: seed))
            guard let original = try? format.reader?.read(written), let back = try? Self.through(format, original) else {
                Issue.record("round trip failed")
                return
            }
            #expect(back.cues.map(\.start) == original.cues.map(\.start))
            #expect(back.cues.map(\.end) == original.cues.map(\.end))
            #expect(back.cues.map(\.plainText) == original.cues.map(\.plainText))
            #expect(back.cues.map(\.speaker) == original.cues.map(\.speaker))
        }
    }

    @Test func timesThatAreNotWholeMillisecondsAreWrittenAsExactTicks() throws {
        let frame = exact(1001, 24000)
        let document = TimedTextDocument(cues: [Cue(start: frame, end: frame + frame, content: [.text("x")])])
        let text = String(decoding: TTMLWriter().write(document), as: UTF8.self)
        #expect(text.contains("ttp:tickRate=\"24000\""))
        let back = try TTMLReader().read(Array(text.utf8))
        #expect(back.cues.first?.start == frame)
        #expect(back.cues.first?.end == frame + frame)
    }

    @Test(arguments: TTMLWriter.Profile.allCases)
    func everyProfileReadsBack(profile: TTMLWriter.Profile) throws {
        let source = try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 line:0 align:left\n<v Ann><i>Hi</i> &amp; bye</v>\n".utf8))
        let text = String(decoding: TTMLWriter(profile: profile).write(source), as: UTF8.self)
        let back = try TTMLReader().read(Array(text.utf8))
        #expect(back.cues.map(\.plainText) == ["Hi & bye"])
        #expect(back.cues.first?.speaker == "Ann")
        #expect(back.cues.first?.settings.align == .left)
    }
}

/// The TTML reader's trees free themselves: its timed elements linked parent and children
/// strongly, so every document read stayed in memory (9,000 reads of a small document grew a
/// process by 27.9 MB, 20,000 reads of a larger one by 200 MB).
@Suite struct TTMLMemoryTests {
    @Test func readingTenThousandDocumentsLeavesNoTreeBehind() throws {
        let paragraphs = (0..<3).map {
            #"<p begin="\#($0)s" end="\#($0 + 1)s" region="r1"><span tts:fontStyle="italic">words</span> and more</p>"#
        }
        let input = Array("""
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><head><layout>\
            <region xml:id="r1" tts:origin="10% 10%" tts:extent="80% 20%"/></layout></head>\
            <body><div timeContainer="seq">\(paragraphs.joined())</div></body></tt>
            """.utf8)
        let census = TTMLTreeCensus()
        try TTMLTreeCensus.$current.withValue(census) {
            for _ in 0..<10_000 { _ = try TTMLReader().read(input) }
        }
        // Counted per task, so tests reading TTML at the same time do not disturb the count.
        #expect(census.live == 0, "\(census.live) timed elements still alive")
    }
}

/// A TTML region the writer writes reads back as the same region, whatever the cue settings
/// (found by the WebVTT fuzz target: `line:-1` became a full-screen region that read back as the
/// default placement, so a second TTML → TTML pass dropped it).
@Suite struct TTMLRegionRoundTripTests {
    /// The region written for `settings` (nil: none), as `TTMLWriter` decides it.
    static func written(_ settings: CueSettings) -> String? {
        let readBack = TTMLRegionMapping.geometry(for: settings, in: nil).settings
        return readBack.isDefault ? nil : TTMLRegionMapping.geometry(for: readBack, in: nil).attributes
    }

    @Test func everyWrittenRegionReadsBackAsItself() {
        var lines: [(CueSettings.Line, Bool, CueSettings.LineAlign)] = [(.auto, true, .start)]
        for line in [-5.0, -2, -1, 0, 1, 3, 17] { lines.append((.value(line), true, .start)) }
        for line in [0.0, 5, 33.333, 50, 80, 88, 95, 100] {
            for align in [CueSettings.LineAlign.start, .center, .end] { lines.append((.value(line), false, align)) }
        }
        var checked = 0
        for (line, snap, lineAlign) in lines {
            for (position, size) in [(nil, 100.0), (50, 40), (10, 20), (90, 30), (0.5, 100)] as [(Double?, Double)] {
                for align in [CueSettings.Align.center, .left, .end] {
                    for vertical in [CueSettings.Vertical.horizontal, .rightToLeft] {
                        var settings = CueSettings()
                        settings.line = line
                        settings.snapToLines = snap
                        settings.lineAlign = lineAlign
                        settings.position = position
                        settings.size = size
                        settings.align = align
                        settings.vertical = vertical
                        let first = Self.written(settings)
                        let readBack = first == nil ? CueSettings() : TTMLRegionMapping.geometry(for: 
                            TTMLRegionMapping.geometry(for: settings, in: nil).settings, in: nil).settings
                        #expect(Self.written(readBack) == first, "\(settings)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 500)
    }
}

/// libxml2 writes nothing of its own to standard error: problems come back as diagnostics.
@Suite(.serialized) struct TTMLQuietTests {
    /// What `body` writes to file descriptor 2, captured through a pipe.
    private func standardError(of body: () -> Void) -> String {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return "pipe failed" }
        let saved = dup(2)
        dup2(ends[1], 2)
        body()
        dup2(saved, 2)
        close(saved)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = read(ends[0], &bytes, bytes.count)
        close(ends[0])
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test func anXmlIDThatIsNotAnNCNameIsNotPrintedByLibxml() {
        // Real files (go-astisub's test data) number their paragraphs xml:id="1"; libxml2 printed a
        // "validity error" for each on standard error, outside our diagnostics.
        let xml = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p xml:id="1" begin="0s" end="1s">a</p></div></body></tt>"#
        var cues = -1
        let printed = standardError { cues = (try? TTMLReader().read(Array(xml.utf8)))?.cues.count ?? -1 }
        // Only libxml2's own lines count: the test runner reports on standard error too.
        let fromLibxml = printed.split(separator: "\n").filter { $0.contains("error") && $0.contains("NCName") }
        #expect(fromLibxml.isEmpty, "\(printed)")
        #expect(cues == 1)
    }
}

/// Apple's iTunes Timed Text: TTML timed in SMPTE frames, written and recognised.
@Suite struct ITTTests {
    @Test func ittIsWrittenInFramesAndRecognisedWhenRead() throws {
        let document = TimedTextDocument(cues: [
            Cue(start: MediaTime(seconds: 4), end: MediaTime(milliseconds: 6500), content: [.text("Did you hear that?")])
        ])
        let bytes = TTMLWriter(profile: .itt, frameRate: 24000.0 / 1001).write(document)
        let xml = String(decoding: bytes, as: UTF8.self)
        #expect(xml.contains(#"ttp:timeBase="smpte" ttp:frameRate="24" ttp:frameRateMultiplier="1000 1001""#))
        // 4 s is frame 95.9 at 23.976: label 00:00:04:00 is frame 96.
        #expect(xml.contains(#"begin="00:00:04:00" end="00:00:06:12""#))
        let back = try TTMLReader().read(bytes)
        #expect(back.sourceFormat == "itt")
        #expect(back.diagnostics.map(\.code.rawValue) == ["ttml.profile.itt"])
        #expect(back.cues.map(\.plainText) == ["Did you hear that?"])
        #expect(back.cues[0].start == MediaTime(value: 96 * 1001, timescale: 24000))
        #expect(back.cues[0].end == MediaTime(value: 156 * 1001, timescale: 24000))
    }
}

/// TTML ruby (`tts:ruby`) becomes the model's ruby, so that WebVTT carries it as `<ruby>`/`<rt>`;
/// it used to run the annotation into the text ("歌うたです").
@Suite struct TTMLRubyTests {
    @Test func rubyContainersBecomeRubyAndTheirDelimitersGo() throws {
        let document = try TTMLReader().read(ttml(
            #"<div><p begin="0s" end="1s">スペイン<span tts:ruby="container"><span tts:ruby="base">歌</span>"#
                + #"<span tts:ruby="delimiter">(</span><span tts:ruby="text">うた</span><span tts:ruby="delimiter">)</span></span>です</p></div>"#))
        let cue = try #require(document.cues.first)
        let ruby = cue.content.compactMap { node -> Span? in
            if case .span(let span) = node, span.kind == .ruby { return span }
            return nil
        }
        #expect(ruby.count == 1, "\(cue.content)")
        #expect(ruby.first?.children.contains { if case .span(let rt) = $0 { rt.kind == .rubyText } else { false } } == true)
        let written = String(decoding: WebVTTWriter().write(document), as: UTF8.self)
        #expect(written.contains("スペイン<ruby>歌<rt>うた</rt></ruby>です"), "\(written)")
        #expect(!document.diagnostics.contains { $0.message.contains("tts:ruby") })
        var forSRT = document
        let lost = CapabilityReducer(capabilities: SRTWriter().capabilities, formatName: "SRT").reduce(&forSRT)
        #expect(forSRT.cues.first?.plainText == "スペイン歌です")
        #expect(lost.contains { $0.code.rawValue == "convert.lost.ruby" })
    }

    /// White space between a container's base and text spans is not the base's: it read "漢字 "
    /// (imsc-tests ruby001, rubyAlign001; ttconv and pycaption read "漢字").
    @Test func whiteSpaceBetweenRubyPartsIsNotText() throws {
        let document = try TTMLReader().read(ttml(
            "<div><p begin=\"0s\" end=\"1s\"><span tts:ruby=\"container\">\n <span tts:ruby=\"base\">漢字</span>\n "
                + "<span tts:ruby=\"text\">かんじ</span>\n</span></p></div>"))
        let written = String(decoding: WebVTTWriter().write(document), as: UTF8.self)
        #expect(written.contains("<ruby>漢字<rt>かんじ</rt></ruby>"), "\(written)")
    }
}

/// A TTML description becomes a WebVTT NOTE; one of several paragraphs, or holding "-->", used to
/// break out of the NOTE into stray blocks and a cue (found by the fuzzer).
@Suite struct TTMLDescriptionTests {
    @Test func descriptionsWithBlankLinesAndArrowsStayOneNote() throws {
        let document = try TTMLReader().read(ttml(
            #"<div><p begin="1s" end="2s">text</p></div>"#,
            head: "<metadata><ttm:desc>first paragraph\n\nsecond --> still the note\n</ttm:desc></metadata>"))
        let written = WebVTTWriter().write(document)
        let reread = try WebVTTReader().read(written)
        #expect(reread.cues.map(\.plainText) == ["text"])
        #expect(reread.comments.count == 1)
        #expect(reread.comments.first?.text == "first paragraph\nsecond --\u{200B}> still the note")
        #expect(WebVTTWriter().write(reread) == written)
    }

    /// A WebVTT cue in Hebrew or Arabic is right to left in a player (its first strong letter);
    /// a TTML paragraph is left to right unless `tts:direction` says otherwise.
    @Test func rightToLeftCuesSayTheirDirection() throws {
        let source = try WebVTTReader().read(Array(
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n- שלום.\n- מה נשמע?\n\n00:00:03.000 --> 00:00:04.000\n123 كيف حالك؟\n\n00:00:05.000 --> 00:00:06.000\n(שלום) Hello\n\n00:00:07.000 --> 00:00:08.000\n- Hello, שלום\n".utf8))
        let text = String(decoding: TTMLWriter().write(source), as: UTF8.self)
        let directions = text.split(separator: "\n").filter { $0.contains("<p ") }.map { $0.contains("tts:direction=\"rtl\"") }
        #expect(directions == [true, true, true, false])
        #expect(try TTMLReader().read(Array(text.utf8)).cues.map(\.plainText) == source.cues.map(\.plainText))
    }

    /// The reshaping is a reported change on the way to WebVTT, and none on the way to TTML.
    @Test func reshapedDescriptionsAreReported() throws {
        let document = try TTMLReader().read(ttml(
            #"<div><p begin="1s" end="2s">text</p></div>"#,
            head: "<metadata><ttm:desc>one\n\ntwo</ttm:desc><ttm:desc>plain</ttm:desc></metadata>"))
        var toWebVTT = document
        let lost = CapabilityReducer(capabilities: WebVTTWriter().capabilities, formatName: "WebVTT").reduce(&toWebVTT)
        #expect(lost.map(\.code.rawValue) == ["convert.lost.commentText"])
        #expect(lost.first?.message.contains(": 1 written") == true)
        #expect(toWebVTT.comments.map(\.text) == ["one\ntwo", "plain"])
        var toTTML = document
        #expect(CapabilityReducer(capabilities: TTMLWriter(profile: .imsc1).capabilities, formatName: "TTML").reduce(&toTTML).isEmpty)
        #expect(toTTML.comments == document.comments)
    }
}

/// Several speakers in one cue: TTML names each on its span (`ttm:agent`), and reads them back as
/// voice spans; a format with one speaker a cue (ASS) says it names only the first. Both were
/// silently the first speaker's.
@Suite struct SpeakersInOneCueTests {
    static let source = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Joe>Hi there.</v>\n<v Ann>Hello.</v>\n\n"
        + "00:00:04.000 --> 00:00:05.000\n<v Joe>Hee!</v> Hee!\n\n00:00:06.000 --> 00:00:07.000\n<v Joe>All mine.</v>\n"

    @Test func ttmlKeepsEverySpeakerOnItsSpan() throws {
        let document = try WebVTTReader().read(Array(Self.source.utf8))
        var reduced = document
        #expect(CapabilityReducer(capabilities: TTMLWriter(profile: .imsc1).capabilities, formatName: "TTML").reduce(&reduced).isEmpty)
        let ttml = TTMLWriter(profile: .imsc1).write(reduced)
        let text = String(decoding: ttml, as: UTF8.self)
        #expect(text.contains("<span ttm:agent=\"agent2\">Hello.</span>"), "\(text)")
        #expect(text.contains("ttm:agent=\"agent1\">All mine.</p>"), "one speaker for the whole paragraph stays on it: \(text)")
        let back = WebVTTWriter().write(try TTMLReader().read(ttml))
        #expect(String(decoding: back, as: UTF8.self).hasSuffix(
            "<v Joe>Hi there.</v>\n<v Ann>Hello.</v>\n\n00:00:04.000 --> 00:00:05.000\n<v Joe>Hee!</v> Hee!\n\n"
                + "00:00:06.000 --> 00:00:07.000\n<v Joe>All mine.</v>\n"))
    }

    @Test func oneSpeakerACueIsReported() throws {
        var document = try WebVTTReader().read(Array(Self.source.utf8))
        let lost = CapabilityReducer(capabilities: ASSWriter().capabilities, formatName: "ASS").reduce(&document)
        #expect(lost.map(\.code.rawValue) == ["convert.lost.speakersInCue"])
        #expect(lost.first?.message.contains(": 1 named") == true)
    }
}

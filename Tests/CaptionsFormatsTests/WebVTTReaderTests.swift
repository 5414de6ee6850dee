import CaptionsCore
import CaptionsFormats
import Testing

@Suite struct WebVTTReaderTests {
    @Test(arguments: ["", "WEBVT", "WEBVTTX\n", "webvtt\n", "\u{FEFF}NOT WEBVTT", "1\n00:00:01,000 --> 00:00:02,000\nx\n"])
    func refusesFilesWithoutTheSignature(text: String) {
        #expect(throws: CaptionsError.self) { try readWebVTT(text) }
        do { _ = try readWebVTT(text) } catch { #expect(error.code == "webvtt.signature.missing") }
    }

    /// A file whose every cue is skipped reads as no cues, as the spec says, with one warning that
    /// the output will be empty; a file with no cues at all, or with one good cue, has none.
    @Test(arguments: [
        ("WEBVTT\n\n00:01.000 -> 00:02.000\nHello\n\n0:03.000 --> 00:04\nWorld\n", true),
        ("WEBVTT\n\n00:01.000 -> 00:02.000\nHello\n\n00:03.000 --> 00:04.000\nWorld\n", false),
        ("WEBVTT\n\nNOTE nothing yet\n", false),
    ])
    func aFileOfSkippedCuesSaysItIsEmpty(text: String, warned: Bool) throws {
        let document = try readWebVTT(text)
        #expect(document.diagnostics.contains { $0.code == "webvtt.cues.none" } == warned)
    }

    /// Full `HH:MM:SS.mmm` times are read at fixed offsets; anything near that form goes through the
    /// general algorithm, with the same result.
    @Test(arguments: [
        ("00:00:01.000 --> 00:00:02.500", Int64?(1_000)), ("99:59:59.999 --> 100:00:00.000", 359_999_999),
        ("00:60:00.000 --> 01:00:00.000", nil), ("00:00:60.000 --> 00:01:00.000", nil),
        ("00:00:01.0000 --> 00:00:02.000", nil), ("00:00:01.00 --> 00:00:02.000", nil),
        ("000:00:01.000 --> 000:00:02.000", 1_000), ("75:30.000 --> 75:31.000", nil), ("59:30.000 --> 59:31.000", 3_570_000),
        ("00:00:01.000-->00:00:02.000", 1_000), ("0a:00:01.000 --> 00:00:02.000", nil),
    ])
    func timestampsInEveryForm(timing: String, startMilliseconds: Int64?) throws {
        let document = try readWebVTT("WEBVTT\n\n\(timing)\ntext\n")
        #expect(document.cues.first?.start == startMilliseconds.map(MediaTime.init(milliseconds:)))
    }

    /// Mapped files are parsed in place when clean and from a decoded copy otherwise; either way the
    /// document is the one an owned array gives.
    @Test(arguments: [[UInt8]]([
        Array("WEBVTT\n\nNOTE kept\n\n00:01.000 --> 00:02.000 align:start\n<v Ann>clean</v> &amp; more\n".utf8),
        [0xEF, 0xBB, 0xBF] + Array("WEBVTT\n\n00:01.000 --> 00:02.000\nbyte order mark\n".utf8),
        Array("WEBVTT\n\n00:01.000 --> 00:02.000\ncaf".utf8) + [0xE9, 0x0A],
        Array("WEBVTT\n\n00:01.000 --> 00:02.000\nnul".utf8) + [0x00, 0x0A],
        Array("not WebVTT".utf8),
        [],
    ]))
    func readsBorrowedBytesLikeOwnedOnes(bytes: [UInt8]) {
        expectBorrowedReadMatchesOwned(WebVTTReader(), bytes)
    }

    @Test func readsHeaderRegionsStylesCommentsAndCues() throws {
        let document = try readWebVTT("""
            WEBVTT - Talk
            Kind: captions
            Language: en-GB

            REGION
            id:left width:40% lines:2
            regionanchor:0%,100% viewportanchor:10%,90% scroll:up

            STYLE
            ::cue(.loud) { font-weight: bold }

            NOTE Speaker names
            checked by Ann

            intro
            00:00:01.000 --> 00:00:02.500 region:left align:start
            <v.loud Ann Smith>Hello &amp; welcome</v>

            NOTE between

            00:01:02.003 --> 01:00:00.000 line:-2 position:30%,line-left size:50%
            <ruby>漢<rt>kan</rt></ruby> <lang fr>oui</lang> <00:01:02.500>now

            """)
        #expect(document.title == "- Talk")
        #expect(document.headerLines == ["Kind: captions", "Language: en-GB"])
        #expect(document.kind == .captions && document.language == "en-GB")
        #expect(document.regions == [Region(id: "left", width: 40, lines: 2, regionAnchorX: 0, regionAnchorY: 100,
                                            viewportAnchorX: 10, viewportAnchorY: 90, scroll: .up,
                                            location: SourceLocation(line: 5, column: 1))])
        #expect(document.styleSheets.map(\.text) == ["::cue(.loud) { font-weight: bold }"])
        #expect(document.comments.map(\.text) == ["Speaker names\nchecked by Ann", "between"])
        #expect(document.comments.map(\.beforeCue) == [0, 1])
        #expect(document.cues.count == 2)
        let intro = document.cues[0]
        #expect(intro.id == "intro")
        #expect(intro.settings.region == "left" && intro.settings.align == .start)
        #expect(intro.speaker == "Ann Smith")
        #expect(intro.content == [.span(Span(.voice, classes: ["loud"], annotation: "Ann Smith", children: [.text("Hello & welcome")]))])
        #expect(intro.location == SourceLocation(line: 16, column: 1))
        let second = document.cues[1]
        #expect(second.start == MediaTime(milliseconds: 62_003) && second.end == MediaTime(seconds: 3600))
        #expect(second.settings.line == .value(-2) && second.settings.snapToLines)
        #expect(second.settings.position == 30 && second.settings.positionAlign == .lineLeft)
        #expect(second.settings.size == 50)
        #expect(second.content.last == .text("now"))
        #expect(second.content.contains(.timestamp(MediaTime(milliseconds: 62_500))))
        #expect(document.diagnostics.isEmpty)
    }

    @Test func reportsWhatTheParserSkipsWithPositions() throws {
        let document = try readWebVTT("""
            WEBVTT

            00:00:01.000 --> 00:00:02.000 align:middle bogus
            kept

            00:00:0x.000 --> 00:00:02.000
            dropped

            just some words

            00:00:03.000 --> 00:00:02.000 region:nowhere
            backwards

            """)
        #expect(document.cues.map(\.plainText) == ["kept", "backwards"])
        #expect(codes(document) == [
            "webvtt.setting.invalid@3:31", "webvtt.setting.invalid@3:44", "webvtt.timestamp.malformed@6:8",
            "webvtt.block.ignored@9:1", "webvtt.cue.endBeforeStart@11:1", "webvtt.setting.region.unknown@11:31",
        ])
    }

    @Test func lineEndingsByteOrderMarkAndTrailingNewlineDoNotChangeTheModel() throws {
        let lines = ["WEBVTT", "", "1", "00:00:01.000 --> 00:00:02.000", "two", "lines", "", "00:03.000 --> 00:04.000", "x"]
        let reference = try readWebVTT(lines.joined(separator: "\n"))
        for variant in [
            lines.joined(separator: "\r\n"), lines.joined(separator: "\r"), "\u{FEFF}" + lines.joined(separator: "\n"),
            lines.joined(separator: "\n") + "\n\n\n",
        ] {
            let document = try readWebVTT(variant)
            #expect(document.cues.map(\.content) == reference.cues.map(\.content))
            #expect(document.cues.map(\.start) == reference.cues.map(\.start))
            #expect(document.cues.map(\.location) == reference.cues.map(\.location))
        }
    }

    @Test func replacesNulAndInvalidUTF8AndSaysSo() throws {
        var input = bytes("WEBVTT\n\n00:00.000 --> 00:01.000\na")
        input += [0x00, 0x62, 0xFF, 0x63, 0x0A]
        let document = try WebVTTReader().read(input)
        #expect(document.cues[0].plainText == "a\u{FFFD}b\u{FFFD}c")
        #expect(Set(document.diagnostics.map(\.code)) == ["webvtt.encoding.invalid", "webvtt.encoding.null"])
    }

    @Test func implausibleTimesAreErrors() throws {
        let document = try readWebVTT("WEBVTT\n\n999999:00:00.000 --> 999999:00:01.000\nx\n")
        #expect(document.diagnostics.map(\.severity) == [.error])
        #expect(document.diagnostics.first?.code == "time.outOfRange")
    }

    @Test func decodesCharacterReferences() throws {
        let document = try readWebVTT("WEBVTT\n\n00:00.000 --> 00:01.000\n&lt;&amp;&gt; &eacute;&#233;&#xE9; &notit; &bogus;\n")
        #expect(document.cues[0].plainText == "<&> ééé ¬it; &bogus;")
    }
}

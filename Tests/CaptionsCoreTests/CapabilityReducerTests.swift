@testable import CaptionsCore
import Testing

@Suite struct CapabilityReducerTests {
    private func richCue() -> Cue {
        var rich = cue(0, 1000, "")
        rich.settings.line = .value(0)
        rich.settings.align = .left
        rich.content = [
            .span(Span(.voice, annotation: "Ann", children: [
                .span(Span(.italic, children: [.text("Hi")])),
                .span(Span(.class, classes: ["yellow", "loud"], children: [.text(" there")])),
                .timestamp(MediaTime(milliseconds: 500)),
                .span(Span(.ruby, children: [.text("漢"), .span(Span(.rubyText, children: [.text("kan")]))])),
            ]))
        ]
        return rich
    }

    @Test func everythingSurvivesAFormatThatCarriesEverything() {
        var document = TimedTextDocument(regions: [Region(id: "r")], cues: [richCue()])
        let before = document
        let diagnostics = CapabilityReducer(capabilities: .all, formatName: "JSON").reduce(&document)
        #expect(diagnostics.isEmpty)
        #expect(document == before)
    }

    @Test func srtLikeTargetKeepsStylesAndReportsEachLossOnce() {
        var document = TimedTextDocument(
            regions: [Region(id: "r")], styleSheets: [StyleSheet(text: "::cue { color: red }")],
            comments: [Comment(text: "hi", beforeCue: 0)], cues: [richCue(), richCue()])
        let diagnostics = CapabilityReducer(capabilities: [.basicStyles, .colors, .numpadPlacement], formatName: "SRT")
            .reduce(&document)
        let codes = Set(diagnostics.map(\.code.rawValue))
        #expect(codes == [
            "convert.lost.regions", "convert.lost.styleSheets", "convert.lost.comments", "convert.lost.voices",
            "convert.lost.classes", "convert.lost.timestamps", "convert.lost.ruby",
        ])
        #expect(diagnostics.first { $0.code == "convert.lost.voices" }?.message.contains(": 2 dropped") == true)
        let content = document.cues[0].content
        #expect(content.count == 3)
        guard case .span(let italic) = content[0], case .span(let colored) = content[1] else {
            Issue.record("expected the italic and the coloured span, got \(content)")
            return
        }
        #expect(italic.kind == .italic)
        #expect(colored.style?.color == RGBAColor.webVTTClass("yellow"))
        #expect(content[2] == .text("漢"))
        #expect(document.cues[0].settings == NumpadPosition(rawValue: 7)?.settings)
    }

    /// A speaker held on the cue (TTML's `ttm:agent`), not in a voice span, is reported when dropped.
    @Test func aSpeakerOutsideTheTextIsReportedWhenDropped() {
        var spoken = cue(0, 1000, "Hello")
        spoken.speaker = "Mara"
        var document = TimedTextDocument(cues: [spoken, cue(1000, 2000, "again")])
        let diagnostics = CapabilityReducer(capabilities: [.basicStyles], formatName: "SRT").reduce(&document)
        #expect(diagnostics.map(\.code.rawValue) == ["convert.lost.voices"])
        #expect(document.cues.allSatisfy { $0.speaker == nil })
        var kept = TimedTextDocument(cues: [spoken])
        #expect(CapabilityReducer(capabilities: [.voices], formatName: "TTML").reduce(&kept).isEmpty)
        #expect(kept.cues[0].speaker == "Mara")
    }

    @Test func placementOffTheKeypadGridIsReportedAsMoved() {
        var document = TimedTextDocument(cues: [cue(0, 1000, "x")])
        document.cues[0].settings.position = 30
        let diagnostics = CapabilityReducer(capabilities: [.numpadPlacement], formatName: "SRT").reduce(&document)
        #expect(diagnostics.map(\.code) == ["convert.lost.placementApproximated"])
        #expect(document.cues[0].settings == CueSettings())
    }

    /// SCC and STL place cues but write only horizontal text: vertical text is said to be written
    /// flat, at the default place (its line counted across would put it anywhere); TTML keeps it.
    @Test func verticalTextIsReportedWhereAFormatPlacesOnlyHorizontalText() {
        var document = TimedTextDocument(cues: [cue(0, 1000, "縦書き")])
        document.cues[0].settings.vertical = .rightToLeft
        document.cues[0].settings.line = .value(10)
        var flat = document
        let diagnostics = CapabilityReducer(capabilities: [.placement], formatName: "SCC").reduce(&flat)
        #expect(diagnostics.map(\.code) == ["convert.lost.verticalText"])
        #expect(flat.cues[0].settings == CueSettings())
        #expect(CapabilityReducer(capabilities: [.placement, .verticalText], formatName: "TTML").reduce(&document).isEmpty)
        #expect(document.cues[0].settings.vertical == .rightToLeft)
    }

    /// TTML keeps the title (`ttm:title`), and the Kind and Language header fields are the
    /// document's kind and language: none of it is a loss there; other header lines are.
    @Test func theTitleAndKnownHeaderFieldsAreNotLostInTTML() {
        var document = TimedTextDocument(cues: [cue(0, 1000, "x")])
        document.title = "Episode 1"
        document.headerLines = ["Kind: captions", "Language: en"]
        var ttml = document
        #expect(CapabilityReducer(capabilities: [.placement, .title], formatName: "TTML").reduce(&ttml).isEmpty)
        #expect(ttml.title == "Episode 1")
        var srt = document
        #expect(CapabilityReducer(capabilities: [], formatName: "SRT").reduce(&srt).map(\.code) == ["convert.lost.header"])
        document.headerLines.append("X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000")
        #expect(CapabilityReducer(capabilities: [.title], formatName: "TTML").reduce(&document).map(\.code) == ["convert.lost.header"])
    }

    @Test func blankLinesInsideTextAreCollapsed() {
        var document = TimedTextDocument(cues: [cue(0, 1000, "a\n\n\nb")])
        let diagnostics = CapabilityReducer(capabilities: [], formatName: "WebVTT").reduce(&document)
        #expect(document.cues[0].plainText == "a\nb")
        #expect(diagnostics.map(\.code) == ["convert.lost.blankLines"])
    }

    @Test func openEndsEndWhereTheNextCueStarts() {
        var document = TimedTextDocument(cues: [
            Cue(start: .zero, end: nil, content: [.text("a")]), cue(4000, 5000, "b"),
        ])
        _ = CapabilityReducer(capabilities: [], formatName: "SRT").reduce(&document)
        #expect(document.cues[0].end == MediaTime(seconds: 4))
    }

    /// Cues without an end that start together (TTML paragraphs without times) stay on screen
    /// together until a later cue starts; they used to end where the next one starts, which made
    /// every one but the last last no time (ttconv's lwsp_default.ttml lost its first line so).
    @Test func openEndsStartingTogetherEndTogether() {
        var document = TimedTextDocument(cues: [
            Cue(start: .zero, end: nil, content: [.text("a")]), Cue(start: .zero, end: nil, content: [.text("b")]),
            Cue(start: MediaTime(seconds: 3), end: nil, content: [.text("c")]),
            Cue(start: MediaTime(seconds: 3), end: nil, content: [.text("d")]),
        ])
        _ = CapabilityReducer(capabilities: [], formatName: "WebVTT").reduce(&document)
        #expect(document.cues.map(\.end) == [3, 3, 8, 8].map { MediaTime(seconds: $0) })
        #expect(CapabilityReducer.nextLaterStarts([]).isEmpty)
    }
}

@Suite struct NumpadPositionTests {
    @Test(arguments: 1...9)
    func eachPositionMapsToSettingsAndBack(number: Int) throws {
        let position = try #require(NumpadPosition(rawValue: number))
        #expect(NumpadPosition.nearest(to: position.settings) == position)
    }

    @Test func defaultSettingsAreBottomCentre() {
        #expect(NumpadPosition.nearest(to: CueSettings()) == .bottomCenter)
        #expect(NumpadPosition.bottomCenter.settings == CueSettings())
        #expect(NumpadPosition(rawValue: 0) == nil)
    }
}

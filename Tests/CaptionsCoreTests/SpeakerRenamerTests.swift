import CaptionsCore
import Testing

/// `--speakers map.json`: labels renamed in cue speakers and voice spans; a map written for
/// another tool's spelling (`SPEAKER_1` for `Speaker 1`) still matches; labels that match nothing
/// are reported with the speakers the file has.
@Suite struct SpeakerRenamerTests {
    static let document = TimedTextDocument(cues: [
        Cue(start: .zero, end: MediaTime(seconds: 1), content: [.span(Span(.voice, annotation: "Speaker 1", children: [.text("Hi")]))]),
        Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 2), speaker: "Speaker 2", content: [.text("Hello")]),
    ])

    @Test func exactAndLooselySpelledLabelsAreRenamed() {
        let (renamed, diagnostics) = SpeakerRenamer(names: ["SPEAKER_1": "Ann", "Speaker 2": "Ben"]).apply(to: Self.document)
        #expect(renamed.cues[0].content == [.span(Span(.voice, annotation: "Ann", children: [.text("Hi")]))])
        #expect(renamed.cues[1].speaker == "Ben")
        #expect(diagnostics.isEmpty)
    }

    /// A label mapped to nothing is taken off, its text kept (it was written as an empty name).
    @Test func aLabelMappedToNothingIsTakenOff() {
        let (renamed, diagnostics) = SpeakerRenamer(names: ["Speaker 1": "", "Speaker 2": "  "]).apply(to: Self.document)
        #expect(renamed.cues[0].content == [.text("Hi")])
        #expect(renamed.cues[1].speaker == nil && renamed.cues[1].content == [.text("Hello")])
        #expect(diagnostics.isEmpty)
    }

    @Test func labelsThatMatchNothingAreReported() {
        let (renamed, diagnostics) = SpeakerRenamer(names: ["Bob": "Ben", "Speaker 2": "Cy"]).apply(to: Self.document)
        #expect(renamed.cues[1].speaker == "Cy")
        #expect(diagnostics.map(\.code.rawValue) == ["speakers.unmatched"])
        #expect(diagnostics.first?.message.contains("'Bob'") == true && diagnostics.first?.message.contains("'Speaker 1'") == true)
    }
}

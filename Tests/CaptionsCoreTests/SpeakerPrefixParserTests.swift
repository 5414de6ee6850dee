import CaptionsCore
import Testing

@Suite struct SpeakerPrefixParserTests {
    private func speakers(_ lines: [String]) -> [(String?, String)] {
        let cues = lines.enumerated().map { Cue(start: MediaTime(seconds: Int64($0.offset)), end: nil, content: [.text($0.element)]) }
        return SpeakerPrefixParser().apply(to: TimedTextDocument(cues: cues)).cues.map { ($0.speaker, $0.plainText) }
    }

    @Test func namesBecomeSpeakers() {
        let parsed = speakers(["Ann: Hello.", "DR. LEE: Sit down.", "SPEAKER_1: Hi.", "Mary Jo Ross:\nYes."])
        #expect(parsed.map(\.0) == ["Ann", "DR. LEE", "SPEAKER_1", "Mary Jo Ross"])
        #expect(parsed.map(\.1) == ["Hello.", "Sit down.", "Hi.", "Yes."])
    }

    @Test func timesSentencesAndLongLabelsAreNotNames() {
        let lines = ["At 10:30: the tide.", "Note that: it rains.", "10:30 sharp", "One Two Three Four: no.", "Ann:no space", "[music]"]
        #expect(speakers(lines).map(\.0) == Array(repeating: nil, count: lines.count))
        #expect(speakers(lines).map(\.1) == lines)
    }

    @Test func aKnownSpeakerIsKept() {
        let cue = Cue(start: .zero, end: nil, speaker: "Tom", content: [.text("Ann: hello")])
        #expect(SpeakerPrefixParser().apply(to: TimedTextDocument(cues: [cue])).cues == [cue])
    }
}

import CaptionsCore
import PropertyBased
import Testing

@Suite struct CueLineWrapperTests {
    private let words = ["a", "harbour", "light", "keeper's", "log,", "storm.", "west", "gull", "rock", "forty", "years"]

    @Test func shortCuesAreRebrokenInPlace() {
        let cue = Cue(start: .zero, end: MediaTime(seconds: 2), content: [.text("one two\nthree four five")])
        let wrapped = CueLineWrapper(lineLength: 9).apply(to: TimedTextDocument(cues: [cue]))
        #expect(wrapped.cues.map(\.plainText) == ["one two\nthree\nfour five"])
    }

    @Test func markupOtherThanOneVoiceIsLeftAlone() {
        let italic = Cue(start: .zero, end: MediaTime(seconds: 2),
                         content: [.text("one two three "), .span(Span(.italic, children: [.text("four five six")]))])
        #expect(CueLineWrapper(lineLength: 5).apply(to: TimedTextDocument(cues: [italic])).cues == [italic])
    }

    @Test func wrappedCuesKeepWordsLinesAndTime() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...60), Gen.int(in: 8...40), Gen.int(in: 1...3), Gen.int(in: 0...10_000)) { count, length, lines, seed in
            let text = (0..<count).map { words[($0 * 7 + seed) % words.count] }.joined(separator: " ")
            let cue = Cue(id: "c", start: MediaTime(milliseconds: 1_000), end: MediaTime(milliseconds: Int64(1_000 + 100 * count)),
                          speaker: "Ann", content: [.span(Span(.voice, annotation: "Ann", children: [.text(text)]))])
            let pieces = CueLineWrapper(lineLength: length, maxLines: lines).apply(to: TimedTextDocument(cues: [cue])).cues
            #expect(pieces.map(\.plainText).joined(separator: " ").split(whereSeparator: \.isWhitespace) == text.split(separator: " "))
            for piece in pieces {
                let pieceLines = piece.plainText.split(separator: "\n")
                #expect(pieceLines.count <= lines)
                #expect(pieceLines.allSatisfy { $0.count <= length || !$0.contains(" ") })
                #expect(Cue.firstVoice(in: piece.content) == "Ann")
            }
            #expect(pieces.first?.start == cue.start)
            #expect(pieces.last?.end == cue.end)
            #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.end == $1.start && $0.start < $0.end! })
            #expect(Set(pieces.map(\.id)).count == pieces.count)
        }
    }
}

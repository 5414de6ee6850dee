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

    /// Japanese and Chinese, written without spaces, break between characters (they were never
    /// broken: `--wrap 16` left a 40-character line), but no line starts with closing punctuation
    /// or a small kana and none ends with an opening bracket; a Latin word inside stays whole, and
    /// a cue split in time ends at a clause where one is near.
    @Test func textWithoutSpacesBreaksBetweenCharactersWithKinsoku() {
        let text = "今日はとても良い天気ですね、散歩に行きましょうか。「それとも」家でiPhoneを見ますか。"
        let cue = Cue(start: .zero, end: MediaTime(seconds: 6), content: [.text(text)])
        let pieces = CueLineWrapper(lineLength: 12, maxLines: 2).apply(to: TimedTextDocument(cues: [cue])).cues
        let lines = pieces.flatMap { $0.plainText.split(separator: "\n") }
        #expect(lines.joined() == text, "nothing lost, no space added")
        #expect(lines.allSatisfy { $0.count <= 12 }, "\(lines)")
        #expect(!lines.contains { "、。」っょ".contains($0.first!) || "「".contains($0.last!) }, "\(lines)")
        #expect(lines.contains { $0.contains("iPhone") }, "\(lines)")
        let weather = Cue(start: .zero, end: MediaTime(seconds: 4), content: [.text("今日はとても良い天気ですね、散歩に行きましょうか。それとも家でゆっくり休みますか。")])
        let parts = CueLineWrapper(lineLength: 16, maxLines: 2).apply(to: TimedTextDocument(cues: [weather])).cues.map(\.plainText)
        #expect(parts == ["今日はとても良い天気ですね、", "散歩に行きましょうか。それとも家\nでゆっくり休みますか。"])
        #expect(TextWords.of("iPhoneを買った") == ["iPhone", "を", "買っ", "た"])
        #expect(TextWords.join(TextWords.of("新しい iPhone を")) == "新しいiPhoneを")
    }
}

import CaptionsCore
import CaptionsFormats
import PropertyBased
import Testing

@Suite struct DescriptionScriptTests {
    @Test func csvWithHeaderQuotesAndOptionalTimes() throws {
        let script = try DescriptionScript(csv: "text,start\n\"A door, \"\"open\"\".\",00:00:05\nRain.,\n")
        #expect(script.entries.map(\.text) == ["A door, \"open\".", "Rain."])
        #expect(script.entries.map(\.start) == [MediaTime(seconds: 5), nil])
        #expect(script.entries[1].location == SourceLocation(line: 3, column: 1))
    }

    @Test func csvRowWithEndBeforeStartIsAnErrorAtItsRow() {
        #expect(throws: CaptionsError("describe.script.end-before-start", "the end is not after the start", at: SourceLocation(line: 2, column: 1))) {
            try DescriptionScript(csv: "start,end,text\n10,5,Late.\n")
        }
    }

    @Test func csvUnknownColumnIsNamedWithItsPosition() {
        #expect(throws: CaptionsError("describe.script.column", "unknown column 'speaker'; use start, end and text", at: SourceLocation(line: 1, column: 6))) {
            try DescriptionScript(csv: "text,speaker\nHi,Ann\n")
        }
    }

    @Test func csvBadTimeIsAnError() throws {
        do {
            _ = try DescriptionScript(csv: "0:05,,One.\nsoon,,Two.\n")
            Issue.record("no error")
        } catch {
            #expect(error.code == "describe.script.time")
            #expect(error.location == SourceLocation(line: 2, column: 1))
        }
    }

    /// A script file in any encoding: a UTF-8 byte order mark does not hide the first anchor, a
    /// Latin-1 spreadsheet export is detected and said, and a cell's blank line (which would end
    /// a WebVTT cue, and lose the rest) joins its paragraphs with a space.
    @Test func scriptsAreDecodedAndParagraphsInACellAreJoined() throws {
        let marked = try DescriptionScript.read(Array("\u{FEFF}[00:05] First.\n\n[00:15] Second.\n".utf8), fileName: "s.txt")
        #expect(marked.script.entries.map(\.text) == ["First.", "Second."])
        #expect(marked.script.entries.first?.start == MediaTime(seconds: 5))
        let latin1 = Array("start,end,text\n00:00:05,,Caf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me\n".utf8)
        let detected = try DescriptionScript.read(latin1, fileName: "l.csv")
        #expect(detected.script.entries.map(\.text) == ["Café crème"])
        #expect(detected.diagnostics.map(\.code.rawValue) == ["describe.encoding.detected"])
        let cell = try DescriptionScript.read(Array("start,end,text\n00:00:05,,\"Para one.\n\nPara two.\"\n".utf8), fileName: "b.csv")
        #expect(cell.script.entries.map(\.text) == ["Para one. Para two."])
    }

    @Test func jsonScriptWithSecondsAndClockTimes() throws {
        let script = try DescriptionScript(json: Array(#"{"descriptions": [{"text": "Rain.", "start": 1.5}, {"text": "Dawn.", "start": "00:01:00", "end": 65}]}"#.utf8))
        #expect(script.entries.map(\.text) == ["Rain.", "Dawn."])
        #expect(script.entries.map(\.start) == [MediaTime(milliseconds: 1_500), MediaTime(seconds: 60)])
        #expect(script.entries[1].end == MediaTime(seconds: 65))
    }

    @Test func jsonScriptWithAStringThatIsNotATimeIsAnError() {
        #expect(throws: CaptionsError("describe.script.time", "[1].start is not a time in seconds or such as 00:01:05.5", at: .start)) {
            try DescriptionScript(json: Array(#"[{"text": "A."}, {"text": "B.", "start": "soon"}]"#.utf8))
        }
    }

    @Test func textScriptParagraphsWithAnchors() throws {
        let script = try DescriptionScript(plainText: "[00:05] A door\nopens.\n\n\nRain falls.\n")
        #expect(script.entries == [
            .init(text: "A door opens.", start: MediaTime(seconds: 5), location: SourceLocation(line: 1, column: 1)),
            .init(text: "Rain falls.", location: SourceLocation(line: 5, column: 1)),
        ])
    }
}

@Suite struct DescriptionPlacerTests {
    private func cue(_ start: Int64, _ end: Int64) -> Cue {
        Cue(start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end), content: [.text("line")])
    }

    @Test func gapsKeepTheMarginFromDialogue() {
        let gaps = DescriptionPlacer().gaps(around: [cue(2_000, 4_000), cue(4_100, 6_000)], duration: MediaTime(seconds: 10))
        #expect(gaps == [
            .init(start: .zero, end: MediaTime(milliseconds: 1_750)),
            .init(start: MediaTime(milliseconds: 6_250), end: MediaTime(seconds: 10)),
        ])
    }

    @Test func aLongDescriptionIsSplitAtSentenceEndsAcrossPauses() {
        // 160 wpm: 4 words = 1.5 s.
        let script = DescriptionScript(entries: [.init(text: "One two three four. Five six seven eight.")])
        let result = DescriptionPlacer().place(script, dialogue: [cue(2_000, 5_000)], duration: MediaTime(seconds: 8))
        #expect(result.placements.map(\.text) == ["One two three four.", "Five six seven eight."])
        #expect(result.placements.map(\.identifier) == ["d1.1", "d1.2"])
        #expect(result.placements[1].interval.start == MediaTime(milliseconds: 5_250))
    }

    @Test func aDescriptionThatFitsNowhereIsReported() {
        let script = DescriptionScript(entries: [.init(text: "far too many words to say in one short pause", start: MediaTime(seconds: 1))])
        let result = DescriptionPlacer().place(script, dialogue: [cue(2_000, 5_000)], duration: MediaTime(seconds: 5))
        #expect(result.placements.isEmpty)
        #expect(result.unplaced == [0])
    }

    @Test func placementsNeverOverlapDialogueFitTheirGapsAndKeepOrder() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SplitMix(seed: UInt64(seed))
            var cues: [Cue] = []
            var time: Int64 = 0
            for _ in 0..<random.next(12) {
                time += Int64(random.next(6_000))
                let end = time + 500 + Int64(random.next(4_000))
                cues.append(cue(time, end))
                time = end
            }
            let entries = (0..<random.next(8)).map { index in
                let words = (0...random.next(14)).map { "w\($0)" + (random.next(4) == 0 ? "." : "") }
                return DescriptionScript.Entry(text: words.joined(separator: " "),
                                               start: random.next(3) == 0 ? MediaTime(milliseconds: Int64(index * 3_000)) : nil)
            }
            let placer = DescriptionPlacer()
            let duration = MediaTime(milliseconds: time + 3_000)
            let result = placer.place(DescriptionScript(entries: entries), dialogue: cues, duration: duration)
            for placement in result.placements {
                #expect(placement.interval.length == placer.spokenLength(placement.text))
                #expect(result.gaps.contains { $0.start <= placement.interval.start && placement.interval.end <= $0.end })
                for cue in cues { #expect(placement.interval.end <= cue.start - placer.margin || placement.interval.start >= cue.end! + placer.margin) }
            }
            #expect(zip(result.placements, result.placements.dropFirst()).allSatisfy { $0.interval.end <= $1.interval.start && $0.entryIndex <= $1.entryIndex })
            #expect(Set(result.placements.map(\.entryIndex)).count + result.unplaced.count == entries.count)
        }
    }
}

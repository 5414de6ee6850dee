import CaptionsCore
import CaptionsFormats
import CaptionsQuality
import Testing

@Suite struct RuleTests {
    func codes(_ document: TimedTextDocument, _ profile: String = "netflix", language: String? = "en", shots: [Int64] = []) throws -> [String] {
        var checker = QualityChecker(profile: try shipped(profile), language: language)
        checker.shotChanges = shots.map { MediaTime(milliseconds: $0) }
        return pairs(checker.check(document))
    }

    @Test func limitsAreMetWithinTheMillisecondFormatsRoundTo() throws {
        // 20 frames at 23.976 fps is 834.2 ms, 5/6 s is 833.3 ms: SRT writes 00:00:00,833.
        #expect(try codes(document([(0, 833, "Hi."), (3000, 4000, "Yes.")])) == [])
        #expect(try codes(document([(0, 820, "Hi."), (3000, 4000, "Yes.")])) == ["1 check.duration.short"])
        // Two frames (83.4 ms) written as 83 ms.
        #expect(try codes(document([(0, 1000, "Hi."), (1083, 2000, "Yes.")])) == [])
        #expect(try codes(document([(0, 1000, "Hi."), (1000, 2000, "Yes.")])) == ["1 check.gap.short"])
    }

    @Test func readingSpeedCountsAsTheProfileSays() throws {
        // 41 characters with spaces and punctuation in 2 s: 20.5/s, over English's 20.
        let text = "Yes, I know. We have to go there, today."
        #expect(text.count == 40)
        #expect(try codes(document([(0, 2000, text + "!")])) == ["1 check.readingSpeed"])
        #expect(try codes(document([(0, 2000, text)])) == [])
        var profile = try shipped("netflix")
        profile.limits.readingSpeed?.countSpaces = false
        let checker = QualityChecker(profile: profile, language: "fr")
        // Without its 8 spaces, 33 characters in 2 s: 16.5/s, under 17.
        #expect(pairs(checker.check(document([(0, 2000, text + "!")]))) == [])
    }

    @Test func anOutOfOrderCueIsReportedOnceAsOutOfOrder() throws {
        let found = try codes(document([(0, 2000, "One."), (5000, 7000, "Three."), (2500, 4500, "Two.")]))
        #expect(found == ["3 check.cue.order"])
        #expect(try codes(document([(0, 2000, "One."), (1500, 3500, "Two.")])) == ["2 check.cue.overlap"])
    }

    @Test func cueEdgesNearShotChanges() throws {
        // Cut at 10 s; zone 12 frames (500.5 ms); ends belong 2 frames (83 ms) before a cut.
        let onIt = document([(10000, 12000, "On the cut."), (13000, 15000, "Later.")])
        #expect(try codes(onIt, shots: [10000]) == [])
        let late = document([(10200, 12000, "Just after the cut."), (13000, 15000, "Later.")])
        #expect(try codes(late, shots: [10000]) == ["1 check.shot.start"])
        let clear = document([(10600, 12000, "Well after the cut."), (13000, 15000, "Later.")])
        #expect(try codes(clear, shots: [10000]) == [])
        let endsOnCut = document([(7000, 10000, "Ends on the cut."), (11000, 13000, "Later.")])
        #expect(try codes(endsOnCut, shots: [10000]) == ["1 check.shot.end"])
        let endsBefore = document([(7000, 9917, "Ends two frames before."), (11000, 13000, "Later.")])
        #expect(try codes(endsBefore, shots: [10000]) == [])
        let overhangs = document([(7000, 10200, "Hangs over the cut."), (11000, 13000, "Later.")])
        #expect(try codes(overhangs, shots: [10000]) == ["1 check.shot.end"])
    }

    @Test func spansAndLinesAreWrittenAsPeopleReadThem() throws {
        let checker = QualityChecker(profile: try shipped("netflix"), language: "en")
        let long = String(repeating: "a", count: 43)
        let report = checker.check(document([(0, 400, "Hi."), (450, 2000, "Yes.\n" + long), (3000, 4005, "No.")]))
        let messages = report.findings.map(\.diagnostic.message)
        #expect(messages.contains("cue 1 (00:00:00.000): on screen 0.4s (10 frames), under the minimum 0.833s (20 frames)"))
        #expect(messages.contains("cue 1 (00:00:00.000): gap of 0.05s (1 frame) to cue 2, under the minimum 0.083s (2 frames)"))
        #expect(messages.contains("cue 2 (00:00:00.450): line 2 has 43 characters, over 42"))
        // Found by cue, and in rule order within a cue.
        #expect(report.findings.map { $0.cueIndex ?? -1 } == report.findings.map { $0.cueIndex ?? -1 }.sorted())
        #expect(report.findings.prefix(2).map(\.diagnostic.code.rawValue) == ["check.duration.short", "check.gap.short"])
    }

    @Test func charactersTheTargetCannotShow() throws {
        #expect(try codes(document([(0, 2000, "♪ Señor, ¿qué? ♪")]), "cea608", language: nil) == [])
        #expect(try codes(document([(0, 2000, "5 € ✓")]), "cea608", language: nil) == ["1 check.characters"])
        #expect(try codes(document([(0, 2000, "Mojibake \u{FFFD} here")])) == ["1 check.characters"])
        #expect(try codes(document([(0, 2000, "Tab\there")])) == [])
        // ASCII that CEA-608's standard set shows as other characters, but its extended set has.
        #expect(try codes(document([(0, 2000, "Stars *here* {and} ~there~")]), "cea608", language: nil) == [])
        #expect(try codes(document([(0, 2000, "Stars *here* and \u{7F}")]), "cea608", language: nil) == ["1 check.characters"])
    }

    @Test func unbalancedMarkupFromTheReader() throws {
        let srt = "1\n00:00:01,000 --> 00:00:03,000\n<i>Open italics\n\n2\n00:00:04,000 --> 00:00:06,000\nA stray </b> close\n"
        let checker = QualityChecker(profile: try shipped("netflix"), language: "en")
        let report = checker.check(try SRTReader().read(Array(srt.utf8)))
        #expect(pairs(report) == ["1 check.markup.unbalanced", "2 check.markup.unbalanced"])
        #expect(report.findings[1].diagnostic.location == SourceLocation(line: 7, column: 9))
    }

    @Test func aLongFileCheckedOnEveryCoreReadsAsOneCheckedOnOne() throws {
        // 24,000 cues (a long file's rules run in parallel, each into its own list, joined by cue)
        // with findings of several rules on most cues; its first 1,000 cues alone take the
        // one-core path. Every finding but the last cue's gap must read the same, in the same order.
        let texts = ["Hello.", "We have to go there today, right now, before it is too late!", "Yes.\n" + String(repeating: "a", count: 45)]
        let cues = (0..<24_000).map { index -> (Int64, Int64, String) in
            let start = Int64(index) * 3000
            return (start, start + [2000, 900, 2950, 8000][index % 4], texts[index % 3])
        }
        let checker = QualityChecker(profile: try shipped("netflix"), language: "en")
        let long = checker.check(document(cues))
        let short = checker.check(document(Array(cues.prefix(1000))))
        func readings(_ report: QualityReport) -> [String] {
            report.findings.filter { ($0.cueIndex ?? 0) < 999 }.map { "\($0.diagnostic.code) \($0.diagnostic.message)" }
        }
        #expect(Set(long.findings.map(\.diagnostic.code.rawValue)).count >= 4)
        #expect(readings(short).count > 1000)
        #expect(readings(long).prefix(readings(short).count) == readings(short)[...])
        #expect(long.findings.map { $0.cueIndex ?? -1 } == long.findings.map { $0.cueIndex ?? -1 }.sorted())
        // The text report, written in pieces on every core, is the findings in order, then the summary.
        let text = QualityReportFormat.text.render(long, path: "long.srt").split(separator: "\n")
        #expect(text.count == long.findings.count + 1)
        let first = long.findings[0].diagnostic
        #expect(first.location == SourceLocation(line: 5, column: 1))
        #expect(text.first.map(String.init) == "long.srt:5:1: \(first.severity.rawValue): \(first.message) [\(first.code)] (fix may repair this)")
        #expect(text.last?.hasPrefix("long.srt: 24000 cues checked") == true)
    }
}

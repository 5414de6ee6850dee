import CaptionsCore
import CaptionsQuality
import Foundation
import Testing

@Suite struct FixerTests {
    func fix(_ document: TimedTextDocument, _ profile: String = "netflix", language: String? = "en", shots: [Int64] = []) throws -> QualityFix {
        var checker = QualityChecker(profile: try shipped(profile), language: language)
        checker.shotChanges = shots.map { MediaTime(milliseconds: $0) }
        return QualityFixer(checker: checker).fix(document)
    }

    let twoFrames = MediaTime(value: 2002, timescale: 24000) ?? .zero

    func text(_ fixed: QualityFix) -> [String] { fixed.document.cues.map(\.plainText) }

    @Test func linesAreBalancedAndNeverSplitATitleFromItsName() throws {
        let fixed = try fix(document([(0, 4000, "We should go and see what Mr. Smith wants with us today")]))
        #expect(text(fixed) == ["We should go and see what\nMr. Smith wants with us today"])
        let other = try fix(document([(0, 4000, "I think that we should probably go home now, Dr. Watson")]))
        #expect(!text(other)[0].contains("Dr.\n"))
        #expect(text(other)[0].split(separator: "\n").allSatisfy { $0.count <= 42 })
    }

    @Test func textWithoutSpacesBreaksBetweenCharacters() throws {
        let fixed = try fix(document([(0, 8000, "今日はとても良い天気ですね、散歩に行きましょう")]), language: "ja")
        let lines = text(fixed)[0].split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.count <= 13 && !$0.contains(" ") })
    }

    @Test func aCueTooLongForTwoLinesIsSplitInTime() throws {
        let long = "This is a very long subtitle that cannot possibly fit into two lines of forty-two characters, so it has to become two."
        let fixed = try fix(document([(0, 7000, long)]))
        #expect(fixed.document.cues.count == 2)
        #expect(fixed.changes.contains { $0.code == "fix.cue.split" })
        #expect(fixed.document.cues[0].start == .zero && fixed.document.cues[1].end == MediaTime(seconds: 7))
        #expect(pairs(fixed.remaining).allSatisfy { !$0.hasSuffix("check.line.length") && !$0.hasSuffix("check.line.count") })
        // SRT numbers stay numbers (a "1-2" made SRT output warn that it lost an identifier).
        #expect(fixed.document.cues.map(\.id) == ["1", "2"])
    }

    @Test func shortCuesTakeFreeTimeAndGapsAreClosedOrOpened() throws {
        let fixed = try fix(document([(1000, 1500, "Hello."), (1700, 3000, "Hi there."), (3000, 5000, "Touching.")]))
        #expect(pairs(fixed.remaining) == [])
        let cues = fixed.document.cues
        #expect(cues[0].end == cues[1].start - twoFrames)
        #expect(cues[1].end == cues[2].start - twoFrames)
    }

    @Test func edgesSnapToShotChanges() throws {
        let fixed = try fix(document([(10200, 12000, "Just after the cut."), (14000, 16950, "Ends just before a cut.")]), shots: [10000, 17000])
        #expect(fixed.document.cues[0].start == MediaTime(seconds: 10))
        #expect(fixed.document.cues[1].end == MediaTime(seconds: 17) - twoFrames)
        #expect(pairs(fixed.remaining) == [])
    }

    @Test func aFastCueMergesWithASlowNeighbour() throws {
        let fixed = try fix(document([(0, 1000, "Where are you going now?"), (1083, 4000, "Home.")]))
        #expect(fixed.changes.contains { $0.code == "fix.cue.merged" })
        #expect(text(fixed) == ["Where are you going now? Home."])
        #expect(pairs(fixed.remaining) == [])
    }

    /// Paint-on and roll-up captions grow a word at a time: a cue whose next one repeats it and
    /// goes on is replaced by the next, from its own start, not joined to it (pycaption's
    /// `sample_scc_paint_on_edm.scc` was fixed into "I I think").
    @Test func aCaptionThatGrowsIsNotSaidTwice() throws {
        let fixed = try fix(document([(33, 67, "I"), (150, 1001, "I think"), (2035, 4004, "Hello")]))
        #expect(text(fixed) == ["I think", "Hello"])
        #expect(fixed.document.cues.first?.start == MediaTime(milliseconds: 33))
        #expect(fixed.changes.contains { $0.code == "fix.cue.merged" && $0.message.contains("repeats its text") })
        let different = try fix(document([(0, 1000, "Where are you going now?"), (1083, 4000, "Where to?")]))
        #expect(text(different) == ["Where are you going now? Where to?"])
    }

    /// A caption may lead or trail its speech a little, never by seconds: an overlap or a gap
    /// that a start would have to move more than 0.5 s to repair is left for a person.
    @Test(arguments: [
        ("dcmp", [(10000, 13000, "Short one."), (10000, 14000, "Same start.")] as [(Int64, Int64, String)]),
        ("netflix", [(10000, 13000, "Short one."), (10000, 14000, "Same start.")]),
        ("dcmp", [(4100, 5000, "Short one."), (4500, 6000, "Overlapping cue.")]),
        ("netflix", [(10000, 10100, "Hi."), (10110, 13000, "Second cue here.")]),
    ])
    func startsMoveAtMostHalfASecond(profile: String, cues: [(Int64, Int64, String)]) throws {
        let fixed = try fix(document(cues), profile)
        for cue in fixed.document.cues {
            let sources = cues.filter { cue.plainText.contains($0.2) }
            let start = try #require(sources.map(\.0).min(), "\(cue.plainText)")
            #expect(abs(cue.start.rounded(toTimescale: 1000) - start) <= 500, "\(profile): \(cue.plainText) moved to \(cue.start)")
        }
        #expect(try fix(fixed.document, profile).changes.isEmpty)
    }

    /// A cue without an end time is shown until the end of the programme: over any maximum (an
    /// error, repaired by ending it at the next cue or after the maximum), a warning otherwise.
    @Test func aCueWithoutAnEndTimeIsReportedAndEnded() throws {
        var open = document([(1000, 0, "Never ends."), (4000, 0, "Nor does this one.")])
        open.cues[0].end = nil
        open.cues[1].end = nil
        let netflix = QualityChecker(profile: try shipped("netflix"), language: "en").check(open)
        #expect(pairs(netflix).contains("1 check.duration.long"))
        #expect(pairs(netflix).contains("2 check.cue.overlap"))
        #expect(netflix.findings.contains { $0.diagnostic.message.contains("which has no end time") })
        let fixed = try fix(open)
        #expect(fixed.document.cues.map(\.end) == [MediaTime(seconds: 4) - twoFrames, MediaTime(seconds: 11)])
        var last = document([(1000, 0, "Never ends.")])
        last.cues[0].end = nil
        #expect(try fix(last).document.cues[0].end == MediaTime(seconds: 8))
        let dcmp = QualityChecker(profile: try shipped("dcmp"), language: "en").check(last)
        #expect(pairs(dcmp) == ["1 check.duration.open"])
    }

    /// SplitMix64: seeded, so a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: ["netflix", "bbc", "dcmp", "cea608"])
    func fixingTwiceChangesNothingAndLosesNoWords(_ profile: String) throws {
        let vocabulary = ["I", "you", "Mr.", "Smith", "went", "home,", "and", "then", "left.", "Really?", "the", "extraordinarily", "long", "road"]
        for seed in UInt64(1)...60 {
            var random = Seeded(state: seed)
            var time: Int64 = Int64.random(in: 0...2000, using: &random)
            var cues: [(Int64, Int64, String)] = []
            for _ in 0..<Int.random(in: 1...25, using: &random) {
                let start = time + Int64.random(in: -300...1500, using: &random)
                let end = start + Int64.random(in: 100...9000, using: &random)
                let count = Int.random(in: 0...24, using: &random)
                let words = (0..<count).map { _ in vocabulary.randomElement(using: &random) ?? "" }
                cues.append((max(0, start), end, words.joined(separator: Bool.random(using: &random) ? " " : "\n")))
                time = end
            }
            let shots = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int64.random(in: 0...max(1, time), using: &random) }
            let original = document(cues)
            let fixed = try fix(original, profile, shots: shots)
            let again = try fix(fixed.document, profile, shots: shots)
            #expect(again.changes.isEmpty, "seed \(seed): \(again.changes.map(\.message))")
            #expect(words(of: fixed.document).sorted() == words(of: original).sorted(), "seed \(seed): words changed")
            #expect(fixed.document.cues.allSatisfy { ($0.end ?? $0.start) > $0.start }, "seed \(seed): a cue lost its duration")
        }
    }

    static let realFiles: [String] = {
        guard let enumerator = FileManager.default.enumerator(atPath: QualityPaths.realworld.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            ["srt", "vtt", "ttml", "dfxp", "scc", "ass", "sbv"].contains((path as NSString).pathExtension.lowercased())
        }.sorted()
    }()

    @Test(.enabled(if: !realFiles.isEmpty, "../shared/realworld is absent"))
    func realFilesFixOnceAndKeepTheirWords() throws {
        var fixedFiles = 0
        for path in Self.realFiles {
            guard let original = try? readCaptions(QualityPaths.realworld.appendingPathComponent(path)),
                original.cues.count < 5000, original.cues.allSatisfy({ $0.end != nil })
            else { continue }
            let fixed = try fix(original)
            let again = try fix(fixed.document)
            #expect(again.changes.isEmpty, "\(path): \(again.changes.prefix(3).map(\.message))")
            // Every word stays; only a caption that grows (paint-on, roll-up) loses its repeats.
            let (kept, had) = (words(of: fixed.document), words(of: original))
            if fixed.changes.contains(where: { $0.message.contains("repeats its text") }) {
                #expect(Set(kept) == Set(had) && kept.count < had.count, "\(path): words changed")
            } else {
                #expect(kept.sorted() == had.sorted(), "\(path): words changed")
            }
            let before = QualityChecker(profile: try shipped("netflix"), language: "en").check(original)
            #expect(fixed.remaining.count(.error) <= before.count(.error), "\(path): \(Set(pairs(fixed.remaining)).subtracting(pairs(before)).sorted().prefix(5))")
            fixedFiles += 1
        }
        #expect(fixedFiles > 300)
    }
}

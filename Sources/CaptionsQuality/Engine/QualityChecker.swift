import CaptionsCore

/// Runs every rule of a profile over a document: the one engine behind `captions check` and the
/// check `captions fix` makes of its own output.
public struct QualityChecker: Sendable {
    /// The profile.
    public var profile: QualityProfile
    /// The language whose limits apply; `nil` takes the document's.
    public var language: String?
    /// The frame rate frame counts are measured in; `nil` takes the profile's, else 25.
    public var frameRate: FrameRate?
    /// Where ``frameRate`` came from, for the report.
    public var frameRateSource = "option"
    /// Shot changes from the video, when known.
    public var shotChanges: [MediaTime] = []
    /// The step the file's times are counted in (a frame of SCC or EBU STL, ASS's hundredth, a
    /// millisecond): limits are met within it, as its format cannot say better.
    public var timeStep = QualityContext.minimumSlack
    /// The longest row the format holds (SCC 32, EBU STL 40), when shorter than the profile's
    /// limit: lines are kept within it too, or the writer would break them again.
    public var formatLineLength: Int?
    /// The latest time the output's format can hold (SCC and EBU STL: the last frame of a day of
    /// timecode): repairs do not move an end past it, where the writer would cut it back.
    public var latestTime: MediaTime?

    /// The rules, in the order their findings are listed for one cue.
    static let rules: [any QualityRule] = [
        EmptyCueRule(), OrderRule(), DurationRule(), GapRule(), LineRule(), ReadingSpeedRule(), CharacterRule(),
        MarkupRule(), ShotChangeRule(),
    ]

    /// A checker for a profile.
    public init(profile: QualityProfile, language: String? = nil, frameRate: FrameRate? = nil) {
        self.profile = profile
        self.language = language
        self.frameRate = frameRate
    }

    /// The rate in use and where it came from.
    var resolvedRate: (FrameRate, String) {
        if let frameRate { return (frameRate, frameRateSource) }
        if let rate = profile.defaultFrameRate { return (rate, "profile") }
        return (FrameRate(numerator: 25) ?? FrameRate(numerator: 1)!, "default")
    }

    /// The context the rules see for `document`.
    func context(for document: TimedTextDocument) -> QualityContext {
        QualityContext(
            profile: profile, language: language ?? document.language, frameRate: resolvedRate.0, shotChanges: shotChanges,
            cues: document.cues, readerDiagnostics: document.diagnostics, timeStep: timeStep,
            formatLineLength: formatLineLength, latestTime: latestTime)
    }

    /// Everything the rules find in `document`, and what the reader reported (warnings and errors;
    /// unbalanced markup becomes `check.markup.unbalanced`).
    public func check(_ document: TimedTextDocument) -> QualityReport {
        let context = context(for: document)
        // Each rule into a sink of its own, on every core (a file with a finding on most cues
        // spends most of a check writing messages); the sort by cue keeps rule order within a cue.
        // The reader's findings are about no cue, so the sort lists them first, in their order.
        let parallel = ParallelWork.processorCount > 1 && document.cues.count >= 20_000
        let found = ParallelWork.map(parallel ? Self.rules.count + 1 : 1) { part in
            var sink = FindingSink(context: context)
            if part == 0 {
                for diagnostic in document.diagnostics where diagnostic.severity != .note && !MarkupRule.isMarkup(diagnostic.code) {
                    sink.add(diagnostic)
                }
                if !parallel { for rule in Self.rules { rule.check(context, into: &sink) } }
            } else {
                Self.rules[part - 1].check(context, into: &sink)
            }
            return sink.findings
        }
        let sorted = Self.byCue(found, cues: document.cues.count)
        return QualityReport(
            profile: profile.name, language: language ?? document.language, frameRate: context.frameRate,
            frameRateSource: resolvedRate.1, shotChanges: context.shotChanges, cueCount: document.cues.count,
            findings: sorted)
    }

    /// `parts`' findings (one list after another) by cue, in list order within a cue, those about
    /// no cue first: a stable counting sort (one pass to count, one to place each finding straight
    /// into its place), where a comparison sort took a tenth of a check. On several cores each
    /// places the findings of its own range of cues.
    static func byCue(_ parts: [[QualityFinding]], cues: Int) -> [QualityFinding] {
        // Slot 0 is for findings about no cue, slot i + 1 for cue i; starts[slot + 1] counts slot.
        var starts = [Int](repeating: 0, count: cues + 2)
        for findings in parts {
            for finding in findings { starts[(finding.cueIndex ?? -1) + 2] += 1 }
        }
        for slot in 1..<starts.count { starts[slot] += starts[slot - 1] }
        let total = starts[cues + 1]
        // Each piece a range of slots holding about as many findings as the others.
        let pieces = ParallelWork.pieceCount(for: total, minimum: 20_000)
        var bounds = [0]
        for piece in 1..<pieces { bounds.append(starts.firstIndex { $0 >= total * piece / pieces } ?? cues + 1) }
        bounds.append(cues + 1)
        return [QualityFinding](unsafeUninitializedCapacity: total) { buffer, count in
            nonisolated(unsafe) let output = buffer
            _ = ParallelWork.map(pieces) { piece in
                var next = starts
                let slots = bounds[piece]..<bounds[piece + 1]
                for findings in parts {
                    findings.withUnsafeBufferPointer { findings in
                        for finding in findings {
                            let slot = (finding.cueIndex ?? -1) + 1
                            guard slots.contains(slot) else { continue }
                            (output.baseAddress! + next[slot]).initialize(to: finding)
                            next[slot] += 1
                        }
                    }
                }
                return true
            }
            count = total
        }
    }
}

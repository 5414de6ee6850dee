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
            cues: document.cues, readerDiagnostics: document.diagnostics)
    }

    /// Everything the rules find in `document`, and what the reader reported (warnings and errors;
    /// unbalanced markup becomes `check.markup.unbalanced`).
    public func check(_ document: TimedTextDocument) -> QualityReport {
        let context = context(for: document)
        var sink = FindingSink(context: context)
        // The reader's findings are about no cue, so the sort by cue lists them first, in their order
        // (joining two arrays afterwards would copy every finding once more).
        for diagnostic in document.diagnostics where diagnostic.severity != .note && !MarkupRule.isMarkup(diagnostic.code) {
            sink.add(diagnostic)
        }
        for rule in Self.rules { rule.check(context, into: &sink) }
        return QualityReport(
            profile: profile.name, language: language ?? document.language, frameRate: context.frameRate,
            frameRateSource: resolvedRate.1, shotChanges: context.shotChanges, cueCount: document.cues.count,
            findings: Self.byCue(sink.findings, cues: document.cues.count))
    }

    /// `findings` by cue, in rule order within a cue, those about no cue first: a stable counting
    /// sort (one pass to count, one to place), where a comparison sort took a tenth of a check.
    static func byCue(_ findings: [QualityFinding], cues: Int) -> [QualityFinding] {
        // Slot 0 is for findings about no cue, slot i + 1 for cue i.
        var starts = [Int](repeating: 0, count: cues + 2)
        for finding in findings { starts[(finding.cueIndex ?? -1) + 2] += 1 }
        for slot in 1..<starts.count { starts[slot] += starts[slot - 1] }
        var order = [Int32](repeating: 0, count: findings.count)
        for (position, finding) in findings.enumerated() {
            let slot = (finding.cueIndex ?? -1) + 1
            order[starts[slot]] = Int32(position)
            starts[slot] += 1
        }
        return order.map { findings[Int($0)] }
    }
}

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
        for rule in Self.rules { rule.check(context, into: &sink) }
        var findings = sink.findings
        // Stable: by cue, then in rule order.
        findings = findings.enumerated().sorted {
            ($0.element.cueIndex ?? -1, $0.offset) < ($1.element.cueIndex ?? -1, $1.offset)
        }.map(\.element)
        let passed = document.diagnostics.filter { $0.severity != .note && !MarkupRule.isMarkup($0.code) }
        let reader = passed.map { QualityFinding($0, cueIndex: nil, start: nil, end: nil, fixable: false) }
        return QualityReport(
            profile: profile.name, language: language ?? document.language, frameRate: context.frameRate,
            frameRateSource: resolvedRate.1, shotChanges: context.shotChanges, cueCount: document.cues.count,
            findings: reader + findings)
    }
}

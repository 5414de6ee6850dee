import CaptionsCore

/// One thing `captions check` found: a diagnostic (severity, stable `check.*` code, message,
/// source location) tied to the cue it is about.
public struct QualityFinding: Sendable, Hashable {
    /// Severity, code, message and where in the file.
    public var diagnostic: Diagnostic
    /// The cue's position in the document (0-based; reports show it 1-based), `nil` for a finding
    /// about the whole file.
    public var cueIndex: Int?
    /// When the cue starts.
    public var start: MediaTime?
    /// When it ends.
    public var end: MediaTime?
    /// Whether `captions fix` repairs this kind of finding under the profile.
    public var fixable: Bool

    /// A finding with every field given.
    public init(_ diagnostic: Diagnostic, cueIndex: Int?, start: MediaTime?, end: MediaTime?, fixable: Bool) {
        self.diagnostic = diagnostic
        self.cueIndex = cueIndex
        self.start = start
        self.end = end
        self.fixable = fixable
    }
}

/// What `captions check` found in one document.
public struct QualityReport: Sendable {
    /// The profile's name.
    public var profile: String
    /// The language whose limits were used, when known.
    public var language: String?
    /// The frame rate frame counts were measured in, and where it came from.
    public var frameRate: FrameRate
    /// Where the frame rate came from: `media`, `option`, `document` or `profile`.
    public var frameRateSource: String
    /// The shot changes cue edges were checked against (empty without `--media`).
    public var shotChanges: [MediaTime]
    /// How many cues were checked.
    public var cueCount: Int
    /// The findings, in cue order.
    public var findings: [QualityFinding]

    /// How many findings have a severity.
    public func count(_ severity: Diagnostic.Severity) -> Int {
        // By index: `reduce` copied every finding (a retain and release of each string), which was
        // a tenth of checking a file with a finding on every cue.
        var total = 0
        for index in findings.indices where findings[index].diagnostic.severity == severity { total += 1 }
        return total
    }
}

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
        severity == .error ? severityCounts.errors : severity == .warning ? severityCounts.warnings : tally { $0 == severity }
    }

    /// How many findings are errors and how many warnings, in one pass (each pass over 100,000
    /// findings is a pass over 20 MB: four of them were a tenth of checking a file with a finding
    /// on every cue).
    public var severityCounts: (errors: Int, warnings: Int) {
        var (errors, warnings) = (0, 0)
        _ = tally { severity in
            if severity == .error { errors += 1 } else if severity == .warning { warnings += 1 }
            return false
        }
        return (errors, warnings)
    }

    /// How many findings' severities satisfy `test`, read through a buffer pointer (a copy of
    /// each finding, a retain and a release of its strings, was a tenth of a check).
    private func tally(_ test: (Diagnostic.Severity) -> Bool) -> Int {
        findings.withUnsafeBufferPointer { findings in
            var total = 0
            for finding in findings where test(finding.diagnostic.severity) { total += 1 }
            return total
        }
    }
}

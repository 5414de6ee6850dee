import CaptionsCore

/// Collects repeated leniencies as one diagnostic per code: the first location, and a count.
///
/// A 100,000-cue SRT file with `.` instead of `,` gets one warning saying so 200,000 times, not
/// 200,000 warnings.
struct DiagnosticTally {
    private struct Entry {
        var severity: Diagnostic.Severity
        var message: String
        var first: SourceLocation
        var count: Int
    }

    private var entries: [Diagnostic.Code: Entry] = [:]
    private var order: [Diagnostic.Code] = []

    mutating func add(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: @autoclosure () -> String, at location: SourceLocation) {
        if entries[code] != nil {
            entries[code]?.count += 1
        } else {
            entries[code] = Entry(severity: severity, message: message(), first: location, count: 1)
            order.append(code)
        }
    }

    /// Adds a tally of a later part of the same file: counts add up, first places stay.
    mutating func merge(_ other: DiagnosticTally) {
        for code in other.order {
            guard let entry = other.entries[code] else { continue }
            if entries[code] != nil {
                entries[code]?.count += entry.count
            } else {
                entries[code] = entry
                order.append(code)
            }
        }
    }

    var diagnostics: [Diagnostic] {
        order.compactMap { code in
            guard let entry = entries[code] else { return nil }
            let suffix = entry.count > 1 ? " (\(entry.count) times; first here)" : ""
            return Diagnostic(entry.severity, code, entry.message + suffix, at: entry.first)
        }
    }
}

import CaptionsCore

/// Formats diagnostics as `path:line:column: severity: message [code]`, the shape editors and CI
/// logs link to.
struct DiagnosticPrinter {
    /// The path shown before each location (`<stdin>` for standard input).
    var path: String
    /// Whether notes are shown (warnings and errors always are).
    var showNotes: Bool

    func format(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\(path):\($0.line):\($0.column)" } ?? path
        return "\(place): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]\n"
    }

    func print(_ diagnostics: [Diagnostic], to io: CommandIO) {
        for diagnostic in diagnostics where showNotes || diagnostic.severity != .note {
            io.writeStandardError(format(diagnostic))
        }
    }
}

import ArgumentParser

/// `-q` and `-v`, the same on every command.
struct Verbosity: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print errors only: no warnings, no progress bar.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print notes (harmless repairs and what was assumed).")
    var verbose = false

    /// `io`, or under `-q` a view of it that keeps errors only and draws no progress bar;
    /// `keepingWarnings` (`--strict`, where warnings fail the command) keeps warnings too.
    func filtered(_ io: CommandIO, keepingWarnings: Bool = false) -> CommandIO {
        quiet ? QuietIO(io, keepingWarnings: keepingWarnings) : io
    }
}

/// Standard error with errors only: no warnings, notes, summaries or progress bar (`fix`'s "0
/// changes", `describe`'s "4 of 5 placed" and a batch's tally went through before). An error's
/// lines that follow it, indented, stay with it; so do `--progress json` lines, and under
/// `--strict` the warnings that fail the command.
final class QuietIO: CommandIO {
    private let base: CommandIO
    /// Whether the last line kept was an error's, so that its indented lines go with it.
    private var inError = false
    private let keepsWarnings: Bool

    init(_ base: CommandIO, keepingWarnings: Bool = false) {
        self.base = base
        keepsWarnings = keepingWarnings
    }

    func readStandardInput() throws(CaptionsIOError) -> [UInt8] { try base.readStandardInput() }
    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) { base.writeStandardOutput(bytes) }
    func discard(_ result: sending Any) { base.discard(result) }
    var standardErrorIsTerminal: Bool { false }
    func record(_ field: String, _ value: ResultValue) { base.record(field, value) }

    func writeStandardError(_ text: String) {
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            guard !line.isEmpty else { return true }
            if line.hasPrefix("{") { return true }  // --progress json, asked for by a machine
            if line.contains(": error: ") || line.hasPrefix("error: ") || line.hasPrefix("Error: ")
                || (keepsWarnings && line.contains(": warning: "))
            {
                inError = true
            } else if !(inError && (line.hasPrefix(" ") || line.hasPrefix("\t"))) {
                inError = false
            }
            return inError
        }
        let joined = kept.joined(separator: "\n")
        if joined.contains(where: { !$0.isNewline }) { base.writeStandardError(joined) }
    }
}

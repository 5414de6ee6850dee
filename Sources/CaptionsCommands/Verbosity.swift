import ArgumentParser

/// `-q` and `-v`, the same on every command.
struct Verbosity: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print errors only: no warnings, no progress bar.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print notes (harmless repairs and what was assumed).")
    var verbose = false

    /// `io`, or under `-q` a view of it that drops warnings and notes and draws no progress.
    func filtered(_ io: CommandIO) -> CommandIO {
        quiet ? QuietIO(io) : io
    }
}

/// Standard error without warnings, notes or progress; everything else goes through.
final class QuietIO: CommandIO {
    private let base: CommandIO

    init(_ base: CommandIO) { self.base = base }

    func readStandardInput() throws(CaptionsIOError) -> [UInt8] { try base.readStandardInput() }
    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) { base.writeStandardOutput(bytes) }
    func discard(_ result: sending Any) { base.discard(result) }
    var standardErrorIsTerminal: Bool { false }
    func record(_ field: String, _ value: ResultValue) { base.record(field, value) }

    func writeStandardError(_ text: String) {
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains(": warning: ") && !$0.contains(": note: ")
        }
        let joined = kept.joined(separator: "\n")
        if !joined.isEmpty, joined != "\n" { base.writeStandardError(joined) }
    }
}

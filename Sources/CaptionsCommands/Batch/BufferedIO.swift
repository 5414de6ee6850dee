import Synchronization

/// The ``CommandIO`` of one input in a batch: what it prints is kept and printed at once when the
/// file is done (so that parallel files never interleave), its diagnostics are counted, and the
/// facts it records go into its result line.
final class BufferedIO: CommandIO, @unchecked Sendable {
    private(set) var standardOutput: [UInt8] = []
    private(set) var standardError = ""
    private(set) var facts: [(String, ResultValue)] = []
    /// Diagnostics printed, by severity.
    private(set) var errors = 0
    private(set) var warnings = 0

    func readStandardInput() throws(CaptionsIOError) -> [UInt8] {
        throw CaptionsIOError(description: "standard input is not read in a batch")
    }

    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) {
        standardOutput.append(contentsOf: bytes)
    }

    func writeStandardError(_ text: String) {
        standardError += text
        for line in text.split(separator: "\n") {
            if line.contains(": error: ") {
                errors += 1
            } else if line.contains(": warning: ") {
                warnings += 1
            }
        }
    }

    /// Dropped now: a batch does not keep every file's document until the process exits.
    func discard(_ result: sending Any) {}

    var standardErrorIsTerminal: Bool { false }

    func record(_ field: String, _ value: ResultValue) {
        facts.removeAll { $0.0 == field }
        facts.append((field, value))
    }
}

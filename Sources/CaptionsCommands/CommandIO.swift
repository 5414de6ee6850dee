import Foundation

/// Where a command reads standard input and writes its output and messages.
///
/// Commands take one so that tests can run them in-process against memory.
public protocol CommandIO: AnyObject {
    /// All of standard input.
    func readStandardInput() throws -> [UInt8]
    /// Writes bytes to standard output.
    func writeStandardOutput(_ bytes: [UInt8])
    /// Writes text to standard error.
    func writeStandardError(_ text: String)
}

/// The process's real standard streams.
public final class ProcessIO: CommandIO {
    /// The real streams.
    public init() {}

    /// Reads standard input to its end.
    public func readStandardInput() throws -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Writes to standard output.
    public func writeStandardOutput(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes to standard error.
    public func writeStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

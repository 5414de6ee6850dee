import Synchronization
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command reads standard input and writes its output and messages.
///
/// Commands take one so that tests can run them in-process against memory.
public protocol CommandIO: AnyObject {
    /// All of standard input.
    func readStandardInput() throws(CaptionsIOError) -> [UInt8]
    /// Writes bytes to standard output.
    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer)
    /// Writes text to standard error.
    func writeStandardError(_ text: String)
    /// Takes over a large result that is no longer needed; a process may keep it until it exits.
    func discard(_ result: sending Any)
    /// Whether standard error is a terminal (progress bars are drawn only there).
    var standardErrorIsTerminal: Bool { get }
    /// Notes a fact about the input for the batch result (`--results jsonl`): cue count, verdict…
    func record(_ field: String, _ value: ResultValue)
}

extension CommandIO {
    /// Facts are kept only in a batch; one input's run has nowhere to put them.
    public func record(_ field: String, _ value: ResultValue) {}
}

/// A value in a batch result line.
public enum ResultValue: Sendable, Equatable {
    /// A count.
    case int(Int)
    /// A word, such as a verdict.
    case string(String)
    /// Yes or no, such as whether a scan was partial.
    case bool(Bool)
    /// Stretches of time in seconds, such as those a partial scan did not cover: `[[start, end], …]`.
    case ranges([ClosedRange<Double>])
}

/// A failure of the operating system to read or write, with its `strerror` text.
public struct CaptionsIOError: Error, Sendable, CustomStringConvertible {
    /// The `strerror` text.
    public var description: String

    /// The error for the current `errno`.
    static func current() -> CaptionsIOError { CaptionsIOError(description: String(cString: strerror(errno))) }
}

/// The process's real standard streams (no Foundation: the CLI starts fast and stays small).
public final class ProcessIO: CommandIO {
    /// The real streams.
    public init() {}

    /// Reads standard input to its end.
    public func readStandardInput() throws(CaptionsIOError) -> [UInt8] {
        try FileDescriptorIO.readAll(STDIN_FILENO)
    }

    /// Writes to standard output; after a failure (a full disk, a closed stream) nothing more is
    /// written, and the command ends with an error (``outputFailure``).
    public func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) {
        failure.withLock { failure in
            guard failure == nil else { return }
            if Self.standardOutputWasClosed {
                failure = EBADF
            } else if !FileDescriptorIO.writeAll(bytes, to: STDOUT_FILENO) {
                failure = errno
            }
        }
    }

    private let failure = Mutex<Int32?>(nil)

    /// Why writing standard output failed (`strerror`), when it did.
    public var outputFailure: String? { failure.withLock { $0 }.map { String(cString: strerror($0)) } }

    /// Whether the process started with standard output closed (`>&-`): descriptor 1 then holds
    /// /dev/null (``guardStandardDescriptors()``), and writing to it is an error, not a loss.
    private nonisolated(unsafe) static var standardOutputWasClosed = false

    /// Opens /dev/null on any of descriptors 0–2 the process started without, so that no file
    /// the command opens takes their number (an output file on descriptor 1 would receive
    /// whatever is written to standard output).
    public static func guardStandardDescriptors() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 {
            if descriptor == STDOUT_FILENO { standardOutputWasClosed = true }
            _ = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        }
    }

    /// Writes to standard error.
    public func writeStandardError(_ text: String) {
        var text = text
        _ = text.withUTF8 { FileDescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
    }

    /// Keeps `result` until the process exits. Freeing a 100,000-cue document object by object
    /// takes longer than writing it out; the operating system reclaims it all at once at exit.
    public func discard(_ result: sending Any) {
        Self.keptUntilExit.append(result)
    }

    private nonisolated(unsafe) static var keptUntilExit: [Any] = []

    /// Whether standard error is a terminal.
    public var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// Whole-buffer reads and writes on file descriptors, retrying short transfers and EINTR.
enum FileDescriptorIO {
    static func readAll(_ descriptor: Int32, sizeHint: Int = 0) throws(CaptionsIOError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sizeHint + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CaptionsIOError.current()
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    @discardableResult
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// A subcommand that runs against a ``CommandIO`` (the process's, or a test's in memory).
public protocol IOCommand: ParsableCommand {
    /// Runs the command, reading and writing through `io`.
    func execute(io: CommandIO) throws
    /// The files the command reads besides its inputs (a speaker map, a profile, a script, the
    /// video), which no output may replace either.
    var filesRead: [String] { get }
}

extension IOCommand {
    /// None.
    public var filesRead: [String] { [] }

    /// Throws the usage error of ``FileAccess/refuseToReplace(_:with:)`` when `output` is one of
    /// `inputs` or of ``filesRead``.
    func refuseToReplace(_ inputs: [String], with output: String) throws {
        for input in inputs + filesRead { try FileAccess.refuseToReplace(input, with: output) }
    }

    /// Runs against the process's streams. A usage error found while running (a format named by
    /// an output's extension that does not exist, the output being the input) is said as one
    /// found while parsing is: with this subcommand's usage, exit 64.
    public func run() throws {
        let io = ProcessIO()
        var exit: ExitCode?
        do {
            try execute(io: io)
        } catch let error as ValidationError {
            io.writeStandardError(Self.usageMessage(for: error))
            throw ExitCode(64)
        } catch let code as ExitCode {
            exit = code
        }
        if let failure = io.outputFailure {
            // A full disk behind `> file` must not look like success.
            io.writeStandardError("captions: error: cannot write to standard output: \(failure) [output.unwritable]\n")
            throw exit.map { $0.rawValue == 0 ? ExitCode(1) : $0 } ?? ExitCode(1)
        }
        if let exit { throw exit }
    }

    /// `Error: MESSAGE`, then this subcommand's usage and where its help is.
    public static func usageMessage(for error: ValidationError) -> String {
        let name = configuration.commandName ?? String(describing: Self.self).lowercased()
        return "Error: \(error.message)\nUsage: \(CaptionsCommand.usageString(for: Self.self))\n"
            + "  See 'captions \(name) --help' for more information.\n"
    }
}

import ArgumentParser
import CaptionsCore

/// A command that works input by input (`convert`, `check`, `transcript`, `flashes`,
/// `transcribe`), and so over many inputs at once through ``BatchRunner``.
protocol BatchCommand: IOCommand {
    /// The inputs as given: files, folders, or '-'.
    var inputs: [String] { get set }
    /// The output file, or with several inputs the output folder; '-' for standard output.
    var output: String { get set }
    /// The batch options.
    var batch: BatchOptions { get set }
    /// `-q` and `-v`: what is printed, not what is done.
    var verbosity: Verbosity { get set }
    /// The files a folder given as input contributes.
    static var inputKind: BatchInputKind { get }
    /// Whether each input's output is a report that may go to standard output one after the
    /// other (`check`, `flashes`); the others need `-o FOLDER` for several inputs.
    static var reportsToStandardOutput: Bool { get }
    /// The extension of each input's output in the output folder; throws a usage error when the
    /// format cannot be told (no `--to`).
    func outputExtension() throws -> String
    /// Every file ``executeOne(io:)`` writes for `output`: `output` itself, and for `flashes` each
    /// `--report` beside it. `--resume` skips an input only while all of them are there.
    func outputsWritten() -> [String]
    /// Runs on `inputs[0]` alone, writing to `output`.
    func executeOne(io: CommandIO) throws
    /// This command as one of `jobs` running at once, given its share of the cores.
    func sharing(cores: Int) -> Self
    /// This command with every value spelled one way (`--to webvtt` as `vtt`), for the
    /// settings `--resume` compares.
    func spelledOneWay() -> Self
}

extension BatchCommand {
    func sharing(cores: Int) -> Self { self }
    func outputsWritten() -> [String] { [output] }
    func spelledOneWay() -> Self { self }

    /// One input as the command always ran, or several through ``BatchRunner``.
    func executeOneOrMany(io: CommandIO) throws {
        if batch.progress == .json, !batch.isBatch(inputs), inputs.count == 1 {
            try withDoneLine(io: io) { io in
                try batch.check()
                try refuseToReplace([inputs[0]] + batch.filesRead, with: output)
                try executeOne(io: io)
            }
            return
        }
        try batch.check()
        if batch.isBatch(inputs) {
            try BatchRunner.run(self, io: io)
            return
        }
        guard inputs.count == 1 else {
            throw ValidationError("give an input (a file, several files, a folder, or --manifest list.txt)")
        }
        try refuseToReplace([inputs[0]] + batch.filesRead, with: output)
        try executeOne(io: io)
    }

    /// Runs `body` on one input with `--progress json`, so that a wrapper gets a line that says
    /// it is finished, however short the work and however it ended: the scan's own last line, or
    /// `{"file","status","elapsed","done"}` with the status a batch's result would have.
    private func withDoneLine(io: CommandIO, _ body: (CommandIO) throws -> Void) throws {
        let started = Clock.now()
        let recording = DoneLineIO(io)
        var exit: Int32 = 0
        defer {
            if !recording.wroteDoneLine {
                var json = JSONWriter(compact: true)
                json.beginObject()
                json.key("file"); json.string(inputs[0])
                json.key("status"); json.string(BatchResult.status(exit: exit, facts: recording.facts))
                json.key("elapsed"); json.number((max(Clock.now() - started, 0) * 1000).rounded() / 1000)
                json.key("done"); json.bool(true)
                json.endObject()
                io.writeStandardError(json.output + "\n")
            }
        }
        do {
            try body(recording)
        } catch let code as ExitCode {
            exit = code.rawValue
            throw code
        } catch let error as ValidationError {
            exit = 64
            throw error
        } catch {
            exit = 1
            throw error
        }
    }
}

/// Passes everything on, and notes the facts recorded and whether a scan wrote its own last
/// progress line (`"done":true`) for ``BatchCommand/executeOneOrMany(io:)``.
private final class DoneLineIO: CommandIO {
    private let base: CommandIO
    private(set) var facts: [(String, ResultValue)] = []
    private(set) var wroteDoneLine = false

    init(_ base: CommandIO) { self.base = base }

    func readStandardInput() throws(CaptionsIOError) -> [UInt8] { try base.readStandardInput() }
    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) { base.writeStandardOutput(bytes) }
    func writeStandardError(_ text: String) {
        if text.hasPrefix("{"), text.contains("\"done\":true") { wroteDoneLine = true }
        base.writeStandardError(text)
    }
    func discard(_ result: sending Any) { base.discard(result) }
    var standardErrorIsTerminal: Bool { base.standardErrorIsTerminal }
    func record(_ field: String, _ value: ResultValue) {
        facts.append((field, value))
        base.record(field, value)
    }
}

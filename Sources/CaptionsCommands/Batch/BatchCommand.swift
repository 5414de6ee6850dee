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
    /// Whether an output that two inputs would share keeps each input's extension (`a.srt.md`,
    /// `a.ssa.md`: each a document about its input), instead of the pair being refused (`convert`:
    /// two files that would be one). Reports do.
    static var keepsInputExtensionOnClash: Bool { get }
    /// Whether one input's run writes its own progress lines, ending with `"done": true` (the scans
    /// of video and audio); the others get one line when the input is finished, and so do these
    /// when they fail.
    static var writesOwnProgress: Bool { get }
    /// The extension of each input's output in the output folder; throws a usage error when the
    /// format cannot be told (no `--to`).
    func outputExtension() throws -> String
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
    func spelledOneWay() -> Self { self }

    static var keepsInputExtensionOnClash: Bool { reportsToStandardOutput }
    static var writesOwnProgress: Bool { false }

    /// One input as the command always ran, or several through ``BatchRunner``.
    func executeOneOrMany(io: CommandIO) throws {
        try batch.check()
        if batch.isBatch(inputs) {
            try BatchRunner.run(self, io: io)
            return
        }
        guard inputs.count == 1 else {
            throw ValidationError("give an input (a file, several files, a folder, or --manifest list.txt)")
        }
        try refuseToReplace([inputs[0]] + batch.filesRead, with: output)
        guard batch.progress == .json else {
            try executeOne(io: io)
            return
        }
        // `--progress json` on one input: a wrapper gets a line that says it is finished, however
        // short the work and whether or not it succeeded (a scan's own last line, or this one).
        let started = Clock.now()
        var status = "ok"
        defer {
            if !Self.writesOwnProgress || status == "error" {
                var json = JSONWriter(compact: true)
                json.beginObject()
                json.key("file"); json.string(inputs[0])
                json.key("status"); json.string(status)
                json.key("elapsed"); json.number((max(Clock.now() - started, 0) * 1000).rounded() / 1000)
                json.key("done"); json.bool(true)
                json.endObject()
                io.writeStandardError(json.output + "\n")
            }
        }
        do {
            try executeOne(io: io)
        } catch let code as ExitCode {
            status = code.rawValue == 0 ? "ok" : code.rawValue == 2 ? "fail" : "error"
            throw code
        } catch {
            status = "error"
            throw error
        }
    }
}

import ArgumentParser

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
        try executeOne(io: io)
    }
}

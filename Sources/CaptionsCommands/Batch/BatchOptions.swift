import ArgumentParser

/// The options every command that works file by file shares: many inputs, parallel jobs, results
/// for scripts, shards for many machines, and progress for machines.
struct BatchOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Take a folder's subfolders too (a folder given as input is otherwise read one level deep).")
    var recursive = false

    @Option(help: ArgumentHelp("A file listing the inputs, one path a line (relative to the current folder; blank lines and lines starting with # are skipped).", valueName: "list.txt"), completion: .file())
    var manifest: String?

    /// The manifest, when one is named: read, so never an output.
    var filesRead: [String] { manifest.map { [$0] } ?? [] }

    @Option(help: ArgumentHelp("How many files to work on at once (default: the number of cores, each job given its share of them).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("jsonl: one JSON line per file on standard output (path, status, exit, cues or verdict, diagnostics counts, output, seconds) instead of the files' own output.", valueName: "format"))
    var results: ResultsFormat?

    @Option(help: ArgumentHelp("Work on the K-th of N slices of the inputs (K from 1 to N; each input's slice comes from a hash of its path), so that N machines share a catalogue with no coordination.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "Skip inputs already done: their result file under -o FOLDER/.captions-results exists for the same content (SHA-256).")
    var resume = false

    @Option(help: ArgumentHelp("bar (on a terminal, the default), json (one line a second on standard error: file, done, rate, ETA) or none.", valueName: "style"))
    var progress: ProgressStyle?

    /// How `--results` prints.
    enum ResultsFormat: String, ExpressibleByArgument, CaseIterable {
        /// One JSON object a line.
        case jsonl
    }

    /// Whether these options, with `inputs`, ask for the file-by-file mode rather than one input.
    func isBatch(_ inputs: [String]) -> Bool {
        inputs.count > 1 || manifest != nil || results != nil || shard != nil || resume
            || inputs.contains { FileAccess.isDirectory($0) }
    }

    /// The slice `--shard` names, as (index from 0, count).
    func parsedShard() throws -> (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (1...count).contains(index) else {
            throw ValidationError("--shard '\(shard)' must be K/N with 1 ≤ K ≤ N, such as 3/8 (shards count from 1)")
        }
        return (index - 1, count)
    }

    /// Checks the values that do not depend on the inputs.
    func check() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        _ = try parsedShard()
    }
}

/// How progress is shown on standard error.
enum ProgressStyle: String, ExpressibleByArgument, CaseIterable {
    /// A bar redrawn in place, on a terminal only.
    case bar
    /// One JSON object a second, for wrappers and dashboards.
    case json
    /// Nothing.
    case none
}

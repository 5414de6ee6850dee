import ArgumentParser
import CaptionsCore
import CaptionsMedia
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a ``BatchCommand`` over many inputs: `--jobs` at once, each file's messages printed
/// together, results in input order, a summary, and the worst exit code of all
/// (``BatchResult/worse(_:_:)``: 64, then 1, then 2).
enum BatchRunner {
    /// The folder under `-o FOLDER` that holds one result file per input.
    static let resultsFolder = ".captions-results"

    private struct Job {
        var item: BatchItem
        var output: String?
        var resultFile: String?
        /// Said with the file's messages (a note: under `-v`): why its output keeps the input's extension.
        var note: String?
    }

    private struct State {
        var next = 0
        var done = 0
        var resumed = 0
        /// Finished results waiting for the ones before them, by index.
        var finished: [Int: (stdout: [UInt8], stderr: String, result: BatchResult)] = [:]
        var emitted = 0
        var worstExit: Int32 = 0
        var statuses: [String: Int] = [:]
        var running: [Int: String] = [:]
    }

    static func run<Command: BatchCommand>(_ command: Command, io: CommandIO) throws {
        let options = command.batch
        var unnamed: [String] = []
        let items = try BatchInputs.expand(
            command.inputs, options: options, kind: Command.inputKind, io: io,
            outputFolder: FileAccess.isDirectory(command.output) ? command.output : nil, unnamed: &unnamed)
        // Named over every input, then sliced: each shard writes what one process would.
        let jobs = try plan(command, items: items).filter { try BatchInputs.inShard($0.item, options: options) }
        let started = Clock.now()
        if jobs.isEmpty {
            emitUnnamed(unnamed, results: options.results != nil, io: io)
            if options.shard != nil, !items.isEmpty {
                // A shard whose slice is empty (more shards than inputs) is normal: a note, said in
                // place of the summary a shard with files prints (so without -v too; not under -q).
                io.writeStandardError(
                    "captions: note: no \(Command.inputKind.description) to work on in this shard (\(items.count) in all, in other shards) [batch.inputs.none]\n")
                if !unnamed.isEmpty { throw ExitCode(1) }
                return
            }
            io.writeStandardError("captions: error: no \(Command.inputKind.description) to work on\(options.shard != nil ? " in any shard" : "") [batch.inputs.none]\n")
            throw ExitCode(1)
        }
        let settings = Self.settings(of: command)
        let workers = min(options.jobs ?? ParallelWork.processorCount, jobs.count)
        // Each job works on its own copy of the command; `io` is written only under the lock.
        nonisolated(unsafe) let perJob = command.sharing(cores: max(1, ParallelWork.processorCount / workers))
        nonisolated(unsafe) let io = io
        let state = Mutex(State())
        let ticker = ProgressTicker(style: options.progress, io: io, total: jobs.count)
        ticker.start { draw in state.withLock { draw($0.done, $0.running.sorted { $0.key < $1.key }.map(\.value)) } }
        let group = DispatchGroup()
        for worker in 0..<workers {
            // One serial queue each: its own thread, even when a job waits on a file or a decoder.
            DispatchQueue(label: "captions.batch.\(worker)").async(group: group) {
                while let index = state.withLock({ state -> Int? in
                    guard state.next < jobs.count else { return nil }
                    defer { state.next += 1 }
                    state.running[state.next] = jobs[state.next].item.path
                    return state.next
                }) {
                    let finished = runOne(perJob, jobs[index], options: options, settings: settings)
                    state.withLock { state in
                        state.running[index] = nil
                        state.finished[index] = finished.output
                        state.done += 1
                        if finished.resumed { state.resumed += 1 }
                        // Printed in input order, whatever order the jobs end in.
                        while let next = state.finished.removeValue(forKey: state.emitted) {
                            emit(next, results: options.results != nil, io: io)
                            state.worstExit = BatchResult.worse(state.worstExit, next.result.exit)
                            state.statuses[next.result.status, default: 0] += 1
                            state.emitted += 1
                        }
                    }
                }
            }
        }
        group.wait()
        ticker.stop(done: state.withLock { $0.done })
        var (statuses, resumed, worst) = state.withLock { ($0.statuses, $0.resumed, $0.worstExit) }
        if !unnamed.isEmpty {
            emitUnnamed(unnamed, results: options.results != nil, io: io)
            statuses["error", default: 0] += unnamed.count
            worst = BatchResult.worse(worst, 1)
        }
        io.writeStandardError(summary(count: jobs.count + unnamed.count, statuses: statuses, resumed: resumed, seconds: Clock.now() - started))
        if FileAccess.isDirectory(command.output), jobs.contains(where: { $0.output != nil }), (try? command.outputExtension()) == "html" {
            let taken = Set(jobs.compactMap(\.output))
            let name = Command.configuration.commandName ?? "captions"
            if let index = try BatchIndex.write(folder: command.output, command: name, taken: taken, io: io) {
                io.writeStandardError("captions: the reports are listed in \(index)\n")
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Where each input's output and result go; throws usage errors for an output that cannot
    /// be a folder and for two inputs that would write the same file.
    private static func plan<Command: BatchCommand>(_ command: Command, items: [BatchItem]) throws -> [Job] {
        let folder = command.output == "-" ? nil : command.output
        // One file named on its own (with --results or --resume): -o is still that file's output.
        if let output = folder, command.inputs.count == 1, command.batch.manifest == nil, items.count == 1,
            items[0].path == command.inputs[0], !FileAccess.isDirectory(output)
        {
            let name = output.split(separator: "/").last.map(String.init) ?? output
            return [Job(item: items[0], output: output, resultFile: parentFolder(of: output) + "/" + resultsFolder + "/" + name + ".json")]
        }
        guard let folder else {
            if !Command.reportsToStandardOutput {
                throw ValidationError("with several inputs, -o names the folder to write into: give -o FOLDER")
            }
            if command.batch.resume { throw ValidationError("--resume keeps its results under -o FOLDER: give -o FOLDER") }
            return items.map { Job(item: $0) }
        }
        if FileAccess.exists(folder), !FileAccess.isDirectory(folder) {
            throw ValidationError("with several inputs, -o names a folder, and \(folder) is a file")
        }
        let suffix = try command.outputExtension()
        var claimed: [String: String] = [:]
        // Inputs whose outputs would share a name keep their extensions, in every command:
        // `a.srt` and `a.ssa` are converted into `a.srt.vtt` and `a.ssa.vtt`, checked into
        // `a.srt.html` and `a.ssa.html` (only those that would share a name; the others are `b.vtt`).
        var sharing: [String: [String]] = [:]
        for item in items { sharing[replacingExtension(of: item.relative, with: suffix), default: []].append(item.path) }
        return try items.map { item in
            let replaced = replacingExtension(of: item.relative, with: suffix)
            let others = (sharing[replaced] ?? []).filter { $0 != item.path }
            let output = folder + "/" + (others.isEmpty ? replaced : item.relative + "." + suffix)
            if let earlier = claimed.updateValue(item.path, forKey: output) {
                throw ValidationError("\(earlier) and \(item.path) would both be written to \(output); rename one, or work on them separately")
            }
            let note = others.isEmpty || !command.verbosity.verbose ? nil
                : "\(item.path): note: \(others.joined(separator: ", ")) would be written to \(folder)/\(replaced) too; this one keeps its extension: \(output) [batch.output.extensionKept]\n"
            return Job(item: item, output: output, resultFile: folder + "/" + resultsFolder + "/" + item.relative + ".json", note: note)
        }
    }

    static func replacingExtension(of path: String, with suffix: String) -> String {
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let stem = path[name...].lastIndex(of: ".").map { $0 > name ? String(path[..<$0]) : path } ?? path
        return stem + "." + suffix
    }

    /// What a run was asked to do besides which files and how many at once: the command's
    /// options as the argument parser holds them (inputs, `-o` and the batch options set aside),
    /// hashed with the versions of the measures (``VersionInfo``). `--resume` takes only results
    /// of the same settings: a result kept from `--to vtt` or `--standard wcag` does not stand for
    /// `--to srt` or `--standard wcag-aaa`, nor one of an earlier flash analysis for this one;
    /// `-q` and `-v` change what is printed only, and are set aside too.
    static func settings<Command: BatchCommand>(of command: Command) -> String? {
        var key = command.spelledOneWay()
        key.inputs = []
        key.output = ""
        key.batch = BatchOptions()
        key.verbosity = Verbosity()
        let measures = VersionInfo.algorithms.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
        return try? ContentHash.sha256(of: String(reflecting: key) + "\n" + measures)
    }

    /// Runs one input (or takes its earlier result under `--resume`).
    private static func runOne<Command: BatchCommand>(
        _ command: Command, _ job: Job, options: BatchOptions, settings: String?
    ) -> (output: (stdout: [UInt8], stderr: String, result: BatchResult), resumed: Bool) {
        let started = Clock.now()
        let buffered = BufferedIO()
        if let note = job.note { buffered.writeStandardError(note) }
        var sha256: String?
        if job.resultFile != nil {
            do { sha256 = try ContentHash.sha256(ofFile: job.item.path) } catch {
                buffered.writeStandardError("\(job.item.path): error: \(error.message) [\(error.code)]\n")
                let result = BatchResult(path: job.item.path, exit: 1, errors: 1, seconds: Clock.now() - started)
                return ((buffered.standardOutput, buffered.standardError, result), false)
            }
        }
        var one = command
        one.inputs = [job.item.path]
        one.output = job.output ?? "-"
        if options.resume, let resultFile = job.resultFile, let line = try? FileAccess.read(resultFile, io: buffered),
            let stored = BatchResult.stored(in: line), stored.sha256 == sha256, stored.settings == settings,
            stored.output.map(FileAccess.exists) ?? true, stored.output == nil || one.outputsWritten().allSatisfy(FileAccess.exists),
            stored.status != "error" || stored.output != nil
        {
            // Done before, for the same content and settings, every output still there (each
            // `--report` too): its result as it was. (A file that could not be done, with no
            // output, is tried again: a full disk or a lost mount passes. One done in part, such
            // as a damaged video's partial report, is kept.)
            var result = BatchResult(path: job.item.path, exit: stored.exit, seconds: 0, sha256: sha256, settings: settings)
            result.storedLine = String(decoding: line, as: UTF8.self)
            result.storedStatus = stored.status
            return (([], "", result), true)
        }
        // The batch's own progress stands for every file's (theirs would only come out with their results).
        one.batch.progress = ProgressStyle.none
        if let output = job.output { FileAccess.makeDirectories(parentFolder(of: output)) }
        let before = job.output.flatMap(FileAccess.modificationTime)
        var exit: Int32 = 0
        do {
            // An output that would replace an input is this file's usage error; the others go on.
            try one.refuseToReplace(one.inputs + options.filesRead, with: one.output)
            try one.executeOne(io: buffered)
        } catch let code as ExitCode {
            exit = code.rawValue
        } catch let error as ValidationError {
            buffered.writeStandardError("\(job.item.path): error: \(error.message) [usage]\n")
            exit = 64
        } catch {
            buffered.writeStandardError("\(job.item.path): error: \(error) [internal]\n")
            exit = 1
        }
        var result = BatchResult(
            path: job.item.path, exit: exit, facts: buffered.facts, errors: buffered.errors, warnings: buffered.warnings,
            output: job.output.flatMap { output in
                FileAccess.modificationTime(output).flatMap { $0 != before ? output : nil }
            },
            seconds: Clock.now() - started, sha256: sha256, settings: settings)
        if let resultFile = job.resultFile {
            FileAccess.makeDirectories(parentFolder(of: resultFile))
            do { try FileAccess.writeText(result.jsonLine, to: resultFile, io: buffered) } catch {
                buffered.writeStandardError("\(resultFile): warning: the result could not be kept; --resume will do this file again [batch.result.unwritable]\n")
                result.warnings += 1
            }
        }
        return ((buffered.standardOutput, buffered.standardError, result), false)
    }

    /// The result of each input whose name is not UTF-8: said on standard error as it was found,
    /// an error, with a result line each.
    private static func emitUnnamed(_ paths: [String], results: Bool, io: CommandIO) {
        for path in paths { emit(([], "", BatchResult(path: path, exit: 1, errors: 1, seconds: 0)), results: results, io: io) }
    }

    private static func emit(_ finished: (stdout: [UInt8], stderr: String, result: BatchResult), results: Bool, io: CommandIO) {
        if !finished.stderr.isEmpty { io.writeStandardError(finished.stderr) }
        if results {
            var line = finished.result.storedLine ?? finished.result.jsonLine
            if !line.hasSuffix("\n") { line += "\n" }
            line.withUTF8 { io.writeStandardOutput(UnsafeRawBufferPointer($0)) }
        } else {
            finished.stdout.withUnsafeBytes { io.writeStandardOutput($0) }
        }
    }

    private static func parentFolder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// The statuses counted as people read them ("2 ok, 1 failed, 1 partial, 2 errors, 1 usage error"), in
    /// `order`, leaving out those with none.
    static func counted(_ statuses: [String: Int], order: [String]) -> [String] {
        let words = [
            "ok": ("ok", "ok"), "fail": ("failed", "failed"), "partial": ("partial", "partial"), "error": ("error", "errors"),
            "usage": ("usage error", "usage errors"),
        ]
        return order.compactMap { status in
            statuses[status].map { count in "\(count) \(count == 1 ? words[status]?.0 ?? status : words[status]?.1 ?? status)" }
        }
    }

    /// `captions: 12 files in 3.2 s: 10 ok, 1 failed, 1 error (2 already done, skipped)`.
    static func summary(count: Int, statuses: [String: Int], resumed: Int, seconds: Double) -> String {
        let parts = counted(statuses, order: ["ok", "fail", "partial", "error", "usage"])
        let time = NumberFormatting.shortest((seconds * 100).rounded() / 100)
        let resumedText = resumed > 0 ? " (\(resumed) already done, skipped)" : ""
        return "captions: \(count) file\(count == 1 ? "" : "s") in \(time) s: \(parts.joined(separator: ", "))\(resumedText)\n"
    }
}

/// The monotonic clock, in seconds.
enum Clock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

import CaptionsCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stretch of speech as the recogniser heard it.
public struct RecognisedSegment: Sendable, Decodable, Equatable {
    /// Start and end in seconds from the start of the sound.
    public var start: Double
    public var end: Double
    /// The words as the recogniser wrote them (a leading space before each).
    public var text: String
    /// The mean log probability of its tokens, and the probability that it is not speech at all.
    public var avgLogprob: Double
    public var noSpeechProb: Double
    /// How well its text compresses (high: the same words over and over).
    public var compressionRatio: Double
    /// Its words with their times.
    public var words: [RecognisedWord]

    /// A segment.
    public init(start: Double, end: Double, text: String, avgLogprob: Double = -0.2, noSpeechProb: Double = 0, compressionRatio: Double = 1.2, words: [RecognisedWord]) {
        (self.start, self.end, self.text, self.avgLogprob, self.noSpeechProb, self.compressionRatio, self.words) = (start, end, text, avgLogprob, noSpeechProb, compressionRatio, words)
    }
}

/// A word with its time.
public struct RecognisedWord: Sendable, Decodable, Equatable {
    /// Start and end in seconds.
    public var start: Double
    public var end: Double
    /// The word, with the space before it as the recogniser wrote it.
    public var word: String
    /// How sure the recogniser is, 0–1.
    public var probability: Double

    /// A word.
    public init(start: Double, end: Double, word: String, probability: Double = 0.9) {
        (self.start, self.end, self.word, self.probability) = (start, end, word, probability)
    }
}

/// What the recogniser found: the language and the segments.
public struct Recognition: Sendable {
    /// The language spoken (ISO 639-1), and how sure the recogniser is of it.
    public var language: String
    public var languageProbability: Double
    /// The segments in time order.
    public var segments: [RecognisedSegment]
}

/// Runs the speech recogniser (faster-whisper, in the helper process `Scripts/install-speech.sh`
/// installs) over 16 kHz mono samples. The samples go through a temporary file; the helper
/// answers with one JSON object a line, read as it comes, so progress can be shown.
public struct SpeechRecogniser: Sendable {
    /// Where the helper is installed.
    public var installation: SpeechInstallation
    /// The model's name (`base`, `tiny.en`).
    public var model: String
    /// The beam size (1: greedy).
    public var beam: Int
    /// The language, or nil to detect it.
    public var language: String?
    /// The helper's CPU threads; nil: every core.
    public var threads: Int?

    /// A recogniser.
    /// `threads`: the recogniser's CPU threads (default: every core; a batch gives each job its share).
    public init(installation: SpeechInstallation, model: String = "base", beam: Int = 5, language: String? = nil, threads: Int? = nil) {
        (self.installation, self.model, self.beam, self.language, self.threads) = (installation, model, beam, language, threads)
    }

    private struct Line: Decodable {
        var type: String
        var language: String?
        var languageProbability: Double?
    }

    /// Recognises `samples`; `progress` is called with each segment as it comes.
    public func recognise(_ samples: [Float], progress: (RecognisedSegment) -> Void = { _ in }) throws(SpeechError) -> Recognition {
        guard let modelFolder = installation.model(model) else {
            throw SpeechError("speech.model.missing", "the model \(model) is not installed in \(installation.folder)/models (installed: \(SpeechInstallation.models.filter { installation.model($0) != nil }.joined(separator: ", ")))")
        }
        let audio = try TemporaryFile(suffix: ".f32")
        defer { audio.remove() }
        try audio.write(samples)
        let errors = try TemporaryFile(suffix: ".log")
        defer { errors.remove() }
        var arguments = [installation.folder + "/bin/python", installation.folder + "/captions-speech.py",
                         "--model", modelFolder, "--audio", audio.path, "--beam", String(beam)]
        if let language { arguments += ["--language", language] }
        if let threads { arguments += ["--threads", String(max(1, threads))] }

        var pipeEnds: [Int32] = [0, 0]
        // Close-on-exec: the helper gets only the write end, as its standard output.
        guard pipe(&pipeEnds) == 0 else { throw SpeechError("speech.helper.failed", "cannot start the speech recogniser: no pipe") }
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &cArguments, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw SpeechError("speech.helper.failed", "cannot start the speech recogniser \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var recognition = Recognition(language: language ?? "", languageProbability: 0, segments: [])
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var decodeFailure: String?
        var reached = -Double.infinity
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: chunk[..<count])
            // The helper has read the samples once it answers: they need not wait on disk (230 MB an
            // hour) for the rest of the run, or stay behind if it is interrupted.
            audio.remove()
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                do {
                    let head = try JSONDecoder().decode(Line.self, from: line)
                    switch head.type {
                    case "info":
                        recognition.language = head.language ?? recognition.language
                        recognition.languageProbability = head.languageProbability ?? 0
                    case "segment":
                        let segment = try JSONDecoder().decode(RecognisedSegment.self, from: line)
                        recognition.segments.append(segment)
                        // Stretches listened to again come last, out of order: progress only goes on.
                        if segment.end >= reached {
                            reached = segment.end
                            progress(segment)
                        }
                    default: break
                    }
                } catch {
                    decodeFailure = decodeFailure ?? "the recogniser wrote a line that is not the JSON expected: \(String(decoding: line.prefix(120), as: UTF8.self))"
                }
            }
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let message = errors.contents().split(separator: "\n").last.map(String.init) ?? "no message"
            throw SpeechError("speech.helper.failed", "the speech recogniser failed (\(exited ? "exit \(code)" : "signal \(status & 0x7F)")): \(message)")
        }
        if let decodeFailure { throw SpeechError("speech.helper.failed", decodeFailure) }
        // In time order; segments that start together keep the helper's order.
        recognition.segments = recognition.segments.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return recognition
    }
}

/// A temporary file, made with `mkstemp` and removed by its owner, or by
/// ``TemporaryFileCleanup`` when a signal ends the process first (an hour of samples is 230 MB).
final class TemporaryFile {
    let path: String
    private var registration: Int?
    private var removed = false

    init(suffix: String) throws(SpeechError) {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/captions-speech-XXXXXX" + suffix).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard descriptor >= 0 else { throw SpeechError("speech.temporary", "cannot make a temporary file in \(folder)") }
        close(descriptor)
        path = String(cString: template)
        registration = TemporaryFileCleanup.register(path)
    }

    func write(_ samples: [Float]) throws(SpeechError) {
        guard let file = fopen(path, "wb") else { throw SpeechError("speech.temporary", "cannot write \(path)") }
        defer { fclose(file) }
        let written = samples.withUnsafeBufferPointer { fwrite($0.baseAddress, MemoryLayout<Float>.size, $0.count, file) }
        guard written == samples.count else { throw SpeechError("speech.temporary", "cannot write \(path) (disk full?)") }
    }

    func contents() -> String {
        guard let file = fopen(path, "rb") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the file, once (later calls do nothing).
    func remove() {
        guard !removed else { return }
        removed = true
        unlink(path)
        if let registration { TemporaryFileCleanup.unregister(registration) }
    }
}

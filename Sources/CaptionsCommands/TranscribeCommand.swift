import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia
import CaptionsSpeech

/// `captions transcribe`: captions and transcripts from the sound itself, offline.
public struct TranscribeCommand: BatchCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe speech from any audio or video file, offline: captions (WebVTT, SRT, TTML, JSON) or a transcript.",
        discussion: """
            The sound is decoded with FFmpeg; the words come from OpenAI's Whisper model (through faster-whisper), run on \
            this machine by the helper Scripts/install-speech.sh installs (Scripts/setup.sh runs it). Voice-activity \
            detection skips silence; repeated lines and text over silence, the recogniser's known failures, are removed \
            and reported. The output says it is machine-generated.

            Examples:
              captions transcribe episode.mp3 -o episode.vtt
              captions transcribe interview.wav -o interview.json --speaker-per-channel --speakers names.json
              captions transcribe talk.mp4 -o talk.html --model tiny.en --beam 1
            """
    )

    @Argument(help: "The audio or video file; several files or folders are transcribed one by one into the -o folder.", completion: .file())
    var inputs: [String] = []

    @OptionGroup var speech: SpeechOptions

    @OptionGroup var destination: SpeechOutputOptions

    @Flag(help: "Each voice was recorded on its own channel (stereo podcast recording): each channel is transcribed on its own (so voices talking at once are both kept; it takes as long per channel) and its speaker named after it (Speaker 1, Speaker 2…).")
    var speakerPerChannel = false

    @Option(help: ArgumentHelp("Rename speakers with a JSON map such as {\"Speaker 1\": \"Ann\"}.", valueName: "map.json"), completion: .file())
    var speakers: String?

    @OptionGroup var verbosity: Verbosity

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    static let inputKind = BatchInputKind.media
    static let reportsToStandardOutput = false

    /// The output file, or with several inputs the output folder.
    var output: String {
        get { destination.output }
        set { destination.output = newValue }
    }

    /// The files named by options that are read.
    public var filesRead: [String] { [speakers, destination.media].compactMap { $0 } }

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`, on one recording or many; exit 1 when the recogniser is missing or fails.
    public func execute(io: CommandIO) throws {
        try executeOneOrMany(io: verbosity.filtered(io, keepingWarnings: destination.strict))
    }

    /// Each of several recognisers at once runs on its share of the cores.
    func sharing(cores: Int) -> Self {
        var copy = self
        copy.speech.threads = copy.speech.threads ?? cores
        return copy
    }

    /// The extension of each output in the folder.
    func outputExtension() throws -> String { try destination.fileExtension() }

    /// Transcribes the one input.
    func executeOne(io: CommandIO) throws {
        let input = inputs.first ?? "-"
        let target = try destination.target()
        let printer = DiagnosticPrinter(path: input, showNotes: false)
        do {
            try FileAccess.checkWritable(destination.output)
        } catch {
            printer.print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
        // Read before the recogniser runs, so that a bad map fails in a moment, not after minutes.
        let names = try speakers.map { speakers throws in try JSONFiles.speakerNames(from: speakers, io: io) }
        let pageMedia = destination.pageMedia(recording: input, target: target, io: io)
        let (audio, recognitions) = try speech.listen(to: input, printer: printer, io: io, perChannel: speakerPerChannel, progress: batch.progress)
        var shaper = destination.shaper(for: target)
        shaper.recordingEnd = audio.duration
        var document = recognitions.count > 1
            ? TranscriptDocument.make(channels: recognitions, audio: audio, shaper: shaper, model: speech.model)
            : TranscriptDocument.make(from: recognitions[0], audio: audio, shaper: shaper, speakerPerChannel: speakerPerChannel, model: speech.model)
        document.language = document.language.map(speech.documentLanguage)
        if let names {
            let (renamed, notes) = SpeakerRenamer(names: names).apply(to: document)
            document = renamed
            printer.print(notes, to: io)
        }
        io.record("cues", .int(document.cues.count))
        try target.write(
            document, to: destination.output, title: input == "-" ? "Transcript" : String(input.split(separator: "/").last ?? "Transcript"),
            media: pageMedia, strict: destination.strict, printer: printer, io: io)
    }
}

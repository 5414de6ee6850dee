import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia
import CaptionsSpeech

/// `captions transcribe`: captions and transcripts from the sound itself, offline.
public struct TranscribeCommand: IOCommand {
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

    @Argument(help: "The audio or video file.")
    var input: String

    @Option(name: .shortAndLong, help: "The output file, or '-' for standard output (the default: WebVTT).")
    var output: String = "-"

    @Option(name: [.customLong("to"), .customLong("format")], help: ArgumentHelp("The output format: \(CaptionFormat.writableNames), or a transcript: txt, md, html, podcast-json (default: from the output's extension, else vtt).", valueName: "format"))
    var to: String?

    @Option(help: ArgumentHelp("The recognition model: base (better) or tiny.en (faster, English only).", valueName: "name"))
    var model: String = "base"

    @Option(help: ArgumentHelp("The beam size: 5 (default) is more accurate, 1 (greedy) about twice as fast.", valueName: "n"))
    var beam: Int = 5

    @Option(help: ArgumentHelp("The language spoken, such as en or fr (default: detected).", valueName: "code"))
    var language: String?

    @Flag(help: "Keep each word's time in the cues (WebVTT inline timestamps; in --to json).")
    var words = false

    @Flag(help: "Each voice was recorded on its own channel (stereo podcast recording): name the speakers by channel (Speaker 1, Speaker 2…).")
    var speakerPerChannel = false

    @Option(help: ArgumentHelp("Rename speakers with a JSON map such as {\"Speaker 1\": \"Ann\"}.", valueName: "map.json"))
    var speakers: String?

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false

    @Flag(help: "Treat warnings (text over silence, repeats removed, lost formatting) as errors: write nothing.")
    var strict = false

    public init() {}

    public func run() throws {
        try execute(io: ProcessIO())
    }

    private enum Target {
        case captions(CaptionFormat)
        case transcript(TranscriptFormat)
    }

    private func target() throws -> Target {
        let name = to ?? (output == "-" ? "vtt" : String(output.split(separator: ".").last ?? "vtt")).lowercased()
        if let transcript = TranscriptFormat(rawValue: name == "markdown" ? "md" : name == "txt" ? "txt" : name) { return .transcript(transcript) }
        if let format = CaptionFormat(name: name), format.writer() != nil { return .captions(format) }
        if to == nil, output != "-", let format = CaptionFormat(fileExtensionOf: output), format.writer() != nil { return .captions(format) }
        throw ValidationError("unknown output format '\(name)'; choose one of \(CaptionFormat.writableNames), txt, md, html, podcast-json")
    }

    /// Runs against `io`; exit 1 when the recogniser is missing or fails.
    public func execute(io: CommandIO) throws {
        let target = try target()
        guard SpeechInstallation.models.contains(model) else {
            throw ValidationError("--model \(model): choose one of \(SpeechInstallation.models.joined(separator: ", "))")
        }
        guard (1...20).contains(beam) else { throw ValidationError("--beam \(beam): choose 1 (greedy) to 20") }
        let printer = DiagnosticPrinter(path: input, showNotes: false)
        func fail(_ code: String, _ message: String) -> ExitCode {
            printer.print([Diagnostic(.error, Diagnostic.Code(rawValue: code), message, at: .start)], to: io)
            return ExitCode(1)
        }
        do {
            try FileAccess.checkWritable(output, input: input)
        } catch {
            throw fail(error.code.rawValue, error.message)
        }
        let installation: SpeechInstallation
        switch SpeechInstallation.find() {
        case .success(let found): installation = found
        case .failure(let error): throw fail(error.code, error.message)
        }
        let showProgress = !quiet && io.standardErrorIsTerminal
        let audio: DecodedAudio
        do {
            audio = try AudioDecoder.decode(path: input) { seconds in
                if showProgress { io.writeStandardError("\rdecoding the sound: \(Self.clock(seconds))  ") }
            }
        } catch {
            throw fail(error.code, error.message)
        }
        let duration = audio.duration
        let recogniser = SpeechRecogniser(installation: installation, model: model, beam: beam, language: language)
        let recognition: Recognition
        do {
            recognition = try recogniser.recognise(audio.mono) { segment in
                guard showProgress, duration > 0 else { return }
                let fraction = min(1, segment.end / duration)
                let filled = Int(fraction * 30)
                io.writeStandardError("\r[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 30 - filled))] \(Self.clock(segment.end)) of \(Self.clock(duration))  ")
            }
        } catch {
            if showProgress { io.writeStandardError("\r" + String(repeating: " ", count: 60) + "\r") }
            throw fail(error.code, error.message)
        }
        if showProgress { io.writeStandardError("\r" + String(repeating: " ", count: 60) + "\r") }

        var shaper: TranscriptShaper
        switch target {
        case .captions(let format) where format != .podcastJSON: shaper = .captions
        default: shaper = .podcastSegments
        }
        shaper.wordTimes = words
        var document = TranscriptDocument.make(
            from: recognition, audio: audio, shaper: shaper, speakerPerChannel: speakerPerChannel, model: model)
        if let speakers {
            do {
                document = SpeakerRenamer(names: try JSONFiles.decode([String: String].self, from: speakers, io: io)).apply(to: document)
            } catch {
                throw fail(error.code.rawValue, error.message)
            }
        }
        switch target {
        case .captions(let format):
            try ConvertCommand.write(
                document, diagnostics: document.diagnostics, as: format, options: CaptionFormat.WriterOptions(), to: output,
                strict: strict, printer: printer, io: io)
        case .transcript(let format):
            printer.print(document.diagnostics, to: io)
            if strict, document.diagnostics.contains(where: { $0.severity == .warning }) {
                io.writeStandardError("captions: \(input): warnings are errors under --strict; nothing written\n")
                throw ExitCode(1)
            }
            let title = String(input.split(separator: "/").last ?? "Transcript")
            try FileAccess.writeText(format.render(document, title: title), to: output, io: io)
        }
    }

    /// `M:SS` or `H:MM:SS`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)" : "\(m):\(s < 10 ? "0" : "")\(s)"
    }
}

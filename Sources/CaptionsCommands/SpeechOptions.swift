import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia
import CaptionsSpeech

/// The options of the commands that listen to speech (`transcribe`, `align`), and the run they
/// share: find the recogniser, decode the sound, recognise it with a progress bar.
struct SpeechOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The recognition model: base (better) or tiny.en (faster, English only).", valueName: "name"), completion: ValueNames.models)
    var model: String = "base"

    @Option(help: ArgumentHelp("The beam size: 5 (default) is more accurate, 1 (greedy) about twice as fast.", valueName: "n"))
    var beam: Int = 5

    @Option(help: ArgumentHelp("The language spoken, such as en or fr (default: detected).", valueName: "code"))
    var language: String?

    @Option(help: ArgumentHelp("The audio stream to listen to, by its index as ffprobe lists it (default: the file's main one).", valueName: "index"))
    var audioStream: Int?

    /// The recogniser's threads (a batch gives each job its share of the cores).
    @Option(help: .hidden)
    var threads: Int?

    func validate() throws {
        guard SpeechInstallation.models.contains(model) else {
            throw ValidationError("--model \(model): choose one of \(SpeechInstallation.models.joined(separator: ", "))")
        }
        guard (1...20).contains(beam) else { throw ValidationError("--beam \(beam): choose 1 (greedy) to 20") }
        if let language {
            // Checked before the sound is decoded (the recogniser used to refuse it minutes later).
            guard let code = SpeechInstallation.whisperLanguage(language) else {
                throw ValidationError(
                    "--language \(language): the recogniser does not know it; give one of \(SpeechInstallation.languages.sorted().joined(separator: ", "))")
            }
            if model.hasSuffix(".en"), code != "en" {
                throw ValidationError("--language \(language) with --model \(model): that model hears English only; use --model base")
            }
        }
    }

    /// The language code the recogniser takes (`fr-CA` as `fr`); nil: detected.
    var recogniserLanguage: String? { language.flatMap(SpeechInstallation.whisperLanguage) }

    /// The language the output says it is in: the `--language` tag as given (`en-GB`, in BCP 47's
    /// usual case) when the recogniser heard that language, otherwise what it `heard`.
    func documentLanguage(heard: String) -> String {
        guard let language, recogniserLanguage == heard else { return heard }
        // The primary subtag is the one heard (`iw-IL` is written `he-IL`).
        let subtags = language.split(separator: "-").dropFirst().map { part in
            part.count == 2 ? part.uppercased() : part.count == 4 ? part.prefix(1).uppercased() + part.dropFirst().lowercased() : part.lowercased()
        }
        return ([heard] + subtags).joined(separator: "-")
    }

    /// The sound of `input` and what the recogniser heard in it; failures are printed as
    /// diagnostics of `input` and thrown as exit code 1.
    func listen(to input: String, printer: DiagnosticPrinter, io: CommandIO) throws -> (DecodedAudio, Recognition) {
        let (audio, recognitions) = try listen(to: input, printer: printer, io: io, perChannel: false)
        return (audio, recognitions[0])
    }

    /// The sound of `input` and what the recogniser heard: in the mix, or with `perChannel` and a
    /// recording of two channels or more, in each channel on its own (one recognition a
    /// channel, in order), so that two voices talking at once are both heard.
    func listen(
        to input: String, printer: DiagnosticPrinter, io: CommandIO, perChannel: Bool, progress style: ProgressStyle? = nil
    ) throws -> (DecodedAudio, [Recognition]) {
        func fail(_ code: String, _ message: String) -> ExitCode {
            // A recording has no lines: the error names the file alone.
            printer.print([Diagnostic(.error, Diagnostic.Code(rawValue: code), message, at: nil)], to: io)
            return ExitCode(1)
        }
        let installation: SpeechInstallation
        switch SpeechInstallation.find() {
        case .success(let found): installation = found
        case .failure(let error): throw fail(error.code, error.message)
        }
        let showBar = style == .bar || style == nil && io.standardErrorIsTerminal
        let clear = "\r" + String(repeating: " ", count: 72) + "\r"
        let audio: DecodedAudio
        do {
            audio = try AudioDecoder.decode(path: input, stream: audioStream, keepChannels: perChannel) { seconds in
                if showBar { io.writeStandardError("\rdecoding the sound: \(Self.clock(seconds))  ") }
            }
        } catch {
            if showBar { io.writeStandardError(clear) }
            throw fail(error.code, error.message)
        }
        let duration = audio.duration
        let sources = perChannel && audio.channelSamples.count >= 2 ? audio.channelSamples : [audio.mono]
        var recognitions: [Recognition] = []
        for (index, samples) in sources.enumerated() {
            let label = sources.count > 1 ? "channel \(index + 1) of \(sources.count): " : ""
            // `--progress json`: one line a second with the position reached in the recording.
            var lines = style == .json
                ? ProgressBar(io: io, style: .json, duration: duration, file: input, unit: "segments", channel: sources.count > 1 ? index + 1 : nil)
                : nil
            do {
                let recogniser = SpeechRecogniser(installation: installation, model: model, beam: beam, language: recogniserLanguage, threads: threads)
                recognitions.append(try recogniser.recognise(samples) { segment in
                    lines?.update(time: segment.end)
                    guard showBar, duration > 0 else { return }
                    let filled = Int(min(1, segment.end / duration) * 30)
                    io.writeStandardError("\r\(label)[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 30 - filled))] \(Self.clock(segment.end)) of \(Self.clock(duration))  ")
                })
                if showBar { io.writeStandardError(clear) }
                lines?.finish()
            } catch {
                if showBar { io.writeStandardError(clear) }
                throw fail(error.code, error.message)
            }
        }
        return (audio, recognitions)
    }

    /// `M:SS`, or `H:MM:SS` from an hour on (as transcripts stamp times).
    static func clock(_ seconds: Double) -> String {
        Transcript.stamp(MediaTime(milliseconds: Int64(max(0, seconds) * 1000)))
    }
}

/// Where `transcribe` and `align` write, in which format, and how strictly.
struct SpeechOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The output file, or '-' for standard output (the default: WebVTT).", completion: .file())
    var output: String = "-"

    @Option(name: [.customLong("to"), .customLong("format")], help: ArgumentHelp("The output format: \(CaptionFormat.writableNames), or a transcript: \(ValueNames.transcriptFormats) (default: from the output's extension, else vtt).", valueName: "format"), completion: ValueNames.completion(ValueNames.speechOutputs))
    var to: String?

    @Flag(help: "Keep each word's time in the cues (WebVTT inline timestamps; in --to json).")
    var words = false

    @Flag(help: "Treat warnings (text over silence, repeats removed, words not heard, lost formatting) as errors: write nothing.")
    var strict = false

    @Option(help: ArgumentHelp("For an HTML page: the audio or video it plays and follows, linked (not embedded) as given, relative to the page (default: the recording, linked from the page's folder).", valueName: "file"), completion: .file())
    var media: String?

    /// What the HTML page written from `recording` plays: `--media`, else the recording as the
    /// page's folder reaches it. Warns when `--media` is given for another output.
    func pageMedia(recording: String, target: CaptionsOrTranscript, io: CommandIO) -> String? {
        guard case .transcript(.html) = target else {
            if media != nil { io.writeStandardError("warning: --media is used by the HTML page only (--to html) [usage.media.ignored]\n") }
            return nil
        }
        guard recording != "-" else { return media }
        return media ?? RelativeLink.to(recording, fromPageAt: output)
    }

    /// The extension of a file in the format written (for outputs in a folder; default WebVTT).
    func fileExtension() throws -> String {
        switch try CaptionsOrTranscript(to: to ?? "vtt", output: "-") {
        case .captions(let format): format.fileExtension
        case .transcript(let format): format == .podcastJSON ? "json" : format.rawValue
        }
    }

    /// The format written.
    func target() throws -> CaptionsOrTranscript { try CaptionsOrTranscript(to: to, output: output) }

    /// The cue shape for `target`, keeping word times with `--words`.
    func shaper(for target: CaptionsOrTranscript) -> TranscriptShaper {
        var shaper = target.shaper
        shaper.wordTimes = words
        return shaper
    }
}

/// Where a command that makes captions or a transcript writes, and in which format.
enum CaptionsOrTranscript {
    case captions(CaptionFormat)
    case transcript(TranscriptFormat)

    /// The format `to` names, else the one of `output`'s extension, else WebVTT.
    init(to: String?, output: String) throws {
        let file = output.split(separator: "/").last.map(String.init) ?? output
        let fileExtension = output != "-" && file.contains(".") ? String(file.split(separator: ".").last ?? "vtt") : "vtt"
        let name = (to ?? fileExtension).lowercased()
        if let transcript = TranscriptFormat(rawValue: name == "markdown" ? "md" : name) {
            self = .transcript(transcript)
        } else if let format = CaptionFormat(name: name), format.writer() != nil {
            self = .captions(format)
        } else if to == nil, output != "-", let format = CaptionFormat(fileExtensionOf: output), format.writer() != nil {
            self = .captions(format)
        } else {
            throw ValidationError("unknown output format '\(name)'; choose one of \(ValueNames.speechOutputs)")
        }
    }

    /// The cue shape for this output: captions, or podcast segments for JSON and transcripts.
    var shaper: TranscriptShaper {
        if case .captions(let format) = self, format != .podcastJSON { return .captions }
        return .podcastSegments
    }

    /// Writes `document` (its diagnostics printed first) to `output`.
    func write(_ document: TimedTextDocument, to output: String, title: String, media: String? = nil, strict: Bool,
               printer: DiagnosticPrinter, io: CommandIO) throws {
        switch self {
        case .captions(let format):
            var document = document
            if format.writer()?.capabilities.contains(.comments) != true {
                // Our machine-generated note, in formats without comments, goes without a word.
                document.comments = []
            }
            try ConvertCommand.write(
                document, diagnostics: document.diagnostics, as: format, options: CaptionFormat.WriterOptions(), to: output,
                strict: strict, printer: printer, io: io)
        case .transcript(let format):
            printer.print(document.diagnostics, to: io)
            if strict, document.diagnostics.contains(where: { $0.severity == .warning }) {
                io.writeStandardError("\(printer.path): error: warnings are errors under --strict; nothing written [input.strict]\n")
                throw ExitCode(1)
            }
            try FileAccess.writeText(format.render(document, title: title, media: media), to: output, io: io)
        }
    }
}

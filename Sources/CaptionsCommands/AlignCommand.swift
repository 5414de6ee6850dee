import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsSpeech

/// `captions align`: an untimed script timed word by word against its recording.
public struct AlignCommand: IOCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "align",
        abstract: "Time a script (plain text, Markdown or a transcript page) against its recording, word by word, keeping the author's words.",
        discussion: """
            The recording is transcribed offline (as `captions transcribe` does) and the script's words are matched to \
            the words heard, so each of the author's words takes the time it is said; misheard words still take their \
            time. Words of the script the audio lacks are reported and timed between their neighbours. Paragraphs of \
            the script start new cues; `**Name**` or `<cite>` before a paragraph names its speaker.

            Examples:
              captions align episode.mp3 --text script.txt -o episode.vtt
              captions align episode.mp3 --text show-notes.md -o episode.json --words
            """
    )

    @Argument(help: "The recording (any audio or video file).", completion: .file())
    var input: String

    @Option(help: ArgumentHelp("The script: plain text (a blank line between paragraphs), Markdown, or HTML.", valueName: "file"), completion: .file())
    var text: String

    @OptionGroup var speech: SpeechOptions

    @OptionGroup var destination: SpeechOutputOptions

    @OptionGroup var verbosity: Verbosity

    /// The files named by options that are read.
    public var filesRead: [String] { [text, destination.media].compactMap { $0 } }

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`; exit 1 when the script or the recording cannot be read.
    public func execute(io: CommandIO) throws {
        try align(io: verbosity.filtered(io))
    }

    private func align(io: CommandIO) throws {
        let target = try destination.target()
        let printer = DiagnosticPrinter(path: input, showNotes: false)
        let script: [ScriptAligner.ScriptWord]
        try refuseToReplace([input], with: destination.output)
        do {
            try FileAccess.checkWritable(destination.output)
        } catch {
            printer.print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
        let scriptPrinter = DiagnosticPrinter(path: text, showNotes: false)
        do {
            let bytes = try FileAccess.read(text, io: io)
            let (decoded, diagnostics) = TextFile.decode(bytes, codePrefix: "align")
            scriptPrinter.print(diagnostics, to: io)
            script = ScriptAligner.words(ofScript: decoded)
        } catch {
            // Said of the script, not of the recording (`sp1.wav: error: No such file or directory`).
            var diagnostic = error.diagnostic
            diagnostic.message = "cannot read the script (--text): " + diagnostic.message
            scriptPrinter.print([diagnostic], to: io)
            throw ExitCode(1)
        }
        guard !script.isEmpty else {
            io.writeStandardError("\(text): error: the script has no words [align.script.empty]\n")
            throw ExitCode(1)
        }
        let pageMedia = destination.pageMedia(recording: input, target: target, io: io)
        let (audio, recognition) = try speech.listen(to: input, printer: printer, io: io)
        let (segments, guardDiagnostics) = RecognitionGuards.apply(to: recognition.segments, level: RecognitionGuards.loudness(of: audio))
        let heard = WordTiming.snap(TranscriptShaper.words(of: segments), to: audio)
        guard !heard.isEmpty else {
            printer.print([Diagnostic(.error, "align.speech.none", "no speech was heard in the recording: the script has nothing to be timed against", at: nil)], to: io)
            throw ExitCode(1)
        }
        let (timed, alignDiagnostics) = ScriptAligner.align(script, to: heard, duration: audio.duration)
        if alignDiagnostics.contains(where: { $0.severity == .error }) {
            DiagnosticPrinter(path: text, showNotes: false).print(alignDiagnostics, to: io)
            throw ExitCode(1)
        }
        var shaper = destination.shaper(for: target)
        shaper.recordingEnd = audio.duration
        let document = TranscriptDocument.document(
            words: timed, diagnostics: guardDiagnostics + alignDiagnostics, language: speech.documentLanguage(heard: recognition.language), shaper: shaper,
            note: "The author's script, timed by captions align against the recording (OpenAI Whisper \(speech.model) through faster-whisper).")
        try target.write(
            document, to: destination.output, title: String(text.split(separator: "/").last ?? "Transcript"),
            media: pageMedia, strict: destination.strict, printer: printer, io: io)
    }
}

import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia

/// `captions describe`: audio-description cues placed in the pauses of the dialogue.
public struct DescribeCommand: IOCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Place audio descriptions in the pauses of the dialogue (WebVTT descriptions or W3C DAPT).",
        discussion: """
            The script is CSV (start,end,text; times optional) or text (one description per paragraph, an \
            optional [mm:ss] anchor first). Each description goes into the first pause at or after its anchor \
            where it fits at --wpm; one that does not fit is split at sentence ends, or reported as needing \
            extended description (WCAG 1.2.7). --times-only writes the pauses as empty events for a describer.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case vtt, dapt

        /// `--to` in any case, and the names its files take (`webvtt`, `ttml`), as every
        /// command's `--to` reads them.
        init?(argument: String) {
            guard let format = Format(rawValue: argument.lowercased()) ?? Format(outputExtension: argument) else { return nil }
            self = format
        }

        /// The extensions of output files and the format each names.
        static let extensions: [(String, Format)] = [("vtt", .vtt), ("webvtt", .vtt), ("ttml", .dapt), ("dapt", .dapt), ("xml", .dapt)]

        /// The format an output's extension names: `.ttml`, `.xml` and `.dapt` DAPT, `.vtt` WebVTT.
        init?(outputExtension: String) {
            guard let format = Self.extensions.first(where: { $0.0 == outputExtension.lowercased() })?.1 else { return nil }
            self = format
        }
    }

    @Option(help: ArgumentHelp("The description script (.csv, .json or text).", valueName: "file"), completion: .file())
    var script: String?

    @Option(help: ArgumentHelp("The dialogue captions (any format `convert` reads).", valueName: "file"), completion: .file())
    var dialogue: String

    @Option(help: ArgumentHelp("The dialogue's format, as for convert: \(CaptionFormat.acceptedNames) (default: from the extension, else from the content)."), completion: ValueNames.completion(CaptionFormat.acceptedNames))
    var from: String?

    @Option(name: .shortAndLong, help: "The output file, or '-' for standard output (the default).", completion: .file())
    var output: String = "-"

    @Option(name: [.customLong("format"), .customLong("to")], help: "vtt or dapt (default: dapt for .ttml/.xml/.dapt outputs, else vtt).")
    var format: Format?

    @Option(help: ArgumentHelp("Space kept between dialogue and a description, each side.", valueName: "duration"))
    var margin: String = "0.25s"

    @Option(help: "Speaking rate in words per minute.")
    var wpm: Double = 160

    @Option(help: ArgumentHelp("The media's length (default: the end of the last dialogue cue).", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp("The video, to take the timeline's length from (instead of --duration).", valueName: "file"), completion: .file())
    var media: String?

    @Option(help: "The language of the descriptions (default: the dialogue's, else en).")
    var language: String?

    @Flag(help: "Write the pauses as empty timed events to be filled in (no --script).")
    var timesOnly = false

    @Option(help: ArgumentHelp("With --times-only, the shortest pause worth describing.", valueName: "duration"))
    var minGap: String = "1s"

    @Flag(help: "DAPT: mark texts to be spoken by text-to-speech (tta:speak).")
    var speakTag = false

    @Option(help: ArgumentHelp("Also render an audio preview of the descriptions (needs espeak-ng and ffmpeg).", valueName: "out.wav"), completion: .file())
    var speak: String?

    @Flag(help: "Estimate spoken length from --wpm only, even when espeak-ng is installed.")
    var noSpeechTiming = false

    @Flag(help: "Exit 1 when a description fits no pause.")
    var strict = false

    @OptionGroup var verbosity: Verbosity

    /// The files named by options that are read.
    public var filesRead: [String] { [script, media].compactMap { $0 } }

    /// Used by ArgumentParser.
    public init() {}

    /// Checks the options before running.
    public func validate() throws {
        guard wpm > 0, wpm.isFinite else { throw ValidationError("--wpm must be a positive number") }
        if timesOnly, script != nil { throw ValidationError("--times-only writes empty events; leave out --script") }
        if !timesOnly, script == nil { throw ValidationError("give --script, or --times-only for empty events") }
    }

    /// Runs against `io`.
    public func execute(io: CommandIO) throws {
        let io = verbosity.filtered(io, keepingWarnings: strict)
        try refuseToReplace([dialogue], with: output)
        if format == nil {
            try OutputName.refuseUnknownExtension(output, command: "describe", extensions: Format.extensions.map(\.0)) {
                Format(outputExtension: $0) != nil
            }
        }
        if let speak {
            try refuseToReplace([dialogue], with: speak)
            if speak == output || FileAccess.isSameFile(speak, output) {
                throw ValidationError("--speak \(speak) is the output too; name another file for the audio preview")
            }
            do { try FileAccess.checkWritable(speak) } catch {
                io.writeStandardError("\(speak): error: \(error.message) [\(error.code)]\n")
                throw ExitCode(1)
            }
        }
        let marginTime = try nonNegativeDuration(margin, option: "--margin")
        let minimumGap = try nonNegativeDuration(minGap, option: "--min-gap")
        let dialogueDocument = try ConvertCommand.parse([dialogue] + (from.map { ["--from", $0] } ?? []) + (verbosity.verbose ? ["--verbose"] : []))
            .readDocument(io: io)
        let mediaDuration = try media.map { try Self.length(of: $0, io: io) }
        if dialogueDocument.cues.isEmpty, duration == nil, mediaDuration == nil {
            io.writeStandardError("\(dialogue): error: the dialogue has no cues, so there is no timeline; give --duration [describe.dialogue.empty]\n")
            throw ExitCode(1)
        }
        let lastEnd = dialogueDocument.cues.compactMap { $0.end ?? $0.start }.max() ?? .zero
        let mediaLength = try duration.map { try nonNegativeDuration($0, option: "--duration") } ?? mediaDuration ?? lastEnd
        let languageTag = language ?? dialogueDocument.language ?? "en"
        var placer = DescriptionPlacer(margin: marginTime, wordsPerMinute: wpm)
        let speech = SpeechTimer(voice: languageTag, wordsPerMinute: wpm)
        if !noSpeechTiming, let timer = speech {
            let estimate = placer.spokenLength
            nonisolated(unsafe) let timer = timer
            placer.spokenLength = { text in timer.length(of: text) ?? estimate(text) }
            io.writeStandardError("spoken lengths measured with espeak-ng at \(NumberFormatting.shortest(wpm)) words per minute\n")
        }
        let outputFormat = format ?? OutputName.fileExtension(of: output).flatMap(Format.init(outputExtension:)) ?? .vtt

        var events: [DAPTWriter.Event]
        var unplaced: [DescriptionScript.Entry] = []
        var total = 0
        if let script {
            let entries = try readScript(script, io: io)
            let result = placer.place(entries, dialogue: dialogueDocument.cues, duration: mediaLength)
            events = result.placements.map { ($0.identifier, $0.interval.start, $0.interval.end, $0.text) }
            unplaced = result.unplaced.map { entries.entries[$0] }
            total = entries.entries.count
        } else {
            events = placer.gaps(around: dialogueDocument.cues, duration: mediaLength).filter { !($0.length < minimumGap) }
                .enumerated().map { ("gap\($0.offset + 1)", $0.element.start, $0.element.end, "") }
        }

        let text = Self.render(events, as: outputFormat, language: languageTag, speakTag: speakTag)
        try FileAccess.writeText(text, to: output, io: io)
        report(placed: events.count, total: total, unplaced: unplaced, io: io)
        if let speak {
            let problem = speech.map { SpeechPreview.render(events.map { ($0.start, $0.text) }, length: mediaLength, speech: $0, to: speak) }
                ?? "espeak-ng is not installed, so no audio preview was made"
            if let problem {
                io.writeStandardError("\(speak): warning: \(problem) [describe.speak.skipped]\n")
            } else {
                io.writeStandardError("audio preview written to \(speak)\n")
            }
        }
        if strict, !unplaced.isEmpty { throw ExitCode(1) }
    }

    /// The events as a WebVTT `descriptions` track or a DAPT script.
    private static func render(_ events: [DAPTWriter.Event], as format: Format, language: String, speakTag: Bool) -> String {
        switch format {
        case .dapt:
            return DAPTWriter(language: language, speak: speakTag).write(events: events)
        case .vtt:
            let cues = events.map { Cue(id: $0.id, start: $0.start, end: $0.end, content: $0.text.isEmpty ? [] : [.text($0.text)]) }
            let document = TimedTextDocument(kind: .descriptions, language: language,
                                             headerLines: ["Kind: descriptions", "Language: \(language)"], cues: cues)
            var bytes: [UInt8] = []
            WebVTTWriter().write(document) { bytes.append(contentsOf: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private func readScript(_ path: String, io: CommandIO) throws -> DescriptionScript {
        let printer = DiagnosticPrinter(path: path, showNotes: false)
        do {
            let (script, diagnostics) = try DescriptionScript.read(try FileAccess.read(path, io: io), fileName: path)
            printer.print(diagnostics, to: io)
            return script
        } catch {
            printer.print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
    }

    private func report(placed: Int, total: Int, unplaced: [DescriptionScript.Entry], io: CommandIO) {
        guard let script else {
            io.writeStandardError("\(placed) pauses of at least \(minGap) written as empty events\n")
            return
        }
        let printer = DiagnosticPrinter(path: script, showNotes: false)
        printer.print(unplaced.map { entry in
            let anchor = entry.start.map { " at \(ClockTime(roundingToMilliseconds: $0).formatted(fractionSeparator: "."))" } ?? ""
            return Diagnostic(strict ? .error : .warning, "describe.no-fit",
                              "no pause fits this description\(anchor); it needs extended description (WCAG 1.2.7): \(entry.text)",
                              at: entry.location)
        }, to: io)
        io.writeStandardError("\(total - unplaced.count) of \(total) descriptions placed in \(placed) cues\n")
    }

    /// The length of the video in `path`, through FFmpeg.
    private static func length(of path: String, io: CommandIO) throws -> MediaTime {
        do {
            guard let seconds = try VideoDecoder(path: path).info.duration, seconds > 0,
                  let time = MediaTime(decimalSeconds: Substring(NumberFormatting.shortest(seconds))) else {
                io.writeStandardError("\(path): error: the container does not say how long it is; give --duration [media.duration.unknown]\n")
                throw ExitCode(1)
            }
            return time
        } catch let error as MediaError {
            io.writeStandardError("\(path): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
    }
}

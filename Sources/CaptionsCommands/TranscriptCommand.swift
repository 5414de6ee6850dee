import ArgumentParser
import CaptionsCore
import CaptionsFormats

extension TranscriptFormat: ExpressibleByArgument {
    /// The format `--format` names, with its aliases (`text`, `markdown`, `json`…).
    public init?(argument: String) { self.init(name: argument) }
}

/// `captions transcript`: captions as a readable transcript for podcasts and articles.
public struct TranscriptCommand: BatchCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "transcript",
        abstract: "Turn captions into a transcript: text, Markdown, HTML or Podcasting 2.0 JSON.",
        discussion: """
            One paragraph per speaker turn, the speaker named once, a timestamp at each turn. A new paragraph \
            starts when the speaker changes or after a pause (--pause, default 2s).
            """
    )

    @Argument(help: "The captions (any format convert reads, or a media file with a subtitle stream), or '-'; several files or folders are turned into transcripts one by one, into the -o folder.", completion: .file())
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "The output file, or '-' for standard output (the default); with several inputs, the folder to write into.", completion: .file())
    var output: String = "-"

    @Option(help: ArgumentHelp("The input format: \(ValueNames.inputFormats) (default: from the extension, else from the content).", valueName: "format"), completion: ValueNames.completion(ValueNames.inputFormats))
    var from: String?

    @Option(help: ArgumentHelp("The input's text encoding, as for convert.", valueName: "name"))
    var encoding: String?

    @Option(name: [.customLong("format"), .customLong("to")], help: "txt, md, html, podcast-json (default: from the output's extension, else txt).")
    var format: TranscriptFormat?

    @Option(help: ArgumentHelp("For --format html: the episode's audio or video, linked (not embedded) as given, relative to the page; the page plays it and follows along.", valueName: "file"), completion: .file())
    var media: String?

    @Option(help: ArgumentHelp("Audio descriptions (WebVTT, SRT, TTML…) to merge in as marked passages of what is seen.", valueName: "file"), completion: .file())
    var descriptions: String?

    @Option(help: ArgumentHelp("A silence this long starts a new paragraph, such as 2s.", valueName: "duration"))
    var pause: String = "2s"

    @Flag(help: "Drop sound tags: every [bracketed] text, and parentheses that describe a sound, (LAUGHS) or (door slams); other parenthesised speech stays.")
    var dropSoundTags = false

    @Flag(help: "Treat warnings in reading the captions as errors: write nothing.")
    var strict = false

    @Flag(help: "No timestamps.")
    var noTimestamps = false

    @Option(help: "The title (default: the input's file name).")
    var title: String?

    @Option(help: ArgumentHelp("Rename speakers with a JSON map such as {\"SPEAKER_1\": \"Ann\"}.", valueName: "map.json"), completion: .file())
    var speakers: String?

    @Option(help: ArgumentHelp("Podcasting 2.0 chapters: a heading at each (entries with \"toc\": false are skipped).", valueName: "chapters.json"), completion: .file())
    var chapters: String?

    private struct ChapterFile: Decodable {
        struct Entry: Decodable {
            var startTime: Double
            var title: String?
            var toc: Bool?
        }
        var chapters: [Entry]
    }

    @OptionGroup var verbosity: Verbosity

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    static let inputKind = BatchInputKind.captions
    static let reportsToStandardOutput = false

    /// The files named by options that are read.
    public var filesRead: [String] { [media, descriptions, speakers, chapters].compactMap { $0 } }

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`, on one file or many.
    public func execute(io: CommandIO) throws {
        try executeOneOrMany(io: verbosity.filtered(io, keepingWarnings: strict))
    }

    /// The extension of each transcript in the output folder.
    func outputExtension() throws -> String {
        let chosen = format ?? .txt
        return chosen == .podcastJSON ? "json" : chosen.rawValue
    }

    /// The format an output file's name asks for: text when it has no extension (or is standard
    /// output); an extension that is no transcript format (`.vtt`, `.docx`) is refused
    /// (``OutputName/refuseUnknownExtension(_:command:extensions:takes:)``) rather than filled
    /// with plain text.
    static func format(ofOutput output: String) throws -> TranscriptFormat {
        try OutputName.refuseUnknownExtension(output, command: "transcript", extensions: ["txt", "md", "html", "json"]) {
            TranscriptFormat(fileExtensionOf: "transcript." + $0) != nil
        }
        return TranscriptFormat(fileExtensionOf: output) ?? .txt
    }

    /// Makes the transcript of the one input.
    func executeOne(io: CommandIO) throws {
        let input = inputs.first ?? "-"
        let pauseTime = try nonNegativeDuration(pause, option: "--pause")
        var reading = [input]
        if let from { reading += ["--from", from] }
        if let encoding { reading += ["--encoding", encoding] }
        if verbosity.verbose { reading.append("--verbose") }
        var document = SpeakerPrefixParser().apply(to: try ConvertCommand.parse(reading).readDocument(io: io))
        if strict, document.diagnostics.contains(where: { $0.severity == .warning }) {
            io.writeStandardError("\(input == "-" ? "<stdin>" : input): error: warnings are errors under --strict; nothing written [input.strict]\n")
            throw ExitCode(1)
        }
        if let speakers {
            let (renamed, notes) = SpeakerRenamer(names: try JSONFiles.speakerNames(from: speakers, io: io)).apply(to: document)
            document = renamed
            DiagnosticPrinter(path: input == "-" ? "<stdin>" : input, showNotes: false).print(notes, to: io)
        }
        var options = Transcript.Options()
        options.pause = pauseTime
        options.keepSoundTags = !dropSoundTags
        let name = title ?? String(input.split(separator: "/").last ?? "Transcript")
        var headings: [Transcript.Chapter] = []
        if let chapters {
            headings = try JSONFiles.decode(ChapterFile.self, from: chapters, io: io, example: #"{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro"}]}"#).chapters.compactMap { entry in
                // A title of nothing made an empty heading.
                guard entry.toc != false, let title = entry.title, !title.allSatisfy(\.isWhitespace), entry.startTime >= 0 else { return nil }
                let start = MediaTime(decimalSeconds: Substring(NumberFormatting.shortest(entry.startTime))) ?? .zero
                return Transcript.Chapter(start: start, title: title)
            }
        }
        var seen: TimedTextDocument?
        if let descriptions { seen = try ConvertCommand.parse([descriptions]).readDocument(io: io) }
        let chosen = try format ?? Self.format(ofOutput: output)
        if media != nil, chosen != .html {
            io.writeStandardError("warning: --media is used by the HTML page only (--format html) [usage.media.ignored]\n")
        }
        if chosen == .podcastJSON {
            // Podcasting 2.0 JSON holds what is said; nothing is dropped without a word.
            if descriptions != nil {
                io.writeStandardError(
                    "warning: Podcasting 2.0 JSON has no place for descriptions of what is seen: --descriptions are written in html, md and txt only [usage.descriptions.ignored]\n")
            }
            if chapters != nil {
                io.writeStandardError(
                    "warning: Podcasting 2.0 JSON keeps chapters in a file of their own: --chapters headings are written in html, md and txt only [usage.chapters.ignored]\n")
            }
        }
        let text = chosen.render(
            document, title: name, options: options, timestamps: !noTimestamps, chapters: headings, media: media, descriptions: seen)
        io.record("cues", .int(document.cues.count))
        try FileAccess.writeText(text, to: output, io: io)
    }
}

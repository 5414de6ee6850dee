import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsQuality

/// `captions fix`: the repairs a delivery profile allows, each listed, and what is left reported.
public struct FixCommand: IOCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Repair what check finds, as far as the profile allows, and list every change.",
        discussion: """
            Repairs: empty cues removed; cues put in time order; lines re-broken evenly (never between a title and a \
            name), cues split when their text needs more lines; cue edges snapped to shot changes (--media); cues too \
            short for their text extended into free time; cues over the maximum shortened when the text still reads \
            in time; gaps under the minimum opened, small gaps closed; a cue that reads too fast merged with the next \
            when both fit. Each change is printed (fix.* codes); what cannot be repaired is then reported as check \
            reports it. Fixing a fixed file changes nothing. Exit codes: 0 fixed, 1 errors remain (the repaired file is \
            still written), 64 usage error.

            Examples:
              captions fix film.srt -o film.fixed.srt --profile netflix --language en
              captions fix film.vtt --media film.mp4 -o film.fixed.vtt
            """
    )

    @Argument(help: "The captions (any format convert reads), or '-'.", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The repaired captions, or '-' for standard output.", completion: .file())
    var output: String

    @OptionGroup var quality: QualityOptions

    @Option(help: ArgumentHelp("The input format: \(ValueNames.inputFormats) (default: from the extension, else from the content).", valueName: "format"), completion: ValueNames.completion(ValueNames.inputFormats))
    var from: String?

    @Option(help: ArgumentHelp("The input's text encoding, as for convert.", valueName: "name"))
    var encoding: String?

    @Option(name: [.customLong("to"), .customLong("format")], help: ArgumentHelp("The output format: \(CaptionFormat.writableNames) (default: from the output extension, else the input's).", valueName: "format"), completion: ValueNames.completion(CaptionFormat.writableNames))
    var to: String?

    @Flag(help: "List the changes and what is left without writing anything.")
    var dryRun = false

    @OptionGroup var verbosity: Verbosity

    /// The profile file and the video, when named.
    public var filesRead: [String] { quality.filesRead }

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`.
    public func execute(io: CommandIO) throws {
        if to == nil {
            try OutputName.refuseUnknownExtension(output, command: "fix", extensions: OutputName.captionExtensions) {
                CaptionFormat(fileExtensionOf: "captions." + $0) != nil
            }
        }
        try fix(io: verbosity.filtered(io))
    }

    /// `back`, the output as read back, with the reader's diagnostics of `written` and, cue by cue
    /// when it holds as many, its cues' places in the input (else none).
    private static func placed(_ back: TimedTextDocument, as written: TimedTextDocument) -> TimedTextDocument {
        var back = back
        back.diagnostics = written.diagnostics
        let matched = back.cues.count == written.cues.count
        for index in back.cues.indices { back.cues[index].location = matched ? written.cues[index].location : nil }
        return back
    }

    /// Whether two documents hold the same cues: times, text and placement.
    private static func sameCues(_ a: TimedTextDocument, _ b: TimedTextDocument) -> Bool {
        a.cues.count == b.cues.count
            && zip(a.cues, b.cues).allSatisfy { $0.start == $1.start && $0.end == $1.end && $0.content == $1.content && $0.settings == $1.settings }
    }

    private func fix(io: CommandIO) throws {
        try refuseToReplace([input], with: output)
        var (checker, _) = try quality.checker(io: io)
        var arguments = [input, "-o", output]
        if let from { arguments += ["--from", from] }
        if let encoding { arguments += ["--encoding", encoding] }
        let reading = try ConvertCommand.parse(arguments)
        let (document, formatRead) = try reading.readDocumentAndFormat(io: io)
        var target = to
        if target == nil, output == "-" || CaptionFormat(fileExtensionOf: output) == nil {
            // The input's format: a `--to json` dump is written back as one (its own "format" is
            // the file it was made from); otherwise the format the captions came in.
            let dump = formatRead == .json && document.sourceFormat != CaptionFormat.podcastJSON.rawValue
            target = dump ? CaptionFormat.json.rawValue : document.sourceFormat.flatMap { CaptionFormat(name: $0) }?.rawValue ?? "vtt"
        }
        var writing = arguments
        if let target { writing += ["--to", target] }
        let writer = try ConvertCommand.parse(writing)
        // The repairs are made, and checked, in the steps the output's format writes times in (a
        // gap closed to 83.4 ms is 0.08 s in ASS, two frames of SCC or iTT at 29.97): within a step is met.
        let format = (target ?? CaptionFormat(fileExtensionOf: output)?.rawValue).flatMap(CaptionFormat.init(name:))
        (checker.timeStep, checker.latestTime) = try writer.writtenTimes(of: document)
        checker.formatLineLength = format?.maximumLineLength(for: document)
        let fixer = QualityFixer(checker: checker)
        var failed = FailedRepairs()
        var fixed = fixer.fix(document, remembering: &failed)
        var changes = fixed.changes.map { Diagnostic(.note, $0.code, $0.message, at: $0.location) }
        // What the output's format moves as it writes (SCC shows a caption late when there is no
        // time to load it before; rows and frames are fitted) is fixed again as the output reads
        // back, at most four times, so that fixing the output changes nothing (so is what the
        // fixer's own passes left undone on a long file). Those cues' places in the output are not
        // yet known: their changes carry no line (what is left carries the input's, cue by cue,
        // when the output holds as many cues).
        var settled = false
        for _ in 0..<4 {
            guard var back = try writer.readBack(fixed.document) else {
                settled = true
                break
            }
            back.diagnostics = fixed.document.diagnostics
            for index in back.cues.indices { back.cues[index].location = nil }
            let again = fixer.fix(back, remembering: &failed)
            guard !again.changes.isEmpty else {
                // What is left is what the output holds, as check will find it (an SRT end
                // 1.35158 s written as 1.352 s reads in time), at the input's lines.
                fixed.remaining = checker.check(Self.placed(back, as: fixed.document))
                settled = true
                break
            }
            changes += again.changes.map { Diagnostic(.note, $0.code, "as the output reads back: " + $0.message, at: nil) }
            fixed = again
        }
        if !settled, let back = try writer.readBack(fixed.document) {
            // The format still moves what was repaired (an SCC caption at the start of the file
            // has no time to load before it, and is shown late again): what is left is what the
            // output holds; and when that is the input as it was read, no repair took: nothing
            // changed (a second fix listed the same five changes every time).
            fixed.remaining = checker.check(Self.placed(back, as: fixed.document))
            if Self.sameCues(back, document) { changes = [] }
        }
        let path = input == "-" ? "<stdin>" : input
        let printer = DiagnosticPrinter(path: path, showNotes: true)
        printer.print(changes, to: io)
        // What the reader reported was printed as it read; it is counted below, not repeated.
        let read = Set(document.diagnostics)
        printer.print(fixed.remaining.findings.filter { !read.contains($0.diagnostic) }.map { finding in
            var left = finding.diagnostic
            left.message = "left for a person: " + left.message
            return left
        }, to: io)
        let (errors, warnings) = fixed.remaining.severityCounts
        io.writeStandardError(
            "\(path): \(changes.count) change\(changes.count == 1 ? "" : "s"); left for a person: "
                + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") (\(checker.profile.name))\n")
        if !dryRun {
            var output = fixed.document
            output.diagnostics = []
            try writer.write(output, io: io)
        }
        io.discard(document)
        if errors > 0 { throw ExitCode(1) }
    }
}

import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia
import CaptionsQuality

/// `captions check`: caption quality control against a delivery profile.
public struct CheckCommand: BatchCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check captions against a delivery profile: reading speed, lines, durations, gaps, overlaps, characters, markup, shot changes.",
        discussion: """
            Findings are printed as path:line:column: severity: message [check.code], with the cue number and time; \
            --format json for scripts, html for people (or from the -o extension). \
            Exit codes: 0 clean (or warnings only, within --max-warnings), 1 errors or too many warnings, 64 usage error.

            Profiles: \(ProfileCatalog.names). Limits that depend on the language (Netflix: English 20 characters a second, \
            Japanese 4) come from --language or the file's own language tag. With --media, cue edges are checked \
            against the video's shot changes, found in one decoding pass and cached by the video's fingerprint.

            Examples:
              captions check film.srt --profile netflix --language en
              captions check film.vtt --media film.mp4 --shots
              captions check show.scc --profile cea608 --format json | jq '.findings[] | .code'
              captions check --print-profile netflix > house.json   # edit, then --profile house.json
            """
    )

    @Argument(help: "The captions (any format convert reads), or '-'; several files or folders are checked one by one.", completion: .file())
    var inputs: [String] = []

    @OptionGroup var quality: QualityOptions

    @Option(help: ArgumentHelp("The input format: \(ValueNames.inputFormats) (default: from the extension, else from the content).", valueName: "format"), completion: ValueNames.completion(ValueNames.inputFormats))
    var from: String?

    @Option(help: ArgumentHelp("The input's text encoding, as for convert.", valueName: "name"))
    var encoding: String?

    @Option(name: [.customLong("format"), .customLong("to")], help: "text, json or html (default: from the -o extension, else text).")
    var format: QualityReportFormat?

    @Option(name: .shortAndLong, help: "Where the report goes, or '-' for standard output (the default); with several inputs, the folder for the reports.", completion: .file())
    var output: String = "-"

    @Option(help: ArgumentHelp("Fail (exit 1) when there are more warnings than this.", valueName: "n"))
    var maxWarnings: Int?

    @Flag(help: "Warnings are errors: exit 1 on any (as --max-warnings 0).")
    var strict = false

    @Flag(help: "With --media: list the shot changes found (time, frame, score) before the findings.")
    var shots = false

    @Option(help: ArgumentHelp("Print a shipped profile's JSON (to copy and edit) and exit.", valueName: "name"), completion: ValueNames.completion(ProfileCatalog.names))
    var printProfile: String?

    @OptionGroup var verbosity: Verbosity

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    static let inputKind = BatchInputKind.captions
    static let reportsToStandardOutput = true

    /// The profile file and the video, when named.
    public var filesRead: [String] { quality.filesRead }

    /// Used by ArgumentParser.
    public init() {}

    /// Checks the arguments.
    public func validate() throws {
        if inputs.isEmpty, batch.manifest == nil, printProfile == nil { throw ValidationError("give the captions to check (or --print-profile NAME)") }
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must be 0 or more") }
        if shots, quality.media == nil { throw ValidationError("--shots lists the shot changes of the --media video; give --media") }
    }

    /// Runs against `io`, on one file or many.
    public func execute(io: CommandIO) throws {
        let io = verbosity.filtered(io, keepingWarnings: strict)
        if let printProfile {
            guard let text = ProfileCatalog.text(named: printProfile) else {
                throw ValidationError("no profile named '\(printProfile)'; the profiles are \(ProfileCatalog.names)")
            }
            try FileAccess.writeText(text, to: output, io: io)
            return
        }
        if format == nil, !batch.isBatch(inputs) {
            try OutputName.refuseUnknownExtension(output, command: "check", extensions: QualityReportFormat.allCases.map(Self.fileExtension)) {
                QualityReportFormat(extension: $0) != nil
            }
        }
        try executeOneOrMany(io: io)
    }

    /// The extension of each report in the output folder.
    func outputExtension() throws -> String {
        Self.fileExtension(of: format ?? .text)
    }

    /// The usual extension of a report in `format`.
    static func fileExtension(of format: QualityReportFormat) -> String {
        switch format {
        case .text: "txt"
        case .json: "json"
        case .html: "html"
        }
    }

    /// Checks the one input.
    func executeOne(io: CommandIO) throws {
        let input = inputs.first ?? "-"
        var (checker, found) = try quality.checker(io: io, progress: batch.progress)
        var arguments = [input]
        if let from { arguments += ["--from", from] }
        if let encoding { arguments += ["--encoding", encoding] }
        let document = try ConvertCommand.parse(arguments).readDocument(io: io, printing: false)
        checker.timeStep = QualityOptions.timeStep(of: document)
        let report = checker.check(document)
        let path = input == "-" ? "<stdin>" : input
        let chosen = format ?? (output == "-" ? nil : QualityReportFormat(extension: String(output.split(separator: ".").last ?? ""))) ?? .text
        let shotList = shots && chosen == .text ? found.map { Self.shotList($0, rate: report.frameRate) } : nil
        try FileAccess.writeText(to: output, io: io) { emit in
            if let shotList { emit(shotList) }
            chosen.write(report, path: path, to: emit)
        }
        io.record("cues", .int(document.cues.count))
        let (errors, warnings) = report.severityCounts
        io.record("findingErrors", .int(errors))
        io.record("findingWarnings", .int(warnings))
        io.discard(document)
        io.discard(report)
        let tooManyWarnings = (strict ? 0 : maxWarnings).map { warnings > $0 } ?? false
        if errors > 0 || tooManyWarnings { throw ExitCode(1) }
    }

    /// `shot change 00:01:02.125 (frame 1491, score 34.5)` lines.
    static func shotList(_ shots: ShotChanges, rate: FrameRate) -> String {
        shots.cuts.map { cut in
            let frame = (cut.time.scaled(by: rate.numerator, rate.denominator) ?? .zero).rounded(toTimescale: 1)
            return "shot change \(ClockTime(roundingToMilliseconds: cut.time).formatted(fractionSeparator: ".")) (frame \(frame), score \(NumberFormatting.shortest(cut.score)))\n"
        }.joined()
    }
}

import ArgumentParser
import CaptionsCore
import CaptionsFlash
import CaptionsMedia

#if canImport(Glibc)
import Glibc
#endif

extension FlashCriteria.Standard: ExpressibleByArgument {}
extension FlashCriteria.RedRule: ExpressibleByArgument {}
extension FlashReportFormat: ExpressibleByArgument {
    /// The format `--to` and `--report` name, in any case, with the names its files take (`txt`,
    /// `webvtt`, `htm`), as every command's `--to` reads them.
    public init?(argument: String) { self.init(fileExtension: "." + argument) }
}

/// `captions flashes`: scans a video for flashing hazards.
public struct FlashesCommand: BatchCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "flashes",
        abstract: "Scan a video for general and red flashes (WCAG 2.3.1, ITU-R BT.1702).",
        discussion: """
            Prints a verdict and the time ranges that flash too much. -o with .json, .csv, .vtt or .html (or --format) \
            writes a machine report, a per-frame CSV, a WebVTT metadata track for players (Dim Flashing Lights) or a \
            self-contained HTML page with a chart; --report FORMAT:FILE, repeated, writes several from one scan.
            Several videos, a folder or --manifest are scanned --jobs at a time (reports into the -o folder).

            HDR video (PQ, HLG) is measured in cd/m² with the BT.1702 rule; SDR in relative luminance. \
            Interlaced video is analysed field by field. Times count from the first frame shown.

            Exit codes: 0 pass, 2 fail (a hazard was found), 1 the video could not be read \
            (or only part of it, and what was read passed: status partial in --results, with "partial": true and the \
            time not scanned; or nothing could be decoded: verdict unknown), \
            64 usage error. With several videos: 1 when any could not be read, even if another failed; \
            else 2 when any failed.
            """
    )

    @Argument(help: "The video file (any container FFmpeg reads); several files or folders are scanned one by one.", completion: .file())
    var inputs: [String] = []

    private var video: String { inputs.first ?? "-" }

    @Option(name: .shortAndLong, help: "Write the report here instead of standard output (its format from the extension); with several inputs, the folder for the reports.", completion: .file())
    var output: String = "-"

    @Option(name: [.customLong("format"), .customLong("to")], help: "Report format (default: from the -o extension, else text).")
    var format: FlashReportFormat?

    @Option(help: ArgumentHelp("Also write a report: FORMAT:FILE (such as json:a.json), or with several inputs FORMAT alone (into the -o folder); repeat for more, all from one scan.", valueName: "format[:file]"), completion: .file())
    var report: [String] = []

    @Option(help: "wcag (2.3.1, default), wcag-aaa (2.3.2: any area), itu (BT.1702: 25 % of the screen).")
    var standard: FlashCriteria.Standard = .wcag

    @Option(help: "Red flashes: wcag22 (R/(R+G+B) ≥ 0.8 and Δu′v′ > 0.2, default) or harding ((R−G−B)×320 > 20).")
    var redRule: FlashCriteria.RedRule = .wcag22

    @Flag(help: "Also warn about sustained flashing at 2–3 flashes a second (broadcast practice).")
    var sustained = false

    @Option(help: ArgumentHelp("The peak luminance in cd/m² of the display HLG video is shown on (BT.2100 reference: 1000).", valueName: "nits"))
    var hdrPeak: Double = 1000

    @OptionGroup(title: "Dim Flashing Lights")
    var displayOptions: DisplayOptions

    @Flag(help: "Skip H.264/HEVC deblocking on every picture: faster, but pictures drift from the true ones until the next keyframe (measured: 5 % of mean luminance on an x264 file), which can move a verdict near a limit.")
    var fast = false

    @Flag(help: "Run H.264/HEVC deblocking on every picture. By default it is skipped only on pictures no other picture is predicted from, so no difference carries over (on Apple's test clip the picture level moves by 1e-5).")
    var exact = false

    /// Skips Apple's model, so that `Scripts/bench.sh` can measure what it adds to a scan.
    @Flag(name: .customLong("bench-without-dfl"), help: .hidden)
    var benchWithoutDFL = false

    @Option(help: .hidden)
    var decoderThreads: Int?

    @OptionGroup var verbosity: Verbosity

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    static let inputKind = BatchInputKind.video
    static let reportsToStandardOutput = true

    /// Used by ArgumentParser.
    public init() {}

    /// Refuses options that contradict each other.
    public func validate() throws {
        if fast, exact { throw ValidationError("--fast skips deblocking and --exact runs it on every picture: give one of them") }
    }

    /// Runs against `io` on one video or many; throws `ExitCode` 2 for a failing video and 1 for an unreadable one.
    public func execute(io: CommandIO) throws {
        if batch.isBatch(inputs), inputs.count > 1 || batch.manifest != nil || inputs.contains(where: FileAccess.isDirectory),
            let named = report.first(where: { $0.contains(":") })
        {
            throw ValidationError("--report '\(named)': with several videos, give the format alone (--report html), and each report goes into the -o folder")
        }
        if format == nil, !batch.isBatch(inputs) {
            try OutputName.refuseUnknownExtension(output, command: "flashes", extensions: FlashReportFormat.allCases.map(\.fileExtension)) {
                FlashReportFormat(fileExtension: "report." + $0) != nil
            }
        }
        try executeOneOrMany(io: verbosity.filtered(io))
    }

    /// The extension of each report in the output folder.
    func outputExtension() throws -> String {
        (format ?? .text).fileExtension
    }

    /// Each of `jobs` scans decodes on its share of the cores.
    func sharing(cores: Int) -> Self {
        var copy = self
        copy.decoderThreads = copy.decoderThreads ?? cores
        return copy
    }

    /// The main report and each `--report` one.
    func outputsWritten() -> [String] {
        (try? reports().map(\.1)) ?? [output]
    }

    /// The reports to write: the main one, then `--report` ones, each (format, path).
    private func reports() throws -> [(FlashReportFormat, String)] {
        let main = format ?? (output == "-" ? nil : FlashReportFormat(fileExtension: output)) ?? .text
        var reports = [(main, output)]
        for request in report {
            let parts = request.split(separator: ":", maxSplits: 1).map(String.init)
            guard let chosen = parts.first.flatMap(FlashReportFormat.init(argument:)) else {
                throw ValidationError("--report '\(request)': the format is one of \(FlashReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), as in json:report.json")
            }
            if parts.count == 2 {
                reports.append((chosen, parts[1]))
            } else if output != "-" {
                // Beside the main report (in a batch, in the folder), with the format's extension.
                reports.append((chosen, BatchRunner.replacingExtension(of: output, with: chosen.fileExtension)))
            } else {
                throw ValidationError("--report '\(request)': give the file too, as in \(chosen.rawValue):report.\(chosen.fileExtension)")
            }
        }
        // Two reports into one file: the second would replace the first without a word.
        for (index, (_, path)) in reports.enumerated()
        where reports[..<index].contains(where: { $0.1 == path || FileAccess.isSameFile($0.1, path) }) {
            throw ValidationError("two reports would be written to \(path == "-" ? "standard output" : path); give each its own file")
        }
        return reports
    }

    /// Scans the one video.
    func executeOne(io: CommandIO) throws {
        guard hdrPeak.isFinite, hdrPeak >= 100, hdrPeak <= 10_000 else {
            io.writeStandardError("error: --hdr-peak must be between 100 and 10000 cd/m² [usage.hdrPeak]\n")
            throw ExitCode(64)
        }
        let display = try displayOptions.resolved(io: io)
        let reports = try reports()
        for (_, path) in reports {
            try refuseToReplace([video], with: path)
            do {
                try FileAccess.checkWritable(path)
            } catch {
                io.writeStandardError("\(path): error: \(error.message) [\(error.code)]\n")
                throw ExitCode(1)
            }
        }
        let decoder: VideoDecoder
        do {
            decoder = try VideoDecoder(
                path: video, deblocking: exact ? .all : fast ? .none : .referencePictures,
                callerWorksBeside: true, threads: decoderThreads)
        } catch {
            io.writeStandardError("\(video): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        let criteria = FlashCriteria(standard: standard, redRule: redRule, warnSustained: sustained)
        var analyzer = FlashAnalyzer(
            width: decoder.info.width, height: decoder.info.height, criteria: criteria, hdrPeak: hdrPeak, display: display,
            frameRate: decoder.info.framesPerSecond)
        analyzer.runsDimFlashingLights = !benchWithoutDFL
        var progress = ProgressBar(io: io, style: batch.progress, duration: decoder.info.duration, file: video)
        let info = decoder.info
        let outcome = decoder.decode { frame in
            analyzer.analyze(frame, sampleAspect: info.sampleAspect)
            progress.update(time: frame.time.seconds)
            return true
        }
        progress.finish()
        let report = Self.complete(analyzer.finish(partialReason: outcome.partialReason), outcome: outcome, info: info)
        if let reason = outcome.partialReason {
            io.writeStandardError("\(video): warning: partial scan: \(reason) [media.partial]\n")
        }
        for gap in report.missing {
            io.writeStandardError("\(video): warning: \(FlashReport.clockText(gap.start))–\(FlashReport.clockText(gap.end)): \(gap.message) [\(gap.code)]\n")
        }
        for (chosen, path) in reports {
            try FileAccess.writeText(chosen.render(report, source: video, verbose: verbosity.verbose), to: path, io: io)
        }
        io.record("verdict", .string(report.verdict.rawValue))
        io.record("hazards", .int(report.hazards.count))
        io.record("partial", .bool(report.partial))
        if report.partial { io.record("missing", .ranges(Self.missingTime(of: report, info: info))) }
        switch report.verdict {
        case .fail: throw ExitCode(2)
        case .unknown: throw ExitCode(1)
        case .pass: if report.partial { throw ExitCode(1) }
        }
    }

    /// The stretches of a partial scan's video that were not scanned, in the report's times:
    /// those with no picture or damaged pictures, and the end a truncated file lacks (from the
    /// last frame scanned to the duration the stream announces).
    static func missingTime(of report: FlashReport, info: VideoStreamInfo) -> [ClosedRange<Double>] {
        var ranges = report.missing.map { $0.start...max($0.start, $0.end) }
        let scanned = report.duration + 1 / (info.framesPerSecond ?? 25)
        if let announced = info.duration, announced > scanned + 0.5 / (info.framesPerSecond ?? 25) {
            ranges.append(scanned...announced)
        }
        return ranges
    }

    /// The analyzer's report with what decoding found: missing time, mended timestamps, guesses.
    static func complete(_ analysed: FlashReport, outcome: DecodeOutcome, info: VideoStreamInfo) -> FlashReport {
        var report = analysed
        report.streamStart = outcome.streamStart
        report.missing = outcome.gaps.map {
            FlashReport.Warning(
                code: "media.frames.missing", message: "no picture could be decoded here (damaged or lost frames): not scanned",
                start: $0.start, end: $0.end)
        } + outcome.damaged.map {
            FlashReport.Warning(
                code: "media.frames.damaged",
                message: "pictures decoded with errors (damaged data, concealed by the decoder): flashes here may be missed or invented",
                start: $0.start, end: $0.end)
        }
        report.missing.sort { $0.start < $1.start }
        let (repeats, jumps) = (outcome.discontinuities.filter { $0.jump == 0 }, outcome.discontinuities.filter { $0.jump != 0 })
        for jump in jumps {
            report.warnings.append(FlashReport.Warning(
                code: "media.timestamps.discontinuity",
                message: "the stream's timestamps jump by \(NumberFormatting.shortest((jump.jump * 1000).rounded() / 1000)) s here (a restart or a join); the frames are kept on one timeline",
                start: jump.at, end: jump.at))
        }
        if let first = repeats.first, let last = repeats.last {
            // A muxer that repeats timestamps repeats them all along: one warning for the span.
            report.warnings.append(FlashReport.Warning(
                code: "media.timestamps.repeated",
                message: "\(repeats.count) picture\(repeats.count == 1 ? "" : "s") carry the timestamp of the picture before; each is placed one frame later",
                start: first.at, end: last.at))
        }
        if !info.otherVideoStreams.isEmpty {
            // FFmpeg's choice (the default stream, else the largest); the others are not scanned.
            report.warnings.append(FlashReport.Warning(
                code: "media.video.others",
                message: StreamChoice.othersMessage(kind: "video", chosen: info.streamIndex, others: info.otherVideoStreams, used: "scanned"),
                start: 0, end: 0))
        }
        report.warnings.sort { $0.start < $1.start }
        report.notes = outcome.colourGuesses
        report.colourGuessed = !outcome.colourGuesses.isEmpty
        if !outcome.pixelFormats.isEmpty { report.notes.append("pixel format: " + outcome.pixelFormats.joined(separator: ", then ")) }
        if let longest = outcome.heldPictures.map({ $0.end - $0.start }).max() {
            report.notes.append(
                "variable frame rate: \(outcome.heldPictures.count) picture(s) stay on screen longer than two frame times "
                    + "(the longest \(NumberFormatting.shortest((longest * 1000).rounded() / 1000)) s more), analysed as shown")
        }
        if outcome.quarterTurns != 0 {
            let source = outcome.quarterTurns == info.quarterTurns ? "" : " (the pictures' own display orientation)"
            report.notes.append("shown turned by \(outcome.quarterTurns * 90)°\(source)")
        }
        if abs(info.sampleAspect - 1) > 0.001 { report.notes.append("pixel aspect ratio \(NumberFormatting.shortest((info.sampleAspect * 1000).rounded() / 1000))") }
        return report
    }
}

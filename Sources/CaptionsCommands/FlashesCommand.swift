import ArgumentParser
import CaptionsCore
import CaptionsFlash
import CaptionsMedia

#if canImport(Glibc)
import Glibc
#endif

extension FlashCriteria.Standard: ExpressibleByArgument {}
extension FlashCriteria.RedRule: ExpressibleByArgument {}
extension FlashReportFormat: ExpressibleByArgument {}

/// `captions flashes`: scans a video for flashing hazards.
public struct FlashesCommand: IOCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "flashes",
        abstract: "Scan a video for general and red flashes (WCAG 2.3.1, ITU-R BT.1702).",
        discussion: """
            Prints a verdict and the time ranges that flash too much. --format json|csv|vtt|html with -o writes \
            a machine report, a per-frame CSV, a WebVTT metadata track for players (Dim Flashing Lights) or a \
            self-contained HTML page with a chart.

            HDR video (PQ, HLG) is measured in cd/m² with the BT.1702 rule; SDR in relative luminance. \
            Interlaced video is analysed field by field. Times count from the first frame shown.

            Exit codes: 0 pass, 2 fail (a hazard was found), 1 the video could not be read \
            (or only part of it, and what was read passed; or nothing could be decoded: verdict unknown), \
            64 usage error.
            """
    )

    @Argument(help: "The video file (any container FFmpeg reads).")
    var video: String

    @Option(name: .shortAndLong, help: "Write the report here instead of standard output.")
    var output: String = "-"

    @Option(help: "Report format: text, json, csv, vtt, html.")
    var format: FlashReportFormat = .text

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

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against the real standard streams.
    public func run() throws {
        try execute(io: ProcessIO())
    }

    /// Runs against `io`; throws `ExitCode` 2 for a failing video and 1 for an unreadable one.
    public func execute(io: CommandIO) throws {
        guard hdrPeak.isFinite, hdrPeak >= 100, hdrPeak <= 10_000 else {
            io.writeStandardError("error: --hdr-peak must be between 100 and 10000 cd/m² [usage.hdrPeak]\n")
            throw ExitCode(64)
        }
        let display = try displayOptions.resolved(io: io)
        do {
            try FileAccess.checkWritable(output, input: video)
        } catch {
            io.writeStandardError("\(output): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        let decoder: VideoDecoder
        do {
            decoder = try VideoDecoder(
                path: video, deblocking: exact ? .all : fast ? .none : .referencePictures,
                callerWorksBeside: true)
        } catch {
            io.writeStandardError("\(video): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        let criteria = FlashCriteria(standard: standard, redRule: redRule, warnSustained: sustained)
        var analyzer = FlashAnalyzer(
            width: decoder.info.width, height: decoder.info.height, criteria: criteria, hdrPeak: hdrPeak, display: display,
            frameRate: decoder.info.framesPerSecond)
        analyzer.runsDimFlashingLights = !benchWithoutDFL
        var progress = ProgressBar(io: io, enabled: !quiet && io.standardErrorIsTerminal, duration: decoder.info.duration)
        let info = decoder.info
        let outcome = decoder.decode { frame in
            analyzer.analyze(frame, sampleAspect: info.sampleAspect, quarterTurns: info.quarterTurns)
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
        let text = format.render(report, source: video)
        try FileAccess.writeText(text, to: output, io: io)
        switch report.verdict {
        case .fail: throw ExitCode(2)
        case .unknown: throw ExitCode(1)
        case .pass: if report.partial { throw ExitCode(1) }
        }
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
        for jump in outcome.discontinuities {
            report.warnings.append(FlashReport.Warning(
                code: "media.timestamps.discontinuity",
                message: "the stream's timestamps jump by \(NumberFormatting.shortest((jump.jump * 1000).rounded() / 1000)) s here (a restart or a join); the frames are kept on one timeline",
                start: jump.at, end: jump.at))
        }
        report.warnings.sort { $0.start < $1.start }
        report.notes = outcome.colourGuesses
        if !outcome.pixelFormats.isEmpty { report.notes.append("pixel format: " + outcome.pixelFormats.joined(separator: ", then ")) }
        if info.quarterTurns != 0 { report.notes.append("shown turned by \(info.quarterTurns * 90)°") }
        if abs(info.sampleAspect - 1) > 0.001 { report.notes.append("pixel aspect ratio \(NumberFormatting.shortest((info.sampleAspect * 1000).rounded() / 1000))") }
        return report
    }
}

/// A one-line progress bar on standard error: percentage, frames per second and time left.
struct ProgressBar {
    let io: CommandIO
    let enabled: Bool
    let duration: Double?
    private var frames = 0
    private var started = ProgressBar.now()
    private var lastDrawn = 0.0

    init(io: CommandIO, enabled: Bool, duration: Double?) {
        self.io = io
        self.enabled = enabled
        self.duration = duration
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    mutating func update(time: Double) {
        frames += 1
        guard enabled else { return }
        let now = Self.now()
        guard now - lastDrawn >= 0.2 else { return }
        lastDrawn = now
        let elapsed = now - started
        let fps = Double(frames) / max(elapsed, 0.001)
        var line = "\rscanning: \(frames) frames, \(Int(fps)) fps"
        if let duration, duration > 0 {
            let fraction = min(1, max(0, time / duration))
            let filled = Int(fraction * 30)
            let remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            line = "\r[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 30 - filled))] "
                + "\(Int(fraction * 100))% \(Int(fps)) fps, ETA \(Int(remaining) / 60):\(String(format2: Int(remaining) % 60))"
        }
        io.writeStandardError(line + "  ")
    }

    func finish() {
        guard enabled, lastDrawn > 0 else { return }
        io.writeStandardError("\r" + String(repeating: " ", count: 72) + "\r")
    }
}

extension String {
    /// Two digits, zero-padded.
    fileprivate init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}

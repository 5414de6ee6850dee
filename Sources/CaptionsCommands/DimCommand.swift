import ArgumentParser
import CaptionsCore
import CaptionsFlash
import CaptionsMedia

/// `captions dim`: writes a video with its flashing reduced.
public struct DimCommand: IOCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "dim",
        abstract: "Write a copy of a video with its flashing dimmed (Apple's Dim Flashing Lights).",
        discussion: """
            --method dfl (the default) dims each frame as Apple's Dim Flashing Lights does for the chosen \
            display (--display, --display-peak, --display-area): when the model's risk rises, contrast and \
            brightness are reduced around the viewer's adaptation level, and released over two seconds. \
            --local dims by the largest risk of any 10° field, so that a flash in a corner counts.

            --method wcag makes the least change that passes WCAG 2.3.1 (or --standard): each failing \
            stretch is dimmed around the viewer's adaptation level (red flashing also desaturated) by the \
            smallest strength that passes, found by scanning the dimmed picture in six rounds, ramped in \
            and out over 0.5 s. The written video is scanned again and both verdicts printed; exit 2 if it \
            still fails.

            Frames that need no dimming are only re-encoded. The video is encoded again with libavcodec \
            (the input's codec family: libx264 for H.264, libx265 for HEVC; --codec, --crf, --preset to \
            choose), keeping its pixel format, colour tags and HDR metadata; audio, subtitle and data \
            streams are copied. The container follows the output's extension. The file is written to a \
            temporary file and renamed.

            Exit codes: 0 written, 1 the video could not be read or written, 2 (--method wcag) the \
            written video still fails, 64 usage error.
            """
    )

    /// How the flashing is reduced.
    enum Method: String, ExpressibleByArgument, CaseIterable {
        /// Apple's Dim Flashing Lights, frame by frame.
        case dfl
        /// The least change that passes WCAG 2.3.1 (or the chosen standard).
        case wcag
    }

    @Argument(help: "The video file (any container FFmpeg reads).")
    var video: String

    @Option(name: .shortAndLong, help: "The video to write (its extension names the container: .mp4, .mkv, .mov, .ts…).", completion: .file())
    var output: String

    @Option(help: "How to dim: dfl (Apple's Dim Flashing Lights, frame by frame) or wcag (the least change that passes).")
    var method: Method = .dfl

    @Option(help: "With --method wcag: the standard to pass: wcag (2.3.1, default), wcag-aaa, itu.")
    var standard: FlashCriteria.Standard = .wcag

    @Flag(help: "Dim by the largest local risk (Apple's model on each 10° field) instead of the whole frame's.")
    var local = false

    @OptionGroup(title: "Dim Flashing Lights")
    var displayOptions: DisplayOptions

    @Option(help: ArgumentHelp("The FFmpeg encoder (default: the input's family, libx264 for H.264, libx265 for HEVC).", valueName: "name"))
    var codec: String?

    @Option(help: "Constant rate factor for libx264/libx265 (default 18: visually lossless).")
    var crf: Int?

    @Option(help: "libx264/libx265 preset (default medium).")
    var preset: String?

    @OptionGroup var verbosity: Verbosity

    @Option(help: ArgumentHelp("bar (on a terminal, the default), json (one line a second on standard error) or none.", valueName: "style"))
    var progress: ProgressStyle?

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`; throws `ExitCode` 1 when the video cannot be read or written.
    public func execute(io: CommandIO) throws {
        try dimVideo(io: verbosity.filtered(io))
    }

    private func dimVideo(io: CommandIO) throws {
        let display = try displayOptions.resolved(io: io)
        if let crf, !(0...51).contains(crf) {
            io.writeStandardError("error: --crf must be between 0 and 51 [usage.crf]\n")
            throw ExitCode(64)
        }
        guard output != "-" else {
            io.writeStandardError("error: a video cannot be written to standard output; name a file with -o [usage.output]\n")
            throw ExitCode(64)
        }
        try refuseToReplace([video], with: output)
        do {
            try FileAccess.checkWritable(output)
        } catch {
            io.writeStandardError("\(output): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        var summary = DimSummary()
        var written: FlashReport?
        do {
            try FileAccess.writeFile(to: output) { temporary in
                let open = {
                    try VideoRewriter.open(
                        input: video, temporary: temporary, finalPath: output,
                        settings: VideoRewriter.Settings(codec: codec, crf: crf, preset: preset))
                }
                if method == .dfl {
                    let rewriter = try open()
                    summary = try dim(with: rewriter, display: display, io: io)
                    try Self.readBack(rewriter)
                    return
                }
                // The least dimming, measured on the decoded pictures; the encoder's rounding can
                // leave a stretch just over the limit, so the written file is scanned, and a
                // stretch that still fails is dimmed a little more and the file written again.
                var (plan, adaptation, input) = try planLeastDimming(display: display, io: io)
                for attempt in 1...LeastDimming.attempts {
                    let rewriter = try open()
                    summary = try dimToPass(with: rewriter, plan: plan, adaptation: adaptation, input: input, io: io)
                    try Self.readBack(rewriter)
                    summary.attempts = attempt
                    let check: FlashReport
                    do {
                        check = try scan(temporary, criteria: FlashCriteria(standard: standard), display: display)
                    } catch let error as MediaError {
                        throw Self.unreadable(error)
                    }
                    written = check
                    guard check.verdict != .pass, attempt < LeastDimming.attempts, plan.strengthen(failing: check.hazards) else { break }
                }
            }
        } catch let error as MediaError {
            io.writeStandardError("\(video): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        } catch let error as CaptionsError {
            io.writeStandardError("\(output): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        if method == .wcag, let after = written {
            try FileAccess.writeText(summary.text(output: output, display: display, method: method, local: local), to: "-", io: io)
            try FileAccess.writeText("  output: \(Self.verdictLine(after))\n", to: "-", io: io)
            if after.verdict != .pass { throw ExitCode(2) }
        } else {
            try FileAccess.writeText(summary.text(output: output, display: display, method: method, local: local), to: "-", io: io)
        }
        if summary.partialReason != nil { throw ExitCode(1) }
    }

    /// What the run did.
    struct DimSummary {
        var frames = 0
        var dimmed = 0
        var deepest = 0.0
        var encoder = ""
        /// Why the input's codec was not used (``VideoRewriter/codecFallback``).
        var codecFallback: String?
        var dropped: [String] = []
        var partialReason: String?
        var verdict = ""
        /// Counts a frame and the change made to it.
        mutating func count(_ change: LightChange?) {
            frames += 1
            guard let change else { return }
            dimmed += 1
            deepest = max(deepest, 1 - change.brightness)
        }

        /// With --method wcag: each stretch and its strength.
        var stretches: [LeastDimming.Stretch] = []
        /// With --method wcag: how many times the file was written.
        var attempts = 1
        /// Whether the input fails WCAG 2.3.1 (with Apple's model, which does not aim at a pass).
        var inputFails = false

        func text(output: String, display: DimFlashingLights.Display, method: Method, local: Bool) -> String {
            let how = method == .dfl
                ? "Apple's Dim Flashing Lights\(local ? " (local risk)" : "") for \(NumberFormatting.shortest(display.peak)) cd/m², "
                    + "\(NumberFormatting.shortest(display.area)) deg²"
                : "the least dimming that passes, \(stretches.count) stretch\(stretches.count == 1 ? "" : "es")"
            var lines = ["\(output): \(dimmed) of \(frames) frames dimmed (by up to \(Int((deepest * 100).rounded()))%), "
                + "\(how); encoded with \(encoder)"]
            lines.append("  input: \(verdict)")
            if method == .dfl, inputFails {
                // Apple's model dims the whole picture as a viewer of this display would need; a
                // local or red flash, or HDR light clipped at the display's peak, can be left as it was.
                lines.append(
                    "  note: Apple's model dims what it finds risky on a \(NumberFormatting.shortest(display.peak)) cd/m² display, "
                        + "not what fails WCAG 2.3.1 (a small or red flash, or HDR light above the display's peak, can stay): "
                        + "--method wcag writes the least dimming that passes [dim.dfl.notWCAG]")
            }
            if attempts > 1 {
                lines.append("  note: written \(attempts) times: the encoded pictures still flashed, so the failing stretches were dimmed more [dim.wcag.rewritten]")
            }
            for stretch in stretches {
                lines.append(
                    "  dimmed \(FlashReport.clockText(stretch.start))–\(FlashReport.clockText(stretch.end)) by "
                        + "\(Int((stretch.strength * 100).rounded()))%\(stretch.red ? ", desaturated as much" : "") "
                        + "(ramped over 0.5 s each side)")
            }
            if encoder == "gif" {
                // 256 colours a picture: each gets its own palette (libavfilter), with ordered dithering.
                lines.append(
                    "  note: GIF holds 256 colours a picture: each picture has its own palette, ordered-dithered; "
                        + "write .mp4, .webm or .apng for exact colours [dim.gif.palette]")
            }
            if let codecFallback {
                lines.append("  note: written with \(encoder), the container's own codec: the input's failed (\(codecFallback)) [dim.codec.container]")
            }
            for stream in dropped { lines.append("  note: \(stream) not copied: the container cannot hold it") }
            if let partialReason { lines.append("  partial: \(partialReason)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// Reads back the file just written (``VideoRewriter/verifyWritten()``): a file that does not
    /// read back as written is an error (`dim.output.unreadable`), never a result with exit 0.
    private static func readBack(_ rewriter: VideoRewriter) throws {
        do {
            try rewriter.verifyWritten()
        } catch {
            throw unreadable(error)
        }
    }

    /// A failure to read the written file, said of the output (not of the input).
    private static func unreadable(_ error: MediaError) -> CaptionsError {
        CaptionsError(
            "dim.output.unreadable",
            "the video written cannot be read back (\(error.message)); nothing was written. Try another container or --codec")
    }

    /// Runs the analysis and Apple's model frame by frame and dims as the model says.
    private func dim(with rewriter: VideoRewriter, display: DimFlashingLights.Display, io: CommandIO) throws -> DimSummary {
        let info = rewriter.info
        var analyzer = FlashAnalyzer(
            width: info.width, height: info.height, criteria: FlashCriteria(), display: display, frameRate: info.framesPerSecond)
        var previous: (mitigation: Double, adaptation: Double)?
        var summary = DimSummary(encoder: rewriter.encoderName, codecFallback: rewriter.codecFallback)
        var progress = ProgressBar(io: io, style: self.progress, duration: info.duration, file: video)
        let outcome = try rewriter.run { frame in
            // Frame n is drawn with frame n − 1's mitigation and adaptation (Apple's model).
            let change = previous.flatMap { state in
                state.mitigation > 0
                    ? LightChange.dimFlashingLights(
                        mitigation: state.mitigation, adaptation: state.adaptation / display.peak, displayPeak: display.peak) : nil
            }
            analyzer.analyze(frame, sampleAspect: info.sampleAspect)
            previous = analyzer.lastDimFlashingLights.map { ($0.mitigation, $0.adaptation) }
            if local, let figures = analyzer.lastDimFlashingLights {
                previous?.mitigation = max(figures.mitigation, figures.localMitigation)
            }
            summary.count(change)
            progress.update(time: frame.time.seconds)
            return change
        }
        progress.finish()
        let report = analyzer.finish(partialReason: outcome.partialReason)
        summary.verdict = Self.verdictLine(report)
        summary.inputFails = report.verdict == .fail
        summary.dropped = rewriter.droppedStreams
        summary.partialReason = outcome.partialReason
        return summary
    }

    /// "FAIL — WCAG 2.3.1 …; 2 hazard(s)".
    static func verdictLine(_ report: FlashReport) -> String {
        "\(report.verdict.rawValue.uppercased()) — \(report.criteriaName); \(report.hazards.count) hazard(s)"
    }

    /// Scans `path` (exact decoding) and returns its report.
    private func scan(
        _ path: String, criteria: FlashCriteria, display: DimFlashingLights.Display,
        changing change: ((VideoFrame, Int) -> LightChange?)? = nil, eachFrame: ((FlashAnalyzer) -> Void)? = nil
    ) throws -> FlashReport {
        let decoder = try VideoDecoder(path: path)
        let info = decoder.info
        var analyzer = FlashAnalyzer(
            width: info.width, height: info.height, criteria: criteria, display: display, frameRate: info.framesPerSecond)
        var index = 0
        let outcome = try decoder.decode(changing: { frame in change?(frame, index) }) { frame in
            analyzer.analyze(frame, sampleAspect: info.sampleAspect)
            eachFrame?(analyzer)
            index += 1
            return true
        }
        return analyzer.finish(partialReason: outcome.partialReason)
    }

    /// `--method wcag`: scans the input, then finds each failing stretch's least strength in
    /// rounds of dimmed scans. Returns the plan, the viewer's adaptation before each frame and the
    /// input's report.
    private func planLeastDimming(
        display: DimFlashingLights.Display, io: CommandIO
    ) throws -> (plan: LeastDimming, adaptation: [Double], input: FlashReport) {
        let criteria = FlashCriteria(standard: standard)
        // The first scan: the hazards, and the viewer's adaptation before each frame (the first
        // frame's own).
        var after: [Double?] = []
        let report = try scan(video, criteria: criteria, display: display, eachFrame: { analyzer in
            after.append(analyzer.lastDimFlashingLights.map { $0.adaptation / display.peak })
        })
        let adaptation = after.indices.map { after[max(0, $0 - 1)] ?? after[$0] ?? 0 }
        var plan = LeastDimming(hazards: report.hazards, displayPeak: display.peak)
        if !plan.stretches.isEmpty {
            for round in 1...LeastDimming.rounds {
                if progress == nil && io.standardErrorIsTerminal || progress == .bar {
                    io.writeStandardError("\r  finding the least dimming: round \(round) of \(LeastDimming.rounds)…")
                }
                let trial = try scan(video, criteria: criteria, display: display, changing: { frame, index in
                    plan.change(at: frame.time.seconds, adaptation: adaptation[min(index, adaptation.count - 1)], candidates: true)
                })
                plan.record(trial.hazards)
            }
            if progress == nil && io.standardErrorIsTerminal || progress == .bar { io.writeStandardError("\n") }
        }
        return (plan, adaptation, report)
    }

    /// `--method wcag`: writes the video dimmed as `plan` says.
    private func dimToPass(
        with rewriter: VideoRewriter, plan: LeastDimming, adaptation: [Double], input report: FlashReport, io: CommandIO
    ) throws -> DimSummary {
        var summary = DimSummary(encoder: rewriter.encoderName, codecFallback: rewriter.codecFallback)
        summary.verdict = Self.verdictLine(report)
        summary.stretches = plan.stretches
        var index = 0
        var progress = ProgressBar(io: io, style: self.progress, duration: rewriter.info.duration, file: video)
        let outcome = try rewriter.run { frame in
            let change = plan.change(
                at: frame.time.seconds, adaptation: adaptation[min(index, max(0, adaptation.count - 1))], candidates: false)
            index += 1
            summary.count(change)
            progress.update(time: frame.time.seconds)
            return change
        }
        progress.finish()
        summary.dropped = rewriter.droppedStreams
        summary.partialReason = outcome.partialReason
        return summary
    }
}

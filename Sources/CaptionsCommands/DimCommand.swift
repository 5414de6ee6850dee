import ArgumentParser
import CaptionsCore
import CaptionsFlash
import CaptionsMedia

/// `captions dim`: writes a video with its flashing reduced.
public struct DimCommand: ParsableCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "dim",
        abstract: "Write a copy of a video with its flashing dimmed (Apple's Dim Flashing Lights).",
        discussion: """
            --method dfl (the default) dims each frame as Apple's Dim Flashing Lights does for the chosen \
            display (--display, --display-peak, --display-area): when the model's risk rises, contrast and \
            brightness are reduced around the viewer's adaptation level, and released over two seconds. \
            --local dims by the largest risk of any 10° field, so that a flash in a corner counts.

            Frames that need no dimming are only re-encoded. The video is encoded again with libavcodec \
            (the input's codec family: libx264 for H.264, libx265 for HEVC; --codec, --crf, --preset to \
            choose), keeping its pixel format, colour tags and HDR metadata; audio, subtitle and data \
            streams are copied. The container follows the output's extension. The file is written to a \
            temporary file and renamed.

            Exit codes: 0 written, 1 the video could not be read or written, 64 usage error.
            """
    )

    /// How the flashing is reduced.
    enum Method: String, ExpressibleByArgument, CaseIterable {
        case dfl
    }

    @Argument(help: "The video file (any container FFmpeg reads).")
    var video: String

    @Option(name: .shortAndLong, help: "The video to write (its extension names the container: .mp4, .mkv, .mov, .ts…).")
    var output: String

    @Option(help: "How to dim: dfl (Apple's Dim Flashing Lights, frame by frame).")
    var method: Method = .dfl

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

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against the real standard streams.
    public func run() throws {
        try execute(io: ProcessIO())
    }

    /// Runs against `io`; throws `ExitCode` 1 when the video cannot be read or written.
    public func execute(io: CommandIO) throws {
        let display: DimFlashingLights.Display
        do {
            display = try displayOptions.resolved()
        } catch let error as ValidationError {
            io.writeStandardError("error: \(error.message)\n")
            throw ExitCode(64)
        }
        if let crf, !(0...51).contains(crf) {
            io.writeStandardError("error: --crf must be between 0 and 51 [usage.crf]\n")
            throw ExitCode(64)
        }
        guard output != "-" else {
            io.writeStandardError("error: a video cannot be written to standard output; name a file with -o [usage.output]\n")
            throw ExitCode(64)
        }
        do {
            try FileAccess.checkWritable(output, input: video)
        } catch {
            io.writeStandardError("\(output): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        var summary = DimSummary()
        do {
            try FileAccess.writeFile(to: output) { temporary in
                let rewriter = try VideoRewriter(
                    input: video, temporary: temporary, finalPath: output,
                    settings: VideoRewriter.Settings(codec: codec, crf: crf, preset: preset))
                summary = try dim(with: rewriter, display: display, io: io)
            }
        } catch let error as MediaError {
            io.writeStandardError("\(video): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        } catch let error as CaptionsError {
            io.writeStandardError("\(output): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        try FileAccess.writeText(summary.text(output: output, display: display, local: local), to: "-", io: io)
        if summary.partialReason != nil { throw ExitCode(1) }
    }

    /// What the run did.
    struct DimSummary {
        var frames = 0
        var dimmed = 0
        var deepest = 0.0
        var encoder = ""
        var dropped: [String] = []
        var partialReason: String?
        var verdict = ""

        func text(output: String, display: DimFlashingLights.Display, local: Bool) -> String {
            var lines = ["\(output): \(dimmed) of \(frames) frames dimmed (by up to \(Int((deepest * 100).rounded()))%), "
                + "Apple's Dim Flashing Lights\(local ? " (local risk)" : "") for \(NumberFormatting.shortest(display.peak)) cd/m², "
                + "\(NumberFormatting.shortest(display.area)) deg²; encoded with \(encoder)"]
            lines.append("  input: \(verdict)")
            for stream in dropped { lines.append("  note: \(stream) not copied: the container cannot hold it") }
            if let partialReason { lines.append("  partial: \(partialReason)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// Runs the analysis and Apple's model frame by frame and dims as the model says.
    private func dim(with rewriter: VideoRewriter, display: DimFlashingLights.Display, io: CommandIO) throws -> DimSummary {
        let info = rewriter.info
        var analyzer = FlashAnalyzer(
            width: info.width, height: info.height, criteria: FlashCriteria(), display: display, frameRate: info.framesPerSecond)
        let rate = info.framesPerSecond ?? 25
        var whole = DimFlashingLights(display: display, frameRate: rate)
        var fields: [DimFlashingLights] = []
        var previous: (mitigation: Double, adaptation: Double)?
        var summary = DimSummary(encoder: rewriter.encoderName)
        var progress = ProgressBar(io: io, enabled: !quiet && io.standardErrorIsTerminal, duration: info.duration)
        let outcome = try rewriter.run { frame in
            // Frame n is drawn with frame n − 1's mitigation and adaptation (Apple's model).
            let change = previous.flatMap { state in
                state.mitigation > 0
                    ? LightChange.dimFlashingLights(mitigation: state.mitigation, adaptation: state.adaptation / display.peak) : nil
            }
            analyzer.analyze(frame, sampleAspect: info.sampleAspect, quarterTurns: info.quarterTurns)
            let level = analyzer.lastFrame?.averagePictureLevel ?? 0
            let output = whole.next(apl: level)
            var mitigation = output.mitigation
            if local {
                let levels = analyzer.lastFieldLevels
                if fields.count != levels.count {
                    fields = Array(repeating: DimFlashingLights(display: display, frameRate: rate), count: levels.count)
                }
                for index in fields.indices { mitigation = max(mitigation, fields[index].next(apl: levels[index]).mitigation) }
            }
            previous = (mitigation, output.adaptation)
            summary.frames += 1
            if let change {
                summary.dimmed += 1
                summary.deepest = max(summary.deepest, 1 - change.brightness)
            }
            progress.update(time: frame.time.seconds)
            return change
        }
        progress.finish()
        let report = analyzer.finish(partialReason: outcome.partialReason)
        summary.verdict = "\(report.verdict.rawValue.uppercased()) — \(report.criteriaName); \(report.hazards.count) hazard(s) before dimming"
        summary.dropped = rewriter.droppedStreams
        summary.partialReason = outcome.partialReason
        return summary
    }
}

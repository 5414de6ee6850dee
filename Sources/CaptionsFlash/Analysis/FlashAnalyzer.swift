import CaptionsCore

/// Scans frames for flashing hazards, following WCAG 2.3.1 / 2.3.2 or ITU-R BT.1702.
///
/// For each frame, in order of presentation time:
/// 1. linear-light sRGB is averaged over a grid of small blocks (``BlockSampler``), from the
///    stream's YUV through its matrix and range (the Y plane alone is not luminance);
/// 2. each block's relative luminance feeds a ``TransitionTracker`` (general transitions: a change
///    of at least 0.1 with the darker state below 0.8) and its chromaticity a
///    ``ChromaticityTracker`` (red transitions), or the Harding red measure when asked;
/// 3. transitions are counted per block over the last second by presentation time; a block with
///    more than six (more than three flashes) is flashing;
/// 4. the flashing blocks are measured inside every 10° field (341 × 256 at 1024 × 768, scaled to
///    the frame) and over the whole screen; WCAG fails above 25 % of a field, ITU above 25 % of
///    the screen, WCAG AAA as soon as anything flashes that often.
///
/// Per frame it also reports an intensity, 100 × min(1, flashes per second / 3) × min(1, area /
/// 25 %), and for failing frames a mitigation in the spirit of Dim Flashing Lights: the share by
/// which a player should reduce luminance changes, 100 × (1 − 0.1 / the largest swing of a
/// flashing block), so that every swing falls under the 0.1 threshold (red-only failures: the
/// intensity).
public struct FlashAnalyzer {
    /// The criteria applied.
    public let criteria: FlashCriteria
    private let width: Int
    private let height: Int
    private var sampler: BlockSampler
    private var light: LinearLight?
    private var lightKey: (VideoFrame.Matrix, VideoFrame.Range)?
    private var luminanceTrackers: [TransitionTracker]
    private var chromaticityTrackers: [ChromaticityTracker]
    private var hardingTrackers: [TransitionTracker]
    private var general: SlidingWindowCounter
    private var red: SlidingWindowCounter
    private var areaMeter: AreaMeter
    private var frames: [FlashReport.FrameMeasure] = []
    private var hazards: [FlashReport.Hazard] = []
    private var openGeneralHazard: Int?
    private var openRedHazard: Int?
    private var skippedFrames = 0
    private let sampledBlocks: Int
    /// The last values fed to each block's trackers: a block whose light has not moved by
    /// ``stillness`` since is skipped, as it cannot complete a transition.
    private var fedRed: [Float]
    private var fedGreen: [Float]
    private var fedBlue: [Float]
    private static let stillness: Float = 0.002

    /// An analyzer for frames of one size.
    public init(width: Int, height: Int, criteria: FlashCriteria) {
        self.criteria = criteria
        self.width = width
        self.height = height
        sampler = BlockSampler(width: width, height: height)
        let blocks = sampler.blockCount
        sampledBlocks = sampler.sampledBlockCount
        luminanceTrackers = Array(repeating: TransitionTracker(), count: blocks)
        chromaticityTrackers = Array(repeating: ChromaticityTracker(), count: blocks)
        hardingTrackers = Array(repeating: TransitionTracker(), count: blocks)
        fedRed = Array(repeating: -1, count: blocks)
        fedGreen = fedRed
        fedBlue = fedRed
        general = SlidingWindowCounter(blockCount: blocks)
        red = SlidingWindowCounter(blockCount: blocks)
        let windowWidth = Double(width) * 341 / 1024
        let windowHeight = Double(height) * 256 / 768
        areaMeter = AreaMeter(
            columns: sampler.columns, rows: sampler.rows,
            windowColumns: Int((windowWidth / Double(sampler.blockSize)).rounded()),
            windowRows: Int((windowHeight / Double(sampler.blockSize)).rounded()))
    }

    /// Analyses the next frame (frames must come in presentation order).
    public mutating func analyze(_ frame: VideoFrame) {
        guard frame.width == width, frame.height == height else {
            skippedFrames += 1
            return
        }
        if lightKey == nil || lightKey! != (frame.matrix, frame.range) {
            light = LinearLight(matrix: frame.matrix, range: frame.range)
            lightKey = (frame.matrix, frame.range)
        }
        guard let light else { return }
        sampler.sample(frame, light: light)
        let time = frame.time.seconds
        general.begin(frameAt: time)
        red.begin(frameAt: time)
        let measure = updateBlocks()
        record(measure, at: time)
    }

    private struct BlockMeasure {
        var meanLuminance: Float = 0
        var largestSwing: Float = 0
        var maxCount: Int32 = 0
    }

    /// Feeds every block's values to its trackers and returns the frame's block-level measures.
    private mutating func updateBlocks() -> BlockMeasure {
        var measure = BlockMeasure()
        let threshold = criteria.luminanceChange
        let darker = criteria.darkerStateLimit
        let harding = criteria.redRule == .harding
        for block in 0..<sampler.blockCount where sampler.isSampled(block) {
            let r = sampler.red[block]
            let g = sampler.green[block]
            let b = sampler.blue[block]
            let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
            measure.meanLuminance += luminance
            let still = abs(r - fedRed[block]) < Self.stillness && abs(g - fedGreen[block]) < Self.stillness
                && abs(b - fedBlue[block]) < Self.stillness
            if still {
                noteCounts(block, into: &measure)
                continue
            }
            (fedRed[block], fedGreen[block], fedBlue[block]) = (r, g, b)
            if luminanceTrackers[block].update(luminance, threshold: threshold, qualifies: { min($0, $1) < darker }) {
                general.record(block)
            }
            let redTransition: Bool
            if harding {
                redTransition = hardingTrackers[block].update(
                    (r - g - b) * 320, threshold: 20, qualifies: { max($0, $1) > 20 })
            } else {
                let sum = r + g + b
                let x = 0.4124 * r + 0.3576 * g + 0.1805 * b
                let z = 0.0193 * r + 0.1192 * g + 0.9505 * b
                let denominator = x + 15 * luminance + 3 * z
                let (u, v): (Float, Float) =
                    denominator > 1e-6 ? (4 * x / denominator, 9 * luminance / denominator) : (0.1978, 0.4683)
                redTransition = chromaticityTrackers[block].update(u: u, v: v, isRed: sum > 0.003 && r / sum >= 0.8)
            }
            if redTransition { red.record(block) }
            noteCounts(block, into: &measure)
        }
        measure.meanLuminance /= Float(max(sampledBlocks, 1))
        return measure
    }

    /// Folds a block's transition counts into the frame's measures.
    @inline(__always)
    private func noteCounts(_ block: Int, into measure: inout BlockMeasure) {
        let count = max(general.counts[block], red.counts[block])
        if count > measure.maxCount { measure.maxCount = count }
        if general.counts[block] > Int32(FlashCriteria.maximumTransitionsPerSecond) {
            measure.largestSwing = max(measure.largestSwing, luminanceTrackers[block].amplitude)
        }
    }

    private mutating func record(_ blocks: BlockMeasure, at time: Double) {
        let limit = Int32(FlashCriteria.maximumTransitionsPerSecond)
        let generalCounts = general.counts
        let redCounts = red.counts
        let generalArea = areaMeter.measure { generalCounts[$0] > limit }
        let redArea = areaMeter.measure { redCounts[$0] > limit }
        let generalFails = fails(generalArea)
        let redFails = fails(redArea)
        let rate = Double(blocks.maxCount) / 2
        let area = Double(criteria.standard == .itu ? max(generalArea.screen, redArea.screen) : max(generalArea.window, redArea.window))
        let intensity = 100 * min(1, rate / 3) * min(1, area / Double(FlashCriteria.maximumAreaShare))
        let anyFailure = generalFails || redFails
        var mitigation = 0.0
        if anyFailure {
            let dimming = blocks.largestSwing > 0 ? max(0, 1 - Double(criteria.luminanceChange / blocks.largestSwing)) : 0
            mitigation = generalFails ? 100 * dimming : intensity
        }
        frames.append(FlashReport.FrameMeasure(
            time: time, meanLuminance: Double(blocks.meanLuminance),
            generalAreaShare: Double(generalArea.window), redAreaShare: Double(redArea.window),
            generalScreenShare: Double(generalArea.screen), redScreenShare: Double(redArea.screen),
            flashesPerSecond: rate, intensity: intensity, mitigation: mitigation, fails: anyFailure))
        for kind in FlashReport.Kind.allCases {
            let measured = kind == .general ? generalArea : redArea
            if kind == .general ? generalFails : redFails {
                if let index = kind == .general ? openGeneralHazard : openRedHazard {
                    hazards[index].end = time
                    hazards[index].peakFlashesPerSecond = max(hazards[index].peakFlashesPerSecond, rate)
                    hazards[index].peakAreaShare = max(hazards[index].peakAreaShare, Double(measured.window))
                    hazards[index].peakScreenShare = max(hazards[index].peakScreenShare, Double(measured.screen))
                } else {
                    let start = (kind == .general ? general.windowStart : red.windowStart) ?? time
                    if kind == .general { openGeneralHazard = hazards.count } else { openRedHazard = hazards.count }
                    hazards.append(FlashReport.Hazard(
                        kind: kind, start: max(0, start), end: time, peakFlashesPerSecond: rate,
                        peakAreaShare: Double(measured.window), peakScreenShare: Double(measured.screen)))
                }
            } else if kind == .general {
                openGeneralHazard = nil
            } else {
                openRedHazard = nil
            }
        }
    }

    private func fails(_ area: (window: Float, screen: Float)) -> Bool {
        switch criteria.standard {
        case .wcag: area.window > FlashCriteria.maximumAreaShare
        case .wcagAAA: area.screen > 0
        case .itu: area.screen > FlashCriteria.maximumAreaShare
        }
    }

    /// The report for everything analysed; `partialReason` marks it partial.
    public func finish(partialReason: String? = nil) -> FlashReport {
        var warnings: [FlashReport.Warning] = []
        if criteria.warnSustained { warnings += sustainedFlashing() }
        if skippedFrames > 0 {
            warnings.append(FlashReport.Warning(
                code: "flash.frame.sizeChanged",
                message: "\(skippedFrames) frame(s) of another size were not analysed", start: 0,
                end: frames.last?.time ?? 0))
        }
        return FlashReport(
            criteria: criteria, verdict: hazards.isEmpty ? .pass : .fail, partial: partialReason != nil,
            partialReason: partialReason, width: width, height: height, frameCount: frames.count,
            duration: (frames.last?.time ?? 0) - (frames.first?.time ?? 0), hazards: hazards, warnings: warnings,
            seconds: secondSummaries(), frames: frames)
    }

    private func secondSummaries() -> [FlashReport.SecondSummary] {
        var summaries: [FlashReport.SecondSummary] = []
        for frame in frames {
            let second = max(0, Int(frame.time))
            if summaries.last?.second != second {
                summaries.append(FlashReport.SecondSummary(second: second, flashesPerSecond: 0, areaShare: 0, fails: false))
            }
            let index = summaries.count - 1
            summaries[index].flashesPerSecond = max(summaries[index].flashesPerSecond, frame.flashesPerSecond)
            summaries[index].areaShare = max(summaries[index].areaShare, frame.generalAreaShare, frame.redAreaShare)
            summaries[index].fails = summaries[index].fails || frame.fails
        }
        return summaries
    }

    /// Broadcast practice: 2–3 flashes a second (4–6 transitions) kept up for 4 s within any 5 s.
    private func sustainedFlashing() -> [FlashReport.Warning] {
        var warnings: [FlashReport.Warning] = []
        var windowStart = 0
        var flaggedDuration = 0.0
        for index in frames.indices.dropLast() {
            let interval = frames[index + 1].time - frames[index].time
            if (2...3).contains(frames[index].flashesPerSecond) { flaggedDuration += interval }
            while frames[index].time - frames[windowStart].time > 5 {
                if (2...3).contains(frames[windowStart].flashesPerSecond) {
                    flaggedDuration -= frames[windowStart + 1].time - frames[windowStart].time
                }
                windowStart += 1
            }
            guard flaggedDuration >= 4 else { continue }
            if let last = warnings.last, last.end >= frames[windowStart].time {
                warnings[warnings.count - 1].end = frames[index].time
            } else {
                warnings.append(FlashReport.Warning(
                    code: "flash.sustained", message: "sustained flashing (2–3 flashes a second for 4 s within 5 s)",
                    start: frames[windowStart].time, end: frames[index].time))
            }
        }
        return warnings
    }
}

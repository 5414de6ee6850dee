import CaptionsCore

/// Scans frames for flashing hazards, following WCAG 2.3.1 / 2.3.2 or ITU-R BT.1702.
///
/// Each frame is measured in light (``ColorModel``: relative luminance for SDR, cd/m² for PQ and
/// HLG) over a grid of small cells (``CellGrid``, ``PictureAnalysis``). An interlaced frame is two
/// pictures, one per field, each shown at its own time (the second half a frame later) and
/// analysed on its own, so that a flash in one field is found at its full size; a frame's measures
/// are the larger of its two fields'. WCAG fails above 25 % of a 10° field, ITU above 25 % of the
/// screen, WCAG AAA as soon as anything flashes more than three times a second; flashes that
/// move about count where they pass (``MovingFlashMeter``).
///
/// A change of size, pixel format or scanning mid-stream is reported; the analysis goes on across
/// it (on the new grid, each new cell carrying on from the old cell at its place; where progressive
/// and interlaced video meet, each field from the progressive picture, or a progressive picture
/// from the field shown last). Where SDR and HDR meet, the light kept is carried to the new scale
/// with SDR white at ``sdrWhite`` cd/m².
///
/// In the same pass it runs Apple's Dim Flashing Lights model (``DimFlashingLights``) on each
/// frame's average picture level, for the chosen display: a perceptual risk for the whole frame
/// and the dimming a player applies, reported beside the compliance measures; and the same model
/// on each 10° field's own light (``LocalRisk``), as the whole-frame model misses a bright flash
/// in a corner.
public struct FlashAnalyzer {
    /// The criteria applied.
    public let criteria: FlashCriteria
    /// The HLG display peak in cd/m².
    public let hdrPeak: Double
    /// The display Apple's model is tuned to.
    public let display: DimFlashingLights.Display
    /// Apple's model on the whole frame and on each 10° field.
    private var dimFlashingLights: DimFlashingLightsRun
    /// Whether Apple's model runs (off only to measure what it costs: `Scripts/bench.sh`).
    public var runsDimFlashingLights = true
    /// The duration the current frame carries, if any.
    private var frameDuration: Double?
    /// Apple's model's figures for the last frame analysed; nil until the model has run (the
    /// first frame waits for the second when the frame rate is not known).
    public private(set) var lastDimFlashingLights: DimFlashingLightsRun.Figures?
    private var pictures: [PictureAnalysis] = []
    /// The second grid of each picture (of each field), offset by half a cell, and the crop of
    /// the picture it reads (``CellGrid/halfCellShifted(width:height:acrossRows:)``): flashing
    /// found on either grid counts.
    private var shifted: [PictureAnalysis] = []
    private var shiftedCrop: (x: Int, y: Int, width: Int, height: Int?)?
    private var model: ColorModel?
    private var lastKey: FrameKey?
    private var format: PictureFormat?
    private var frames: [FlashReport.FrameMeasure] = []
    private var hazards: [FlashReport.Hazard] = []
    private var openGeneralHazard: Int?
    private var openRedHazard: Int?
    private var warnings: [FlashReport.Warning] = []
    /// Changes between top and bottom field first alone (pulldown flags them picture by
    /// picture): one warning at the end for all of them, from the first to the last.
    private var fieldOrderFlips: (count: Int, first: Double, last: Double)?
    /// Stretches where changes were taken as motion (``MotionStrips``): when, and how many.
    private var motionSpans: [(start: Double, end: Double, count: Int)] = []
    private var colourNames: [String] = []
    private var firstFormat: String?
    private var lastFrameDuration = 1.0 / 25
    private var width: Int
    private var height: Int

    /// What identifies a stream's pictures: a change is reported.
    private struct PictureFormat: Equatable {
        var width, height, bitDepth: Int
        var layout: VideoFrame.Layout
        var fieldOrder: VideoFrame.FieldOrder
        var grid: CellGrid
        var absolute: Bool

        var description: String {
            let scan = fieldOrder == .progressive ? "progressive" : "interlaced, \(fieldOrder == .topFirst ? "top" : "bottom") field first"
            return "\(width)×\(height) \(bitDepth)-bit \(layout.isRGB ? "RGB" : "YUV") \(scan)"
        }

        /// The description, led by SDR or HDR when `light` (where the two meet).
        func described(light: Bool) -> String { light ? "\(absolute ? "HDR" : "SDR") \(description)" : description }
    }

    /// An analyzer; `width` and `height` are the stream's announced size (frames may differ),
    /// `frameRate` its frame rate when known, `display` the display of Apple's model.
    public init(
        width: Int, height: Int, criteria: FlashCriteria, hdrPeak: Double = 1000,
        display: DimFlashingLights.Display = .standard, frameRate: Double? = nil
    ) {
        self.criteria = criteria
        self.hdrPeak = hdrPeak
        self.display = display
        dimFlashingLights = DimFlashingLightsRun(
            display: display, frameRate: frameRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil })
        self.width = width
        self.height = height
    }

    /// Analyses the next frame (frames must come in presentation order), shown turned by its
    /// ``VideoFrame/quarterTurns`` and with pixels `sampleAspect` wide.
    public mutating func analyze(_ frame: VideoFrame, sampleAspect: Double = 1) {
        let quarterTurns = frame.quarterTurns
        let time = frame.time.seconds
        frameDuration = frame.duration.flatMap { $0 > 0 ? $0 : nil }
        if let duration = frame.duration, duration > 0 {
            lastFrameDuration = duration
        } else if let previous = frames.last?.time, time > previous {
            lastFrameDuration = time - previous
        }
        let key = FrameKey(frame: frame, sampleAspect: sampleAspect, quarterTurns: quarterTurns)
        if key != lastKey {
            lastKey = key
            describe(frame, sampleAspect: sampleAspect, quarterTurns: quarterTurns, at: time)
        }
        guard let model else { return }
        var measure = PictureAnalysis.Measure()
        if frame.fieldOrder == .progressive {
            measure = pictures[0].analyze(frame, frameHeight: frame.height, parity: 0, time: time, model: model, criteria: criteria, displayPeak: Float(display.peak))
            measure = withShiftedGrid(measure, of: frame, index: 0, frameHeight: nil, time: time, model: model)
        } else {
            let bottomFirst = frame.fieldOrder == .bottomFirst
            for index in 0..<2 {
                let bottom = (index == 0) == bottomFirst
                let fieldTime = time + Double(index) * lastFrameDuration / 2
                let picture = frame.field(bottom: bottom)
                let field = pictures[bottom ? 1 : 0].analyze(
                    picture, frameHeight: frame.height, parity: bottom ? 1 : 0, time: fieldTime,
                    model: model, criteria: criteria, displayPeak: Float(display.peak))
                let both = withShiftedGrid(field, of: picture, index: bottom ? 1 : 0, frameHeight: frame.height, time: fieldTime, model: model)
                measure = index == 0 ? both : Self.larger(measure, both)
            }
        }
        record(measure, at: time)
    }

    /// Everything about a frame that the colour model, the grid and the picture format depend on:
    /// while it stays the same (every frame but the first, in most streams) none is rebuilt.
    private struct FrameKey: Equatable {
        var width, height, bitDepth, quarterTurns: Int
        var sampleAspect: Double
        var layout: VideoFrame.Layout
        var fieldOrder: VideoFrame.FieldOrder
        var matrix: VideoFrame.Matrix
        var range: VideoFrame.Range
        var transfer: VideoFrame.Transfer
        var primaries: VideoFrame.Primaries

        init(frame: VideoFrame, sampleAspect: Double, quarterTurns: Int) {
            (width, height, bitDepth, self.quarterTurns) = (frame.width, frame.height, frame.bitDepth, quarterTurns)
            self.sampleAspect = sampleAspect
            (layout, fieldOrder) = (frame.layout, frame.fieldOrder)
            (matrix, range, transfer, primaries) = (frame.matrix, frame.range, frame.transfer, frame.primaries)
        }
    }

    /// Builds the colour model and grid for a frame unlike the one before, and reports a change of
    /// picture format.
    private mutating func describe(_ frame: VideoFrame, sampleAspect: Double, quarterTurns: Int, at time: Double) {
        let frameModel = ColorModel(frame: frame, hdrPeak: hdrPeak)
        let previousModel = model
        if model != frameModel {
            model = frameModel
            if !colourNames.contains(frameModel.summary) { colourNames.append(frameModel.summary) }
        }
        defer {
            // The same codes are other light now: every cell is lit anew, on the new scale.
            if let previousModel, previousModel != frameModel {
                let factor: Float =
                    previousModel.isAbsolute == frameModel.isAbsolute ? 1
                    : frameModel.isAbsolute ? Self.sdrWhite : 1 / Self.sdrWhite
                for index in pictures.indices { pictures[index].relight(scale: factor) }
                for index in shifted.indices { shifted[index].relight(scale: factor) }
            }
        }
        let grid = CellGrid(
            width: frame.width, height: frame.height, sampleAspect: sampleAspect, quarterTurns: quarterTurns,
            fields: frame.fieldOrder == .progressive ? 1 : 2)
        let newFormat = PictureFormat(
            width: frame.width, height: frame.height, bitDepth: frame.bitDepth, layout: frame.layout,
            fieldOrder: frame.fieldOrder, grid: grid, absolute: frameModel.isAbsolute)
        if newFormat != format { change(to: newFormat, at: time) }
    }

    /// `measure`, of `picture` (a frame, or field `index` of a frame `frameHeight` lines tall),
    /// with what its half-cell-shifted grid finds (``either(_:_:)``); as it is without one.
    private mutating func withShiftedGrid(
        _ measure: PictureAnalysis.Measure, of picture: VideoFrame, index: Int, frameHeight: Int?, time: Double, model: ColorModel
    ) -> PictureAnalysis.Measure {
        guard let crop = shiftedCrop, index < shifted.count,
            let part = picture.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height ?? picture.height)
        else { return measure }
        let other = shifted[index].analyze(
            part, frameHeight: frameHeight ?? part.height, parity: index, time: time, model: model, criteria: criteria,
            displayPeak: Float(display.peak), sharedStrips: index < pictures.count ? pictures[index].sharing(x: crop.x, y: crop.y) : nil)
        return Self.either(measure, other)
    }

    /// The field measures combined: the larger of each flashing figure, the mean of the light.
    private static func larger(_ a: PictureAnalysis.Measure, _ b: PictureAnalysis.Measure) -> PictureAnalysis.Measure {
        var result = either(a, b)
        result.meanLuminance = (a.meanLuminance + b.meanLuminance) / 2
        result.averagePictureLevel = (a.averagePictureLevel + b.averagePictureLevel) / 2
        result.fieldLevels = zip(a.fieldLevels, b.fieldLevels).map { ($0 + $1) / 2 }
        return result
    }

    /// Flashing found in either measure of one picture (its own grid's, `a`, and the grid offset
    /// by half a cell's): the larger area, count and swing, the earlier window; the light and
    /// picture levels are `a`'s.
    private static func either(_ a: PictureAnalysis.Measure, _ b: PictureAnalysis.Measure) -> PictureAnalysis.Measure {
        var result = a
        result.generalArea = (max(a.generalArea.window, b.generalArea.window), max(a.generalArea.screen, b.generalArea.screen))
        result.redArea = (max(a.redArea.window, b.redArea.window), max(a.redArea.screen, b.redArea.screen))
        result.maxCount = max(a.maxCount, b.maxCount)
        result.generalMoving = (max(a.generalMoving.window, b.generalMoving.window), max(a.generalMoving.screen, b.generalMoving.screen))
        result.redMoving = (max(a.redMoving.window, b.redMoving.window), max(a.redMoving.screen, b.redMoving.screen))
        result.largestSwing = max(a.largestSwing, b.largestSwing)
        result.movedTransitions = a.movedTransitions + b.movedTransitions
        result.generalWindowStart = [a.generalWindowStart, b.generalWindowStart].compactMap { $0 }.min()
        result.redWindowStart = [a.redWindowStart, b.redWindowStart].compactMap { $0 }.min()
        return result
    }

    /// SDR white in cd/m² where SDR and HDR light meet: the display BT.1702's thresholds assume
    /// (a change of 0.1 of white is 20 cd/m², a darker state under 0.8 of white is under 160).
    static let sdrWhite: Float = 200

    /// Starts (or keeps) the analysis for a new picture format, and reports the change.
    private mutating func change(to newFormat: PictureFormat, at time: Double) {
        defer { format = newFormat }
        let fieldCount = newFormat.fieldOrder == .progressive ? 1 : 2
        // The analysis goes on, on the new grid if the grid changes (``describe`` carries the
        // light to a new scale).
        if format == nil {
            pictures = (0..<fieldCount).map { _ in PictureAnalysis(grid: newFormat.grid) }
        } else if let old = format, old.grid != newFormat.grid || pictures.count != fieldCount {
            // Progressive and interlaced meet: both fields go on from the progressive picture
            // before them, and a progressive picture from the field shown last.
            let lastShown = pictures.count == 1 || old.fieldOrder == .bottomFirst ? 0 : 1
            pictures = (0..<fieldCount).map {
                PictureAnalysis(continuing: pictures[pictures.count == fieldCount ? $0 : lastShown], grid: newFormat.grid)
            }
        }
        // The half-cell-shifted grid (one a field) goes on across a change of size where both
        // sizes have one (1080p and 2160p); it ends where the cells are not a whole even number
        // of pixels across (720p) and starts afresh after.
        if let half = newFormat.grid.halfCellShifted(width: newFormat.width, height: newFormat.height, acrossRows: fieldCount == 1) {
            if shifted.isEmpty {
                shifted = (0..<fieldCount).map { _ in PictureAnalysis(grid: half.grid, secondGrid: true) }
            } else if shifted.count != fieldCount || shifted.contains(where: { $0.grid != half.grid }) {
                let last = shifted[shifted.count - 1]
                shifted = (0..<fieldCount).map { PictureAnalysis(continuing: shifted.count == fieldCount ? shifted[$0] : last, grid: half.grid) }
            }
            shiftedCrop = (half.x, half.y, half.width, half.height)
        } else {
            (shifted, shiftedCrop) = ([], nil)
        }
        if format == nil {
            firstFormat = newFormat.description
            width = newFormat.width
            height = newFormat.height
            return
        }
        guard let old = format else { return }
        var sameButFieldOrder = newFormat
        sameButFieldOrder.fieldOrder = old.fieldOrder
        if old.fieldOrder != .progressive, newFormat.fieldOrder != .progressive, sameButFieldOrder == old {
            let flips = fieldOrderFlips
            fieldOrderFlips = ((flips?.count ?? 0) + 1, flips?.first ?? time, time)
            return
        }
        let scale =
            old.absolute == newFormat.absolute ? ""
            : "; light carried from \(old.absolute ? "cd/m²" : "SDR") to \(newFormat.absolute ? "cd/m²" : "SDR") with SDR white at \(Int(Self.sdrWhite)) cd/m²"
        let how =
            (old.fieldOrder == .progressive) != (newFormat.fieldOrder == .progressive)
                ? "the analysis goes on across it (\(fieldCount == 2 ? "each field from the progressive picture before it" : "the progressive picture from the field shown last"))"
            : old.grid == newFormat.grid ? "the analysis goes on across it (same grid of cells)"
            : "the analysis goes on across it (each cell of the new grid from the old cell at its place)"
        warnings.append(FlashReport.Warning(
            code: "flash.stream.changed", message: "the video changes from \(old.described(light: !scale.isEmpty)) to \(newFormat.described(light: !scale.isEmpty)); \(how)\(scale)",
            start: time, end: time))
    }

    private mutating func record(_ measure: PictureAnalysis.Measure, at time: Double) {
        // Flashing in place and flashing that moves about, each against the standard's limit.
        func combined(_ inPlace: (window: Float, screen: Float), _ moving: (window: Float, screen: Float))
            -> (area: (window: Float, screen: Float), fails: Bool, movesOnly: Bool)
        {
            let (placeFails, movingFails) = (fails(inPlace), fails(moving))
            return (
                (max(inPlace.window, moving.window), max(inPlace.screen, moving.screen)), placeFails || movingFails,
                movingFails && !placeFails
            )
        }
        if measure.movedTransitions > 0 {
            if let last = motionSpans.last, time - last.end <= 2 {
                motionSpans[motionSpans.count - 1].end = time
                motionSpans[motionSpans.count - 1].count += measure.movedTransitions
            } else {
                motionSpans.append((time, time, measure.movedTransitions))
            }
        }
        let general = combined(measure.generalArea, measure.generalMoving)
        let red = combined(measure.redArea, measure.redMoving)
        let (generalFails, redFails) = (general.fails, red.fails)
        let rate = Double(measure.maxCount) / 2
        let anyFailure = generalFails || redFails
        frames.append(FlashReport.FrameMeasure(
            time: time, meanLuminance: measure.meanLuminance,
            generalAreaShare: Double(general.area.window), redAreaShare: Double(red.area.window),
            generalScreenShare: Double(general.area.screen), redScreenShare: Double(red.area.screen),
            flashesPerSecond: rate, averagePictureLevel: measure.averagePictureLevel, dflRisk: 0,
            dflMitigation: 0, dflLocalRisk: 0, fails: anyFailure))
        if runsDimFlashingLights {
            fill(dimFlashingLights.next(
                time: time, duration: frameDuration, level: measure.averagePictureLevel, fieldLevels: measure.fieldLevels))
        }
        for kind in FlashReport.Kind.allCases {
            let measured = kind == .general ? general.area : red.area
            let failing = kind == .general ? generalFails : redFails
            let moves = kind == .general ? general.movesOnly : red.movesOnly
            let open = kind == .general ? openGeneralHazard : openRedHazard
            guard failing else {
                if kind == .general { openGeneralHazard = nil } else { openRedHazard = nil }
                continue
            }
            let frameEnd = time + lastFrameDuration
            if let index = open {
                hazards[index].end = frameEnd
                hazards[index].moves = hazards[index].moves && moves
                hazards[index].peakFlashesPerSecond = max(hazards[index].peakFlashesPerSecond, rate)
                hazards[index].peakAreaShare = max(hazards[index].peakAreaShare, Double(measured.window))
                hazards[index].peakScreenShare = max(hazards[index].peakScreenShare, Double(measured.screen))
                continue
            }
            let start = max(0, (kind == .general ? measure.generalWindowStart : measure.redWindowStart) ?? time)
            // A hazard of the same kind that overlaps this one in time is the same hazard.
            if let index = hazards.lastIndex(where: { $0.kind == kind }), hazards[index].end >= start {
                hazards[index].end = frameEnd
                hazards[index].moves = hazards[index].moves && moves
                hazards[index].peakFlashesPerSecond = max(hazards[index].peakFlashesPerSecond, rate)
                hazards[index].peakAreaShare = max(hazards[index].peakAreaShare, Double(measured.window))
                hazards[index].peakScreenShare = max(hazards[index].peakScreenShare, Double(measured.screen))
                if kind == .general { openGeneralHazard = index } else { openRedHazard = index }
                continue
            }
            if kind == .general { openGeneralHazard = hazards.count } else { openRedHazard = hazards.count }
            hazards.append(FlashReport.Hazard(
                kind: kind, start: start, end: frameEnd, peakFlashesPerSecond: rate,
                peakAreaShare: Double(measured.window), peakScreenShare: Double(measured.screen), moves: moves))
        }
    }

    /// Puts Apple's figures into the last `figures.count` frames.
    private mutating func fill(_ figures: [DimFlashingLightsRun.Figures]) {
        if let last = figures.last { lastDimFlashingLights = last }
        for (offset, figure) in figures.enumerated() {
            let index = frames.count - figures.count + offset
            frames[index].dflRisk = figure.risk
            frames[index].dflMitigation = figure.mitigation
            frames[index].dflLocalRisk = figure.localRisk
        }
    }

    private func fails(_ area: (window: Float, screen: Float)) -> Bool {
        switch criteria.standard {
        case .wcag: area.window > FlashCriteria.maximumAreaShare
        // Anything flashing in place, or flashes moving through a 10° field as for WCAG.
        case .wcagAAA: area.screen > 0 || area.window > FlashCriteria.maximumAreaShare
        case .itu: area.screen > FlashCriteria.maximumAreaShare
        }
    }

    /// The report for everything analysed; `partialReason` marks it partial.
    public mutating func finish(partialReason: String? = nil) -> FlashReport {
        fill(dimFlashingLights.finish())
        var warnings = warnings
        if let flips = fieldOrderFlips {
            warnings.append(FlashReport.Warning(
                code: "flash.fieldOrder.changes",
                message: "the field order changes between top and bottom first \(flips.count) time\(flips.count == 1 ? "" : "s") "
                    + "(as pulldown marks pictures); each picture's fields are taken in its own order",
                start: flips.first, end: flips.last))
        }
        if criteria.warnSustained { warnings += sustainedFlashing() }
        warnings += motionSpans.map { span in
            FlashReport.Warning(
                code: "flash.motion",
                message: "\(span.count) changes of light in moving texture (such as rolling credits) taken as motion, not flashes",
                start: span.start, end: span.end + lastFrameDuration)
        }
        let absolute = model?.isAbsolute ?? false
        let rule = absolute
            ? "changes of at least 20 cd/m² where the darker state is below 160 cd/m², and a Michelson contrast of at least 1/17 above"
            : "changes of at least 0.1 of white (relative luminance) where the darker state is below 0.8"
        var report = FlashReport(
            criteria: criteria, verdict: frames.isEmpty ? .unknown : hazards.isEmpty ? .pass : .fail,
            partial: partialReason != nil, partialReason: partialReason, width: width, height: height,
            frameCount: frames.count,
            duration: frames.isEmpty ? 0 : (frames.last?.time ?? 0) - (frames.first?.time ?? 0) + lastFrameDuration,
            hazards: hazards, warnings: warnings.sorted { $0.start < $1.start }, seconds: secondSummaries(), frames: frames,
            colour: colourNames.joined(separator: "; then "), luminanceRule: rule, luminanceUnit: absolute ? "cd/m²" : "relative",
            pictures: firstFormat ?? "")
        report.display = display
        report.dflFrameRate = dimFlashingLights.frameRate
        return report
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

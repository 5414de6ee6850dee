import CaptionsCore

/// The analysis of one sequence of pictures on one ``CellGrid``: a progressive stream, or one
/// field (top or bottom) of an interlaced one.
///
/// For each picture, in order of presentation time:
/// 1. every pixel is meaned into the grid's cells (``CellSampler``) and each cell's mean codes are
///    turned into linear light (``ColorModel``);
/// 2. each cell's luminance feeds a ``TransitionTracker`` under the ``LuminanceRule`` and its
///    chromaticity a ``ChromaticityTracker`` (red transitions), or the Harding red measure;
/// 3. transitions are counted per cell over the last second by presentation time; a cell with
///    more than six (more than three flashes) is flashing;
/// 4. the flashing cells are measured inside every 10° field and over the whole screen.
struct PictureAnalysis {
    let grid: CellGrid
    private var sampler: CellSampler
    private var cells: [CellState]
    private var general: SlidingWindowCounter
    private var red: SlidingWindowCounter
    private var areaMeter: AreaMeter
    private static let stillness: Float = 0.25

    /// The channel means last fed to each cell's trackers, one array a channel (the one pass over
    /// every cell each picture reads only these): a cell that has not moved by ``stillness`` (in
    /// 8-bit code steps) since is skipped, as it cannot complete a transition.
    private var fed0: [Float]
    private var fed1: [Float]
    private var fed2: [Float]
    /// Each cell's luminance as last fed, and their sum (kept up to date as cells change).
    private var luminance: [Float]
    private var luminanceTotal: Double = 0
    /// The cells that changed in the current picture (reused).
    private var changedBuffer: [Int32] = []

    /// Writes the index of every cell whose channels moved by `stillness` or more since last fed
    /// into `changed`, eight cells at a time (most cells of most pictures do not move); returns
    /// how many.
    private static func changedCells(
        _ channels: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>),
        _ fed: (UnsafeMutableBufferPointer<Float>, UnsafeMutableBufferPointer<Float>, UnsafeMutableBufferPointer<Float>),
        stillness: Float, into changed: inout [Int32]
    ) -> Int {
        let count = channels.0.count
        if changed.count < count { changed = [Int32](repeating: 0, count: count) }
        var found = 0
        changed.withUnsafeMutableBufferPointer { changed in
            func load(_ buffer: UnsafeBufferPointer<Float>, _ at: Int) -> SIMD8<Float> {
                UnsafeRawPointer(buffer.baseAddress! + at).loadUnaligned(as: SIMD8<Float>.self)
            }
            func load(_ buffer: UnsafeMutableBufferPointer<Float>, _ at: Int) -> SIMD8<Float> {
                UnsafeRawPointer(buffer.baseAddress! + at).loadUnaligned(as: SIMD8<Float>.self)
            }
            let limit = SIMD8<Float>(repeating: stillness)
            var cell = 0
            while cell + 8 <= count {
                let difference0 = load(channels.0, cell) - load(fed.0, cell)
                let moved0 = (difference0 .>= limit) .| (difference0 .<= -limit)
                let difference1 = load(channels.1, cell) - load(fed.1, cell)
                let moved1 = (difference1 .>= limit) .| (difference1 .<= -limit)
                let difference2 = load(channels.2, cell) - load(fed.2, cell)
                let moved2 = (difference2 .>= limit) .| (difference2 .<= -limit)
                if any(moved0 .| moved1 .| moved2) {
                    for lane in 0..<8 where moved0[lane] || moved1[lane] || moved2[lane] {
                        changed[found] = Int32(cell + lane)
                        found += 1
                    }
                }
                cell += 8
            }
            while cell < count {
                if abs(channels.0[cell] - fed.0[cell]) >= stillness || abs(channels.1[cell] - fed.1[cell]) >= stillness
                    || abs(channels.2[cell] - fed.2[cell]) >= stillness
                {
                    changed[found] = Int32(cell)
                    found += 1
                }
                cell += 1
            }
        }
        return found
    }

    /// One cell's trackers, touched only when the cell changes.
    private struct CellState {
        var luminanceTracker = TransitionTracker()
        var chromaticityTracker = ChromaticityTracker()
        var hardingTracker = TransitionTracker()
    }

    /// What one picture measured.
    struct Measure {
        var meanLuminance: Double = 0
        var generalArea: (window: Float, screen: Float) = (0, 0)
        var redArea: (window: Float, screen: Float) = (0, 0)
        /// The most transitions in the last second of any cell.
        var maxCount: Int32 = 0
        /// The largest current swing of a flashing cell.
        var largestSwing: Float = 0
        /// When the oldest frame of the window of a failing kind was shown.
        var generalWindowStart: Double?
        var redWindowStart: Double?
    }

    init(grid: CellGrid) {
        self.grid = grid
        sampler = CellSampler(grid: grid)
        let cells = grid.count
        self.cells = Array(repeating: CellState(), count: cells)
        fed0 = Array(repeating: -1000, count: cells)
        fed1 = fed0
        fed2 = fed0
        luminance = Array(repeating: 0, count: cells)
        general = SlidingWindowCounter(blockCount: cells)
        red = SlidingWindowCounter(blockCount: cells)
        areaMeter = AreaMeter(
            columns: grid.columns, rows: grid.rows, windowColumns: grid.windowColumns, windowRows: grid.windowRows)
    }

    /// Analyses the next picture, shown at `time` seconds.
    mutating func analyze(
        _ picture: VideoFrame, frameHeight: Int, parity: Int, time: Double, model: ColorModel, criteria: FlashCriteria
    ) -> Measure {
        sampler.sample(picture, frameHeight: frameHeight, parity: parity)
        general.begin(frameAt: time)
        red.begin(frameAt: time)
        var measure = Measure()
        let rule = LuminanceRule(absolute: model.isAbsolute)
        let harding = criteria.redRule == .harding
        let black: Float = model.isAbsolute ? 0.6 : 0.003
        let hardingScale: Float = model.isAbsolute ? 320 / 200 : 320
        let limit = Int32(FlashCriteria.maximumTransitionsPerSecond)
        var luminanceChange: Double = 0
        let stillness = Self.stillness
        sampler.channel0.withUnsafeBufferPointer { channel0 in
            sampler.channel1.withUnsafeBufferPointer { channel1 in
                sampler.channel2.withUnsafeBufferPointer { channel2 in
                    fed0.withUnsafeMutableBufferPointer { fed0 in
                        fed1.withUnsafeMutableBufferPointer { fed1 in
                            fed2.withUnsafeMutableBufferPointer { fed2 in
                                luminance.withUnsafeMutableBufferPointer { luminance in
                                    cells.withUnsafeMutableBufferPointer { cells in
                                        let changed = Self.changedCells(
                                            (channel0, channel1, channel2), (fed0, fed1, fed2), stillness: stillness,
                                            into: &changedBuffer)
                                        for index in 0..<changed {
                                            let cell = Int(changedBuffer[index])
                                            let c0 = channel0[cell], c1 = channel1[cell], c2 = channel2[cell]
                                            (fed0[cell], fed1[cell], fed2[cell]) = (c0, c1, c2)
                                            let (r, g, b) = model.light(c0, c1, c2)
                                            let y = model.luminance(r, g, b)
                                            luminanceChange += Double(y - luminance[cell])
                                            luminance[cell] = y
                                            if cells[cell].luminanceTracker.update(y, rule: rule) { general.record(cell) }
                                            let redTransition: Bool
                                            if harding {
                                                redTransition = cells[cell].hardingTracker.update(
                                                    (r - g - b) * hardingScale, significant: { abs($0 - $1) >= 20 },
                                                    qualifies: { max($0, $1) > 20 })
                                            } else {
                                                let sum = r + g + b
                                                redTransition = cells[cell].chromaticityTracker.update(
                                                    r: r, g: g, b: b, isRed: sum > black && r >= 0.8 * sum,
                                                    chromaticity: model.chromaticity)
                                            }
                                            if redTransition { red.record(cell) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        luminanceTotal += luminanceChange
        let generalMax = general.maximum
        let redMax = red.maximum
        for cell in general.flagged {
            measure.largestSwing = max(measure.largestSwing, cells[Int(cell)].luminanceTracker.amplitude)
        }
        measure.maxCount = max(generalMax, redMax)
        measure.meanLuminance = luminanceTotal / Double(max(grid.count, 1))
        if generalMax > limit { measure.generalArea = areaMeter.measure(flagged: general.flagged, counts: general.counts, above: limit) }
        if redMax > limit { measure.redArea = areaMeter.measure(flagged: red.flagged, counts: red.counts, above: limit) }
        measure.generalWindowStart = general.windowStart
        measure.redWindowStart = red.windowStart
        return measure
    }
}

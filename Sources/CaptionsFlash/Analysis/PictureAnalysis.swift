import CCaptionsKernels
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
/// 4. the flashing cells are measured inside every 10° field and over the whole screen;
/// 5. so are flashes that move about, each at other cells (``MovingFlashMeter``).
struct PictureAnalysis {
    let grid: CellGrid
    private var sampler: CellSampler
    private var general: SlidingWindowCounter
    private var areaMeter: AreaMeter
    /// What only the main grid measures (`nil` on a second grid, which has no use for it and
    /// would hold megabytes of it at 2160p).
    private var meters: WholeGridMeters?

    /// Red transitions, and flashes that move about, general and red (``MovingFlashMeter``).
    private struct WholeGridMeters {
        let red: SlidingWindowCounter
        let movingGeneral: MovingFlashMeter
        let movingRed: MovingFlashMeter
    }
    private static let stillness: Float = 0.25
    /// The same for a cell's spread of values, whose light is second order in it: a spread that
    /// moves by 1 code (8-bit scale) changes the light of even a half-black, half-white cell by
    /// under 1 % of white, a tenth of the smallest flash, where a mean that moves by 0.25 moves it
    /// by as much as 0.3 %.
    private static let spreadStillness: Float = 1
    /// How many transitions a cell has in the last second before the next one is first asked
    /// whether it is motion (``MotionStrips``): fewer cannot make it flash, and asking costs.
    private static let judgedCount: Int32 = 6
    /// How far a cell's chroma may move (8-bit codes) for its change to be judged as motion.
    private static let chromaStillness: Float = 3
    /// How many changed cells ahead a cell's state is fetched into cache.
    private static let prefetchDistance = 12

    /// Everything kept per cell, in storage owned here (the loops over cells run without
    /// copy-on-write or exclusivity checks).
    private let store: CellStore
    private var luminanceTotal: Double = 0
    /// Σ Apple's picture level × pixels over the cells, kept up to date as cells change, and the
    /// sampler geometry it was summed for.
    private var dimFlashingLightsTotal: Double = 0
    private var pixelTotal: Double = 0
    private var summedGeometry = -1
    /// The 10° fields' own picture levels, for Apple's model run locally.
    private let fieldWindows: FieldWindows

    /// The per-cell state, one array a field (the per-change loop touches only what it needs).
    ///
    /// `fed0`–`fed2` are the channel means last fed to each cell's trackers, and `spreads` their
    /// spreads (``CellSampler``; one or three used): a cell none of whose means or spreads has
    /// moved by ``stillness`` (in 8-bit code steps) since is skipped, as it cannot complete a
    /// transition. What a changed cell updates is one 32-byte ``CellState`` (one cache miss, not
    /// three); Harding's red measure, when chosen, keeps its trackers apart.
    private final class CellStore {
        let count: Int
        let fed0, fed1, fed2: UnsafeMutablePointer<Float>
        /// Channel 1's and 2's are channel 0's until ``makeRGBSpreads()`` (YUV has one spread).
        private(set) var spreads: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
        private(set) var hasRGBSpreads = false
        /// The same pointers as the kernels take them: the means then the spreads; the spreads.
        private(set) var fedAndSpreads: [UnsafePointer<Float>?] = []
        private(set) var spreadList: [UnsafePointer<Float>?] = []
        let states: UnsafeMutablePointer<CellState>
        /// Harding's red measure's trackers, made when that measure is first asked for.
        private(set) var hardingStorage: UnsafeMutablePointer<TransitionTracker>?
        /// The cells that changed in the current picture.
        let changed: UnsafeMutablePointer<Int32>
        /// How far each changed cell's chroma (or G and B) moved since last fed, in the order of
        /// `changed` (``MotionStrips`` judges luma only).
        private(set) var chromaStorage: UnsafeMutablePointer<Float>?
        /// Linear R, G, B, luminance and Dim Flashing Lights level of each changed cell, in the
        /// order of `changed`: five planes of `count` (``ccaptions_cell_light``).
        let lights: UnsafeMutablePointer<Float>

        init(count: Int) {
            self.count = count
            func make<T>(_ value: T) -> UnsafeMutablePointer<T> {
                let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
                pointer.initialize(repeating: value, count: max(count, 1))
                return pointer
            }
            (fed0, fed1, fed2) = (make(-1000), make(-1000), make(-1000))
            let spread = make(Float(0))
            spreads = (spread, spread, spread)
            states = make(CellState())
            changed = .allocate(capacity: max(count, 1))  // written before it is read
            lights = .allocate(capacity: 5 * max(count, 1))
            listPointers()
        }

        /// Separate spreads for channels 1 and 2, from the first RGB picture on.
        func makeRGBSpreads() {
            guard !hasRGBSpreads else { return }
            hasRGBSpreads = true
            for _ in 1...2 {
                let pointer = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
                pointer.initialize(repeating: 0, count: max(count, 1))
                if spreads.1 == spreads.0 { spreads.1 = pointer } else { spreads.2 = pointer }
            }
            listPointers()
        }

        private func listPointers() {
            let constant = { (pointer: UnsafeMutablePointer<Float>) -> UnsafePointer<Float>? in UnsafePointer(pointer) }
            fedAndSpreads = [fed0, fed1, fed2, spreads.0, spreads.1, spreads.2].map(constant)
            spreadList = [spreads.0, spreads.1, spreads.2].map(constant)
        }

        /// The chroma moves, made when strips are first asked about (written before read).
        var chromaMoves: UnsafeMutablePointer<Float> {
            if let chromaStorage { return chromaStorage }
            let moves = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
            chromaStorage = moves
            return moves
        }

        /// Harding's trackers, made (each at its start) on first use.
        var hardingTrackers: UnsafeMutablePointer<TransitionTracker> {
            if let hardingStorage { return hardingStorage }
            let trackers = UnsafeMutablePointer<TransitionTracker>.allocate(capacity: max(count, 1))
            trackers.initialize(repeating: TransitionTracker(), count: max(count, 1))
            hardingStorage = trackers
            return trackers
        }

        deinit {
            for pointer in [fed0, fed1, fed2, spreads.0] { pointer.deallocate() }
            if hasRGBSpreads {
                spreads.1.deallocate()
                spreads.2.deallocate()
            }
            states.deallocate()
            hardingStorage?.deallocate()
            changed.deallocate()
            chromaStorage?.deallocate()
            lights.deallocate()
        }
    }

    /// What a changed cell updates: its luminance as last fed, and its luminance and WCAG red
    /// trackers.
    private struct CellState {
        var luminance: Float = 0
        /// Apple's Dim Flashing Lights picture level (``ColorModel/dimFlashingLightsLevel``).
        var level: Float = 0
        var luminanceTracker = TransitionTracker()
        var chromaticityTracker = ChromaticityTracker()
    }

    /// What one picture measured.
    struct Measure {
        var meanLuminance: Double = 0
        var generalArea: (window: Float, screen: Float) = (0, 0)
        var redArea: (window: Float, screen: Float) = (0, 0)
        /// The most transitions in the last second of any cell, or of any 10° field or the screen
        /// from flashes that move about.
        var maxCount: Int32 = 0
        /// Apple's average picture level: the mean display light (0–1) of every pixel.
        var averagePictureLevel: Double = 0
        /// The same for each 10° field (``FieldWindows``).
        var fieldLevels: [Double] = []
        /// The largest current swing of a flashing cell.
        var largestSwing: Float = 0
        /// The same shares for flashes that move about (``MovingFlashMeter``): of the fields and
        /// the screen they pass through more than six times a second.
        var generalMoving: (window: Float, screen: Float) = (0, 0)
        var redMoving: (window: Float, screen: Float) = (0, 0)
        /// Transitions not counted because what the cell showed moved (``MotionStrips``).
        var movedTransitions = 0
        /// When the oldest frame of the window of a failing kind was shown.
        var generalWindowStart: Double?
        var redWindowStart: Double?
    }

    /// A second grid's analysis (``CellGrid/halfCellShifted(width:height:acrossRows:)``) measures only
    /// what a shifted grid can add, general flashes in place: no red transitions, no flashes
    /// that move about (larger than a cell), no picture levels (the main grid's are Apple's).
    let isSecondGrid: Bool

    init(grid: CellGrid, secondGrid: Bool = false) {
        self.grid = grid
        isSecondGrid = secondGrid
        sampler = CellSampler(grid: grid)
        let cells = grid.count
        store = CellStore(count: cells)
        fieldWindows = FieldWindows(grid: grid)
        general = SlidingWindowCounter(blockCount: cells)
        areaMeter = AreaMeter(grid: grid)
        meters =
            secondGrid
            ? nil
            : WholeGridMeters(
                red: SlidingWindowCounter(blockCount: cells), movingGeneral: MovingFlashMeter(grid: grid),
                movingRed: MovingFlashMeter(grid: grid))
    }

    /// The analysis of `previous` carried over to another grid of the same picture (a change of
    /// size mid-stream): each new cell goes on from the old cell at its centre, with its light,
    /// its trackers and its transitions in the last second, so that a flash that straddles the
    /// change is counted whole.
    init(continuing previous: PictureAnalysis, grid: CellGrid) {
        self.init(grid: grid, secondGrid: previous.isSecondGrid)
        let old = previous.grid
        let sources = (0..<grid.count).map { cell -> Int32 in
            let (row, column) = (cell / grid.columns, cell % grid.columns)
            let oldRow = min(old.rows - 1, (2 * row + 1) * old.rows / (2 * grid.rows))
            let oldColumn = min(old.columns - 1, (2 * column + 1) * old.columns / (2 * grid.columns))
            return Int32(oldRow * old.columns + oldColumn)
        }
        let (from, to) = (previous.store, store)
        for (cell, source) in sources.enumerated() {
            let source = Int(source)
            (to.fed0[cell], to.fed1[cell], to.fed2[cell]) = (from.fed0[source], from.fed1[source], from.fed2[source])
            to.spreads.0[cell] = from.spreads.0[source]
            if from.hasRGBSpreads {
                to.makeRGBSpreads()
                (to.spreads.1[cell], to.spreads.2[cell]) = (from.spreads.1[source], from.spreads.2[source])
            }
            to.states[cell] = from.states[source]
            if let trackers = from.hardingStorage { to.hardingTrackers[cell] = trackers[source] }
            luminanceTotal += Double(to.states[cell].luminance)
        }
        general = previous.general.remapped(to: sources)
        meters = previous.meters.map {
            WholeGridMeters(
                red: $0.red.remapped(to: sources), movingGeneral: MovingFlashMeter(continuing: $0.movingGeneral, grid: grid),
                movingRed: MovingFlashMeter(continuing: $0.movingRed, grid: grid))
        }
    }

    /// Goes on under another colour model: every cell is lit anew at the next picture (its codes
    /// now stand for other light), and the light kept is multiplied by `factor` when it changes
    /// scale (SDR relative luminance and HDR cd/m²), so that transitions go on across the change.
    /// Harding's red measure is on one scale for both already.
    mutating func relight(scale factor: Float) {
        let store = store
        for cell in 0..<store.count {
            (store.fed0[cell], store.fed1[cell], store.fed2[cell]) = (-1000, -1000, -1000)
            guard factor != 1 else { continue }
            let state = store.states + cell
            state.pointee.luminance *= factor
            state.pointee.luminanceTracker.rescale(by: factor)
            state.pointee.chromaticityTracker.rescale(by: factor)
        }
        luminanceTotal *= Double(factor)
    }

    /// The strips of the picture's main grid, for a second grid (whose cells start `x`, `y` pixels
    /// into it): one set of strips serves both, and the moves found for the main grid's cells
    /// serve the second's.
    struct SharedStrips {
        let strips: MotionStrips
        let x, y: Int
    }

    /// This analysis's strips, for a second grid of the same picture.
    func sharing(x: Int, y: Int) -> SharedStrips { SharedStrips(strips: sampler.strips, x: x, y: y) }

    /// Analyses the next picture, shown at `time` seconds; a second grid's with the main grid's
    /// `sharedStrips`.
    mutating func analyze(
        _ picture: VideoFrame, frameHeight: Int, parity: Int, time: Double, model: ColorModel, criteria: FlashCriteria,
        displayPeak: Float, sharedStrips: SharedStrips? = nil
    ) -> Measure {
        general.begin(frameAt: time)
        let meters = meters
        if let meters {
            meters.red.begin(frameAt: time)
            meters.movingGeneral.begin(frameAt: time)
            meters.movingRed.begin(frameAt: time)
        }
        // A cell gains at most one transition a picture, and strips are asked about in their own
        // picture and the two after it: so only where some cell has two fewer than is judged.
        let nearlyJudged =
            max(general.maximum, meters?.red.maximum ?? 0) >= Self.judgedCount - Int32(MotionStrips.picturesBefore)
        let store = store
        // Rows of cells fed as they are summed, where the sampler can (``CellSampler``'s
        // `sample(_:frameHeight:parity:keepingStrips:feeding:)`); otherwise compared below.
        let feed = ccaptions_feed(
            fed0: store.fed0, fed1: store.fed1, fed2: store.fed2, fed_spread: store.spreads.0, changed: store.changed,
            chroma_moves: store.chromaMoves, stillness: Self.stillness, spread_stillness: Self.spreadStillness)
        let fedByRows = sampler.sample(
            picture, frameHeight: frameHeight, parity: parity, keepingStrips: nearlyJudged && sharedStrips == nil, feeding: feed)
        let whole = meters != nil
        var measure = Measure()
        let rule = LuminanceRule(absolute: model.isAbsolute)
        let harding = criteria.redRule == .harding
        let hardingTrackers = harding ? store.hardingTrackers : nil
        let black: Float = model.isAbsolute ? 0.6 : 0.003
        let hardingScale: Float = model.isAbsolute ? 320 / 200 : 320
        let limit = Int32(FlashCriteria.maximumTransitionsPerSecond)
        var luminanceChange: Double = 0
        let spreadChannels = sampler.spreadChannels
        if spreadChannels == 3 { store.makeRGBSpreads() }
        let strips = sharedStrips?.strips ?? sampler.strips
        let judging = strips.canJudge
        let chromaMoves = judging ? store.chromaMoves : nil
        let changed = fedByRows ?? sampler.withChannels { channels, spreads in
            // Every cell whose means or spreads moved by `stillness` or more since last fed.
            let now: [UnsafePointer<Float>?] = [channels.0, channels.1, channels.2, spreads.0, spreads.1, spreads.2]
            let count = ccaptions_changed_cells(
                now, store.fedAndSpreads, Int32(3 + spreadChannels), store.count, Self.stillness, Self.spreadStillness,
                store.changed)
            for index in 0..<count {
                let cell = Int(store.changed[index])
                chromaMoves?[index] = max(abs(channels.1[cell] - store.fed1[cell]), abs(channels.2[cell] - store.fed2[cell]))
                (store.fed0[cell], store.fed1[cell], store.fed2[cell]) = (channels.0[cell], channels.1[cell], channels.2[cell])
                store.spreads.0[cell] = spreads.0[cell]
                if spreadChannels == 3 { (store.spreads.1[cell], store.spreads.2[cell]) = (spreads.1[cell], spreads.2[cell]) }
            }
            return count
        }
        let pixels = sampler.cellPixels
        if summedGeometry != sampler.geometryVersion {
            // A new geometry weighs the cells anew.
            summedGeometry = sampler.geometryVersion
            dimFlashingLightsTotal = (0..<store.count).reduce(0) { $0 + Double(store.states[$1].level * pixels[$1]) }
            pixelTotal = pixels.reduce(0) { $0 + Double($1) }
            fieldWindows.recompute(count: store.count, level: { Double(store.states[$0].level) }, pixels: pixels)
        }
        var levelChange: Double = 0
        let chromaticity = model.chromaticityMap
        model.withCellKernel(displayPeak: displayPeak) {
            ccaptions_cell_light(
                $0, store.fed0, store.fed1, store.fed2, store.spreadList, store.changed, changed, store.lights, store.count)
        }
        let stateSize = MemoryLayout<CellState>.size
        // Whether a transition of `cell` that would make it count (`counts`: its transitions in the
        // last second) is what moving the picture up or down gives (``MotionStrips``).
        let cellWidth = sharedStrips.map { _ in sampler.cellWidth } ?? 0
        // In the cell itself a shift may leave less than the smallest flash moves luma (8-bit
        // codes): about 10 near SDR white, 4–5 for PQ at 100–1000 cd/m² (20 cd/m², or 1/17).
        let largestCellResidual: Float = model.isAbsolute ? 2.5 : 8
        func moved(_ cell: Int, index: Int, counts: UnsafeBufferPointer<Int32>) -> Bool {
            // A cell whose colour moved too is not judged on luma alone (a flash between colours
            // of one luma, behind moving texture, passed).
            guard let chromaMoves, counts[cell] >= Self.judgedCount, chromaMoves[index] <= Self.chromaStillness else { return false }
            let isMotion: Bool
            if let shared = sharedStrips {
                // The second grid's cell in the main grid's strips: its lines, and the main
                // columns its pixels fall in.
                let lines = sampler.lines(ofRow: cell / grid.columns)
                let left = shared.x + (cell % grid.columns) * cellWidth
                let columns = strips.column(ofPixel: left)...strips.column(ofPixel: left + cellWidth - 1)
                isMotion = strips.explainsChange(
                    picture: (lines.lowerBound + shared.y)..<(lines.upperBound + shared.y), columns: columns,
                    largestCellResidual: largestCellResidual)
            } else {
                isMotion = strips.explainsChange(cell: cell, largestCellResidual: largestCellResidual)
            }
            if isMotion { measure.movedTransitions += 1 }
            return isMotion
        }
        // The counters and meters in locals: reached through `self` or `meters`, each call retained
        // and released its object (a twelfth of a 360p scan's time).
        let (general, fieldWindows) = (general, fieldWindows)
        let (redCounter, movingGeneralMeter, movingRedMeter) = (meters?.red, meters?.movingGeneral, meters?.movingRed)
        for index in 0..<changed {
            if index &+ Self.prefetchDistance < changed {
                ccaptions_prefetch(store.states + Int(store.changed[index &+ Self.prefetchDistance]), stateSize)
            }
            let cell = Int(store.changed[index])
            let light = store.lights + index
            let (r, g, b) = (light[0], light[store.count], light[2 &* store.count])
            let (y, level) = (light[3 &* store.count], light[4 &* store.count])
            let state = store.states + cell
            let weightedChange = Double((level - state.pointee.level) * pixels[cell])
            levelChange += weightedChange
            if whole { fieldWindows.add(cell: cell, weightedChange: weightedChange) }
            state.pointee.level = level
            luminanceChange += Double(y - state.pointee.luminance)
            state.pointee.luminance = y
            if state.pointee.luminanceTracker.update(y, rule: rule), !moved(cell, index: index, counts: general.counts) {
                general.record(cell)
                movingGeneralMeter?.mark(cell, rising: state.pointee.luminanceTracker.rising)
            }
            // A red transition, and whether it is toward red.
            guard let redCounter, let movingRedMeter else { continue }
            let redTransition: Bool?
            if let hardingTrackers {
                let tracker = hardingTrackers + cell
                redTransition = tracker.pointee.update(
                    (r - g - b) * hardingScale, significant: { abs($0 - $1) >= 20 }, qualifies: { max($0, $1) > 20 })
                    ? tracker.pointee.rising : nil
            } else {
                let sum = r + g + b
                redTransition = state.pointee.chromaticityTracker.update(
                    r: r, g: g, b: b, isRed: sum > black && r >= 0.8 * sum, chromaticity: chromaticity)
                    ? state.pointee.chromaticityTracker.towardRed : nil
            }
            if let towardRed = redTransition {
                redCounter.record(cell)
                movingRedMeter.mark(cell, rising: towardRed)
            }
        }
        luminanceTotal += luminanceChange
        dimFlashingLightsTotal += levelChange
        measure.averagePictureLevel = pixelTotal > 0 ? max(0, dimFlashingLightsTotal / pixelTotal) : 0
        measure.fieldLevels = fieldWindows.levels
        let generalMax = general.maximum
        for cell in general.flagged {
            measure.largestSwing = max(measure.largestSwing, store.states[Int(cell)].luminanceTracker.amplitude)
        }
        measure.meanLuminance = luminanceTotal / Double(max(grid.count, 1))
        if generalMax > limit { measure.generalArea = areaMeter.measure(flagged: general.flagged, counts: general.counts, above: limit) }
        guard let meters else {
            measure.maxCount = generalMax
            measure.generalWindowStart = general.windowStart
            return measure
        }
        let red = meters.red
        let redMax = red.maximum
        if redMax > limit { measure.redArea = areaMeter.measure(flagged: red.flagged, counts: red.counts, above: limit) }
        let movingGeneral = meters.movingGeneral.finish(above: limit)
        let movingRed = meters.movingRed.finish(above: limit)
        measure.generalMoving = (movingGeneral.window, movingGeneral.screen)
        measure.redMoving = (movingRed.window, movingRed.screen)
        // Flashes that move about count in the area the standard measures: a field, or the screen.
        let screenWide = criteria.standard == .itu
        measure.maxCount = max(
            generalMax, redMax, screenWide ? movingGeneral.screenCount : movingGeneral.fieldCount,
            screenWide ? movingRed.screenCount : movingRed.fieldCount)
        measure.generalWindowStart = general.windowStart
        measure.redWindowStart = red.windowStart
        return measure
    }
}


/// Counts, per block, the transitions of the last second, by presentation time.
///
/// Each frame's transitions are logged (block indices in one ring buffer); when a frame falls out
/// of the window its blocks are decremented. Storage grows only until the window's worst case is
/// reached, so a steady scan allocates nothing per frame. The storage is owned here (plain
/// pointers): ``record(_:)`` runs for every transition of every cell, without copy-on-write checks.
final class SlidingWindowCounter {
    let blockCount: Int
    private let countStorage: UnsafeMutablePointer<Int32>
    /// Transitions per block in the current window.
    var counts: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: countStorage, count: blockCount) }
    /// The log of recorded blocks: a ring of `logMask + 1` (a power of two) entries.
    private var log: UnsafeMutablePointer<Int32>
    private var logMask: Int
    private var logStart = 0
    private var logCount = 0
    /// (time, number of logged blocks) for each frame in the window, oldest first; the current
    /// frame's number is `current` until the next frame begins.
    private var frames: [(time: Double, count: Int)] = []
    private var frameStart = 0
    private var current = 0
    private let window: Double
    /// How many cells have each count (index: the count), so that the largest is known without
    /// looking at every cell.
    private var histogram: UnsafeMutablePointer<Int>
    private var histogramCapacity: Int
    /// The largest count of any cell.
    private(set) var maximum: Int32 = 0
    /// The cells whose count is over ``limit`` (flashing), in no order, and each cell's place in
    /// that list (-1 when not in it): kept as counts change, so nothing scans every cell.
    private let flaggedStorage: UnsafeMutablePointer<Int32>
    private var flaggedCount = 0
    private let flaggedPlace: UnsafeMutablePointer<Int32>
    var flagged: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: flaggedStorage, count: flaggedCount) }
    /// Counts over this flag a cell.
    let limit: Int32
    /// For a weighted counter (``record(_:weight:)``): each logged transition's weight, in the
    /// same ring as `log`, and each block's sum of weights over the window.
    private var weightLog: UnsafeMutablePointer<Int32>?
    private let weightSums: UnsafeMutablePointer<Int64>?

    /// A counter of `blockCount` blocks over `window` seconds; `weighted` keeps a sum of weights
    /// per block as well (``weightSum(_:)``).
    init(
        blockCount: Int, window: Double = 1.0, limit: Int32 = Int32(FlashCriteria.maximumTransitionsPerSecond),
        weighted: Bool = false
    ) {
        self.blockCount = blockCount
        let capacity = max(blockCount, 1)
        countStorage = .allocate(capacity: capacity)
        countStorage.initialize(repeating: 0, count: capacity)
        flaggedStorage = .allocate(capacity: capacity)
        flaggedPlace = .allocate(capacity: capacity)
        flaggedPlace.initialize(repeating: -1, count: capacity)
        logMask = 1023
        log = .allocate(capacity: logMask + 1)
        histogramCapacity = 64
        histogram = .allocate(capacity: histogramCapacity)
        histogram.initialize(repeating: 0, count: histogramCapacity)
        histogram[0] = blockCount
        self.limit = limit
        self.window = window
        if weighted {
            weightLog = .allocate(capacity: logMask + 1)
            weightSums = .allocate(capacity: capacity)
            weightSums?.initialize(repeating: 0, count: capacity)
        } else {
            weightSums = nil
        }
    }

    deinit {
        countStorage.deallocate()
        flaggedStorage.deallocate()
        flaggedPlace.deallocate()
        log.deallocate()
        histogram.deallocate()
        weightLog?.deallocate()
        weightSums?.deallocate()
    }

    /// Starts a frame at `time` (seconds): frames `window` or more older leave the window.
    func begin(frameAt time: Double) {
        if !frames.isEmpty { frames[frames.count - 1].count = current }
        current = 0
        while frameStart < frames.count, frames[frameStart].time <= time - window + 1e-6 {
            for _ in 0..<frames[frameStart].count {
                let block = Int(log[logStart])
                let count = Int(countStorage[block])
                histogram[count] -= 1
                histogram[count - 1] += 1
                countStorage[block] = Int32(count - 1)
                if count - 1 == limit { unflag(block) }
                if let weightLog, let weightSums { weightSums[block] -= Int64(weightLog[logStart]) }
                logStart = (logStart + 1) & logMask
                logCount -= 1
            }
            frameStart += 1
        }
        while maximum > 0, histogram[Int(maximum)] == 0 { maximum -= 1 }
        if frameStart > 64, frameStart * 2 > frames.count {
            frames.removeFirst(frameStart)
            frameStart = 0
        }
        frames.append((time, 0))
    }

    /// Records a transition of `block` in the current frame.
    @inline(__always)
    func record(_ block: Int) {
        let count = Int(countStorage[block]) + 1
        countStorage[block] = Int32(count)
        histogram[count - 1] -= 1
        if count == histogramCapacity { growHistogram() }
        histogram[count] += 1
        if count > maximum { maximum = Int32(count) }
        if count == limit + 1 {
            flaggedPlace[block] = Int32(flaggedCount)
            flaggedStorage[flaggedCount] = Int32(block)
            flaggedCount += 1
        }
        if logCount > logMask { growLog() }
        log[(logStart + logCount) & logMask] = Int32(block)
        logCount += 1
        current += 1
    }

    /// Records a transition of `block` weighing `weight` (a weighted counter only).
    func record(_ block: Int, weight: Int32) {
        record(block)
        guard let weightLog, let weightSums else { return }
        weightLog[(logStart + logCount - 1) & logMask] = weight
        weightSums[block] += Int64(weight)
    }

    /// The sum of the weights of `block`'s transitions in the window (0 when not weighted).
    func weightSum(_ block: Int) -> Int64 { weightSums?[block] ?? 0 }

    private func unflag(_ block: Int) {
        let place = Int(flaggedPlace[block])
        flaggedCount -= 1
        let last = flaggedStorage[flaggedCount]
        if place < flaggedCount {
            flaggedStorage[place] = last
            flaggedPlace[Int(last)] = Int32(place)
        }
        flaggedPlace[block] = -1
    }

    /// A counter over another grid of the same picture that holds this one's window: its block
    /// `n` (of `sources.count`) has the transitions of block `sources[n]` here, frame by frame,
    /// so that a window measured by time goes on across a change of grid.
    func remapped(to sources: [Int32]) -> SlidingWindowCounter {
        let counter = SlidingWindowCounter(
            blockCount: sources.count, window: window, limit: limit, weighted: weightSums != nil)
        // The new blocks of each old block, as one list cut at `firsts` (old block b's are
        // targets[firsts[b]..<firsts[b + 1]]).
        var firsts = [Int](repeating: 0, count: blockCount + 1)
        for source in sources { firsts[Int(source) + 1] += 1 }
        for block in 0..<blockCount { firsts[block + 1] += firsts[block] }
        var targets = [Int32](repeating: 0, count: sources.count)
        var next = firsts
        for (block, source) in sources.enumerated() {
            targets[next[Int(source)]] = Int32(block)
            next[Int(source)] += 1
        }
        var position = logStart
        for index in frameStart..<frames.count {
            counter.begin(frameAt: frames[index].time)
            // The newest frame's blocks are counted in `current` until the next frame begins.
            let logged = index == frames.count - 1 ? current : frames[index].count
            for _ in 0..<logged {
                let old = Int(log[position])
                let weight = weightLog?[position] ?? 0
                for target in targets[firsts[old]..<firsts[old + 1]] { counter.record(Int(target), weight: weight) }
                position = (position + 1) & logMask
            }
        }
        return counter
    }

    /// The time of the oldest frame still in the window.
    var windowStart: Double? { frameStart < frames.count ? frames[frameStart].time : nil }

    private func growLog() {
        let capacity = (logMask + 1) * 2
        let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        for index in 0..<logCount { grown[index] = log[(logStart + index) & logMask] }
        log.deallocate()
        if let weightLog {
            let grownWeights = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            for index in 0..<logCount { grownWeights[index] = weightLog[(logStart + index) & logMask] }
            weightLog.deallocate()
            self.weightLog = grownWeights
        }
        (log, logMask, logStart) = (grown, capacity - 1, 0)
    }

    private func growHistogram() {
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: histogramCapacity * 2)
        grown.initialize(repeating: 0, count: histogramCapacity * 2)
        grown.update(from: histogram, count: histogramCapacity)
        histogram.deallocate()
        (histogram, histogramCapacity) = (grown, histogramCapacity * 2)
    }
}

/// The largest share of any window of `windowColumns` × `windowRows` blocks that is flagged,
/// computed with a summed-area table over the block grid.
struct AreaMeter {
    let columns: Int
    let rows: Int
    let windowColumns: Int
    let windowRows: Int
    /// What a window's flashing cells are a share of: the whole field, even where the picture
    /// is smaller (``CellGrid/windowArea``).
    let windowArea: Int
    private var table: [Int32]

    init(grid: CellGrid) {
        (columns, rows) = (grid.columns, grid.rows)
        (windowColumns, windowRows, windowArea) = (grid.windowColumns, grid.windowRows, grid.windowArea)
        table = [Int32](repeating: 0, count: (columns + 1) * (rows + 1))
    }

    /// The largest share of any window covered by `flagged` cells, and their share of the grid.
    /// When they all fit in one window (the common case: one flashing object), that window holds
    /// them all and no table is needed.
    mutating func measure(
        flagged: UnsafeBufferPointer<Int32>, counts: UnsafeBufferPointer<Int32>, above limit: Int32
    ) -> (window: Float, screen: Float) {
        guard !flagged.isEmpty else { return (0, 0) }
        var (left, right, top, bottom) = (Int.max, Int.min, Int.max, Int.min)
        for cell in flagged {
            let (row, column) = (Int(cell) / columns, Int(cell) % columns)
            (left, right, top, bottom) = (min(left, column), max(right, column), min(top, row), max(bottom, row))
        }
        let screen = Float(flagged.count) / Float(columns * rows)
        if right - left < windowColumns, bottom - top < windowRows {
            return (min(1, Float(flagged.count) / Float(windowArea)), screen)
        }
        return measure(counts, above: limit)
    }

    /// The largest share of any window whose cells count more than `limit`, and that share of
    /// the whole grid.
    mutating func measure(_ counts: UnsafeBufferPointer<Int32>, above limit: Int32) -> (window: Float, screen: Float) {
        let (columns, rows, windowColumns, windowRows, windowArea) = (columns, rows, windowColumns, windowRows, windowArea)
        let stride = columns + 1
        return table.withUnsafeMutableBufferPointer { table in
            for row in 0..<rows {
                var rowSum: Int32 = 0
                let above = row &* stride, here = (row &+ 1) &* stride, first = row &* columns
                for column in 0..<columns {
                    rowSum &+= counts[first &+ column] > limit ? 1 : 0
                    table[here &+ column &+ 1] = table[above &+ column &+ 1] &+ rowSum
                }
            }
            let total = table[rows * stride + columns]
            guard total > 0 else { return (0, 0) }
            var best: Int32 = 0
            for top in 0...(rows - windowRows) {
                let upper = top &* stride, lower = (top &+ windowRows) &* stride
                for left in 0...(columns - windowColumns) {
                    let right = left &+ windowColumns
                    let sum = table[lower &+ right] &- table[upper &+ right] &- table[lower &+ left] &+ table[upper &+ left]
                    best = max(best, sum)
                }
            }
            return (Float(best) / Float(windowArea), Float(total) / Float(columns * rows))
        }
    }
}

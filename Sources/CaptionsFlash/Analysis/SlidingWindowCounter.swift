/// Counts, per block, the transitions of the last second, by presentation time.
///
/// Each frame's transitions are logged (block indices in one ring buffer); when a frame falls out
/// of the window its blocks are decremented. Storage grows only until the window's worst case is
/// reached, so a steady scan allocates nothing per frame.
struct SlidingWindowCounter {
    /// Transitions per block in the current window.
    private(set) var counts: [Int32]
    private var log: [Int32] = []
    private var logStart = 0
    private var logCount = 0
    /// (time, number of logged blocks) for each frame in the window, oldest first.
    private var frames: [(time: Double, count: Int)] = []
    private var frameStart = 0
    private let window: Double
    /// How many cells have each count (index: the count), so that the largest is known without
    /// looking at every cell.
    private var histogram: [Int] = [0]
    /// The largest count of any cell.
    private(set) var maximum: Int32 = 0
    /// The cells whose count is over ``limit`` (flashing), in no order, and each cell's place in
    /// that list (-1 when not in it): kept as counts change, so nothing scans every cell.
    private(set) var flagged: [Int32] = []
    private var flaggedPlace: [Int32]
    /// Counts over this flag a cell.
    let limit: Int32

    init(blockCount: Int, window: Double = 1.0, limit: Int32 = Int32(FlashCriteria.maximumTransitionsPerSecond)) {
        counts = [Int32](repeating: 0, count: blockCount)
        flaggedPlace = [Int32](repeating: -1, count: blockCount)
        self.limit = limit
        self.window = window
        histogram[0] = blockCount
    }

    /// Starts a frame at `time` (seconds): frames `window` or more older leave the window.
    mutating func begin(frameAt time: Double) {
        while frameStart < frames.count, frames[frameStart].time <= time - window + 1e-6 {
            for _ in 0..<frames[frameStart].count {
                let block = Int(log[logStart])
                histogram[Int(counts[block])] -= 1
                counts[block] -= 1
                histogram[Int(counts[block])] += 1
                if counts[block] == limit { unflag(block) }
                logStart = (logStart + 1) % log.count
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
    mutating func record(_ block: Int) {
        histogram[Int(counts[block])] -= 1
        counts[block] += 1
        let count = Int(counts[block])
        if count == histogram.count { histogram.append(0) }
        histogram[count] += 1
        if counts[block] > maximum { maximum = counts[block] }
        if counts[block] == limit + 1 {
            flaggedPlace[block] = Int32(flagged.count)
            flagged.append(Int32(block))
        }
        if logCount == log.count { grow() }
        log[(logStart + logCount) % log.count] = Int32(block)
        logCount += 1
        frames[frames.count - 1].count += 1
    }

    private mutating func unflag(_ block: Int) {
        let place = Int(flaggedPlace[block])
        let last = flagged.removeLast()
        if place < flagged.count {
            flagged[place] = last
            flaggedPlace[Int(last)] = Int32(place)
        }
        flaggedPlace[block] = -1
    }

    /// The time of the oldest frame still in the window.
    var windowStart: Double? { frameStart < frames.count ? frames[frameStart].time : nil }

    private mutating func grow() {
        let old = log
        let newCapacity = max(1024, old.count * 2)
        log = [Int32](repeating: 0, count: newCapacity)
        for index in 0..<logCount { log[index] = old[(logStart + index) % max(old.count, 1)] }
        logStart = 0
    }
}

/// The largest share of any window of `windowColumns` × `windowRows` blocks that is flagged,
/// computed with a summed-area table over the block grid.
struct AreaMeter {
    let columns: Int
    let rows: Int
    let windowColumns: Int
    let windowRows: Int
    private var table: [Int32]

    init(columns: Int, rows: Int, windowColumns: Int, windowRows: Int) {
        self.columns = columns
        self.rows = rows
        self.windowColumns = min(max(windowColumns, 1), columns)
        self.windowRows = min(max(windowRows, 1), rows)
        table = [Int32](repeating: 0, count: (columns + 1) * (rows + 1))
    }

    /// The largest share of any window covered by `flagged` cells, and their share of the grid.
    /// When they all fit in one window (the common case: one flashing object), that window holds
    /// them all and no table is needed.
    mutating func measure(flagged: [Int32], counts: [Int32], above limit: Int32) -> (window: Float, screen: Float) {
        guard !flagged.isEmpty else { return (0, 0) }
        var (left, right, top, bottom) = (Int.max, Int.min, Int.max, Int.min)
        for cell in flagged {
            let (row, column) = (Int(cell) / columns, Int(cell) % columns)
            (left, right, top, bottom) = (min(left, column), max(right, column), min(top, row), max(bottom, row))
        }
        let screen = Float(flagged.count) / Float(columns * rows)
        if right - left < windowColumns, bottom - top < windowRows {
            return (min(1, Float(flagged.count) / Float(windowColumns * windowRows)), screen)
        }
        return measure(counts, above: limit)
    }

    /// The largest share of any window whose cells count more than `limit`, and that share of
    /// the whole grid.
    mutating func measure(_ counts: [Int32], above limit: Int32) -> (window: Float, screen: Float) {
        let (columns, rows, windowColumns, windowRows) = (columns, rows, windowColumns, windowRows)
        let stride = columns + 1
        return counts.withUnsafeBufferPointer { counts in
            table.withUnsafeMutableBufferPointer { table in
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
                return (Float(best) / Float(windowColumns * windowRows), Float(total) / Float(columns * rows))
            }
        }
    }
}

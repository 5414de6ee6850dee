/// Flashing that moves about: flashes large enough to count, following each other more than three
/// times a second, but never at the same place often enough for any cell to flash more than three
/// times (a bright bar hopping between the thirds of the screen, camera flashes all over a crowd).
///
/// WCAG 2.3.1 and ITU-R BT.1702 count flashes anywhere in the area measure ("the combined area of
/// flashes occurring concurrently"), not per place. Each frame, the cells that complete a
/// transition are marked by direction: a rise or a fall of light (red: toward saturated red, or
/// away). A 10° field (every position, one cell apart) in which the rises outnumber the falls, or
/// the falls the rises, by more than a quarter of its cells has a transition of its own that way,
/// like a cell's: one that goes on the way the last one went (a fade over several frames, an edge
/// sweeping through) is the same transition. So has the screen, for ITU's rule. Those transitions
/// are counted over the last second like a cell's, so a field or the screen with more than six
/// (more than three flashes) moving through it fails, whichever cells they were in.
///
/// A transition may be spread over a few frames (rows or patches of a flash switching on one
/// after another): a field is measured over this frame's marks alone and then over those of the
/// last ``spread`` seconds (a cell by its latest mark), and has a transition when either reaches
/// a quarter, so an onset spread over up to 70 ms (four frames at 60 fps) adds up as one, and a
/// flash that follows another elsewhere is still seen in this frame alone (the screen is measured
/// over each number of frames, which costs little). Rises and falls measured together cancel: a pan over texture moves as much
/// light up as down and is no flash of the field (a pattern that reverses as it hops about
/// cancels too, and is left to the per-cell count). Frames are only looked at this closely when
/// enough cells were marked for a field to reach a quarter; most frames cost one comparison.
final class MovingFlashMeter {
    private let columns: Int
    private let rows: Int
    private let windowColumns: Int
    private let windowRows: Int
    /// The field's whole area in cells (``CellGrid/windowArea``).
    private let windowArea: Int
    /// Window positions across and down (a window starts at every cell that keeps it inside).
    private let positionsAcross: Int
    private let positionsDown: Int
    /// Transitions per window position over the last second, each weighing the share of the
    /// field that moved, in ten-thousandths (a share carries over to another grid as it is).
    private var positions: SlidingWindowCounter
    /// The way each position's last transition went: 1 a rise, -1 a fall, 0 none yet.
    private let directions: UnsafeMutablePointer<Int8>
    /// Each cell's marks this frame (bit 0: rise, bit 1: fall), and the cells marked; then, while
    /// a frame is measured, each cell's latest mark over the frames looked at.
    private let marks: UnsafeMutablePointer<UInt8>
    private let marked: UnsafeMutablePointer<Int32>
    private var markedCount = 0
    private var rises = 0
    private var falls = 0
    /// The marks of the frames before this one within the spread, newest last: when, the cells
    /// and their marks, and how many rose and fell.
    private var earlier: [(time: Double, cells: [Int32], marks: [UInt8], rises: Int, falls: Int)] = []
    /// Window positions that had their say this frame (over fewer frames): those stamped with
    /// `stamp`, which goes up each frame measured.
    private let decided: UnsafeMutablePointer<UInt32>
    private var stamp: UInt32 = 0
    /// How long an onset may be spread over and still be one transition.
    static let spread = 0.07
    /// A summed-area table of the rises (low 32 bits) and falls (high 32 bits), built only in
    /// frames that can reach a quarter.
    private var table: [UInt64] = []
    /// The screen's transitions of the last second: when, and the share of the screen that
    /// moved; and the way the last one went.
    private var screenEvents: [(time: Double, share: Float)] = []
    private var eventStart = 0
    private var screenDirection: Int8 = 0
    private var time = 0.0

    /// A share of a field, in the ten-thousandths the counter weighs.
    private static let shareUnit: Float = 10_000

    /// A meter for `grid`.
    init(grid: CellGrid) {
        (columns, rows) = (grid.columns, grid.rows)
        windowColumns = min(max(grid.windowColumns, 1), grid.columns)
        windowRows = min(max(grid.windowRows, 1), grid.rows)
        windowArea = grid.windowArea
        positionsAcross = columns - windowColumns + 1
        positionsDown = rows - windowRows + 1
        positions = SlidingWindowCounter(blockCount: positionsAcross * positionsDown, weighted: true)
        directions = .allocate(capacity: positionsAcross * positionsDown)
        directions.initialize(repeating: 0, count: positionsAcross * positionsDown)
        let cells = max(grid.count, 1)
        marks = .allocate(capacity: cells)
        marks.initialize(repeating: 0, count: cells)
        marked = .allocate(capacity: cells)
        decided = .allocate(capacity: positionsAcross * positionsDown)
        decided.initialize(repeating: 0, count: positionsAcross * positionsDown)
    }

    /// The meter of `previous` carried over to another grid of the same picture: each window
    /// position goes on from the old position at the same place, with its transitions of the
    /// last second and the way the last one went.
    convenience init(continuing previous: MovingFlashMeter, grid: CellGrid) {
        self.init(grid: grid)
        let (across, down) = (previous.positionsAcross, previous.positionsDown)
        let sources = (0..<positionsAcross * positionsDown).map { position -> Int32 in
            let (row, column) = (position / positionsAcross, position % positionsAcross)
            let oldRow = min(down - 1, (2 * row + 1) * down / (2 * positionsDown))
            let oldColumn = min(across - 1, (2 * column + 1) * across / (2 * positionsAcross))
            return Int32(oldRow * across + oldColumn)
        }
        positions = previous.positions.remapped(to: sources)
        for (position, source) in sources.enumerated() { directions[position] = previous.directions[Int(source)] }
        (screenEvents, eventStart, screenDirection) = (previous.screenEvents, previous.eventStart, previous.screenDirection)
    }

    deinit {
        directions.deallocate()
        marks.deallocate()
        marked.deallocate()
        decided.deallocate()
    }

    /// Starts a frame at `time` seconds: transitions a second old or more leave the count.
    func begin(frameAt time: Double) {
        self.time = time
        positions.begin(frameAt: time)
        earlier.removeAll { time - $0.time > Self.spread - 1e-6 }
        while eventStart < screenEvents.count, screenEvents[eventStart].time <= time - 1 + 1e-6 { eventStart += 1 }
        if eventStart > 64, eventStart * 2 > screenEvents.count {
            screenEvents.removeFirst(eventStart)
            eventStart = 0
        }
    }

    /// Marks `cell` as completing a transition this frame, rising or falling.
    @inline(__always)
    func mark(_ cell: Int, rising: Bool) {
        let bit: UInt8 = rising ? 1 : 2
        if marks[cell] == 0 {
            marked[markedCount] = Int32(cell)
            markedCount &+= 1
        }
        marks[cell] |= bit
        if rising { rises &+= 1 } else { falls &+= 1 }
    }

    /// What the frame's marks add up to: the most transitions in the last second of any 10°
    /// field and of the screen, and, when either is over `limit`, the share of the field (the
    /// largest of the fields over it) and of the screen that each of those transitions moved,
    /// on average. Keeps the marks for the spread.
    func finish(above limit: Int32) -> (fieldCount: Int32, screenCount: Int32, window: Float, screen: Float) {
        let windowCells = windowArea
        let cells = columns * rows
        // This frame's own marks are the first listed (earlier frames' are added after them), and
        // are kept for the spread; a frame without marks costs nothing here.
        let (ownCount, ownRises, ownFalls) = (markedCount, rises, falls)
        defer {
            if ownCount > 0 {
                let cells = Array(UnsafeBufferPointer(start: marked, count: ownCount))
                earlier.append((time, cells, cells.map { marks[Int($0)] }, ownRises, ownFalls))
            }
            for index in 0..<markedCount { marks[Int(marked[index])] = 0 }
            (markedCount, rises, falls) = (0, 0, 0)
        }
        // At most this many cells can stand rising (or falling) over the spread.
        let mostRises = earlier.reduce(rises) { $0 + $1.rises }, mostFalls = earlier.reduce(falls) { $0 + $1.falls }
        if max(mostRises, mostFalls) * 4 > windowCells {
            stamp &+= 1
            var screenDecided = false
            // This frame alone, then with each earlier one: a cell counts by its latest mark. The
            // fields are measured over this frame and over the whole spread (the screen, cheaply,
            // over each): that finds a flash that follows another elsewhere and a spread onset.
            for frames in 0...earlier.count {
                if frames > 0 {
                    let frame = earlier[earlier.count - frames]
                    for (cell, mark) in zip(frame.cells, frame.marks) where marks[Int(cell)] == 0 {
                        marks[Int(cell)] = mark
                        marked[markedCount] = cell
                        markedCount &+= 1
                        if mark & 1 != 0 { rises &+= 1 }
                        if mark & 2 != 0 { falls &+= 1 }
                    }
                }
                if frames == 0 || frames == earlier.count, max(rises, falls) * 4 > windowCells { measureFrame(windowCells: windowCells) }
                let net = rises - falls
                if !screenDecided, abs(net) * 4 > cells {
                    screenDecided = true
                    if screenDirection != (net > 0 ? 1 : -1) {
                        screenDirection = net > 0 ? 1 : -1
                        screenEvents.append((time, Float(abs(net)) / Float(cells)))
                    }
                }
            }
        }

        let fieldCount = positions.maximum
        var (window, screen): (Float, Float) = (0, 0)
        if fieldCount > limit {
            let counts = positions.counts
            for position in positions.flagged {
                let share = Float(positions.weightSum(Int(position))) / Float(counts[Int(position)]) / Self.shareUnit
                window = max(window, share)
            }
        }
        let recent = screenEvents[eventStart...]
        let screenCount = Int32(recent.count)
        if screenCount > limit { screen = recent.reduce(0) { $0 + $1.share } / Float(screenCount) }
        return (fieldCount, screenCount, window, screen)
    }

    /// Records this frame's transitions of every field.
    private func measureFrame(windowCells: Int) {
        let stride = columns + 1
        if table.isEmpty { table = [UInt64](repeating: 0, count: stride * (rows + 1)) }
        let (columns, rows, windowColumns, windowRows) = (columns, rows, windowColumns, windowRows)
        let (across, marks, directions, decided, stamp) = (positionsAcross, marks, directions, decided, stamp)
        let positions = positions
        let unit = Int(Self.shareUnit)
        table.withUnsafeMutableBufferPointer { table in
            for row in 0..<rows {
                var rowSum: UInt64 = 0
                let above = row &* stride, here = (row &+ 1) &* stride, first = row &* columns
                for column in 0..<columns {
                    let mark = UInt64(marks[first &+ column])
                    rowSum &+= (mark & 1) | (mark >> 1) << 32
                    table[here &+ column &+ 1] = table[above &+ column &+ 1] &+ rowSum
                }
            }
            for top in 0..<(rows - windowRows + 1) {
                let upper = top &* stride, lower = (top &+ windowRows) &* stride
                for left in 0..<across {
                    let right = left &+ windowColumns
                    // Both counts at once: each half of the word is a sum of its own.
                    let both = table[lower &+ right] &- table[upper &+ right] &- table[lower &+ left] &+ table[upper &+ left]
                    let net = Int(UInt32(truncatingIfNeeded: both)) &- Int(UInt32(truncatingIfNeeded: both >> 32))
                    guard abs(net) &* 4 > windowCells else { continue }
                    let position = top &* across &+ left
                    // Over fewer frames, this field already had its say.
                    guard decided[position] != stamp else { continue }
                    decided[position] = stamp
                    let direction: Int8 = net > 0 ? 1 : -1
                    guard directions[position] != direction else { continue }
                    directions[position] = direction
                    positions.record(position, weight: Int32(abs(net) &* unit / windowCells))
                }
            }
        }
    }
}

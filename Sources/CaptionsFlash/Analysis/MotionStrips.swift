import CCaptionsKernels

/// Each line's mean luma in every cell column, of the current picture and the two before it:
/// enough to tell a cell whose light changes because what it shows moves up or down (credits
/// rolling, a tilt) from one that flashes in place.
///
/// Why: fine texture that moves changes each cell's light as it passes. White 28-pixel credits
/// rolling at 120 px/s cross a 4-pixel cell nine times a second, and a 10° field of them read as
/// flashing (a false FAIL on the end of nearly every film). The viewer's eye follows the text, and
/// what it follows does not change: that is motion, not a flash. A pattern that reverses in place
/// is different even when a shift could also explain it (a checkerboard or stripes reversing
/// is its own image moved by half a period, either way): so a change counts as motion only
/// when one shift explains it and no other does; and only when the picture before moved the same
/// way, as an eye can follow (texture shaken up and down flickers at every point).
/// (``explainsChange(lines:columns:cellLines:)``).
///
/// Values are means on the 8-bit scale (`UInt8`), which is all a shift needs: 1 MB a picture at
/// 2160p, made only when a scan comes near flashing.
final class MotionStrips {
    /// Cell columns: the values of each line.
    let columns: Int
    /// Lines of the current picture.
    private(set) var lines = 0
    /// The current picture's strips, the previous picture's and the one before.
    private var current: UnsafeMutablePointer<UInt8>
    private var previous: UnsafeMutablePointer<UInt8>
    private var older: UnsafeMutablePointer<UInt8>
    private var capacity = 0
    /// Whether the current picture's strips were written (its layout has a luma plane), and how
    /// many pictures in a row, of the same size, were written before it (up to 2).
    private var written = false
    private var writtenBefore = 0
    /// The lines of each row of cells (``setRows(_:)``).
    private var rows: [Range<Int>] = []

    /// How far a picture may move from one picture to the next, in cell heights: 3 (12 pixels at
    /// 1080p, 360 px/s at 30 fps, faster than credits roll).
    static let reach = 3
    /// How far other shifts are tried for a second explanation, in cell heights: 8 (half a
    /// degree), so that stripes whose period is up to 8 cells tall are seen to reverse.
    static let search = 8
    /// Lines compared above and below the cell, in cell heights.
    static let margin = 3
    /// The most a shift may leave unexplained, in 8-bit codes a sample on average: compression
    /// and sub-pixel motion leave 1–7 on rolled credits; a flash of 0.1 of white between
    /// light greys changes luma by at least 14.
    static let largestResidual: Float = 10
    /// How many pictures before the current one must have strips: 2 (the move before this one is
    /// compared with this one).
    static let picturesBefore = 2

    init(columns: Int) {
        self.columns = max(columns, 1)
        current = .allocate(capacity: 1)
        previous = .allocate(capacity: 1)
        older = .allocate(capacity: 1)
    }

    deinit {
        for buffer in [current, previous, older] { buffer.deallocate() }
    }

    /// Sets which lines make each row of cells.
    func setRows(_ rows: [Range<Int>]) { self.rows = rows }

    /// Whether the change of cell `cell` (of a grid of ``columns`` across) since the previous
    /// picture is motion (``explainsChange(lines:columns:cellLines:)``).
    func explainsChange(cell: Int) -> Bool {
        let row = cell / columns
        guard canJudge, row < rows.count else { return false }
        let lines = rows[row]
        let column = cell - row * columns
        return explainsChange(lines: lines, columns: column...column, cellLines: lines.count)
    }

    /// Starts a picture of `lines` lines, whose strips are written when `keeping` (the storage is
    /// made then: a scan where nothing comes near flashing has none): the last pictures' strips
    /// move back one place.
    func begin(lines: Int, keeping: Bool) {
        (current, previous, older) = (older, current, previous)
        writtenBefore = written && lines == self.lines ? min(writtenBefore + 1, Self.picturesBefore) : 0
        written = false
        self.lines = lines
        guard keeping, lines * columns > capacity else { return }
        for buffer in [current, previous, older] { buffer.deallocate() }
        capacity = lines * columns
        (current, previous, older) = (.allocate(capacity: capacity), .allocate(capacity: capacity), .allocate(capacity: capacity))
        writtenBefore = 0
    }

    /// Line `line`'s values of the current picture, one a cell column, to be written.
    func line(_ line: Int) -> UnsafeMutablePointer<UInt8> { current + line * columns }

    /// Says that every line of the current picture was written.
    func finish() { written = true }

    /// Whether this picture and the two before have strips to compare.
    var canJudge: Bool { written && writtenBefore >= Self.picturesBefore }

    /// Whether the change of a cell since the previous picture (its `lines`, its `columns`, cells
    /// `cellLines` lines tall) is what one vertical shift of the picture around it gives, and no
    /// other shift: the best shift within ``reach`` cells (to a quarter line) is not zero, leaves
    /// at most a quarter of the change and at most ``largestResidual`` unexplained, and every
    /// shift at least two lines from it within ``search`` cells leaves at least twice as much.
    func explainsChange(lines cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, cellLines height: Int) -> Bool {
        guard canJudge, height > 0 else { return false }
        let reach = Self.reach * height
        let search = Self.search * height
        let top = max(0, cellLines.lowerBound - Self.margin * height)
        let bottom = min(lines, cellLines.upperBound + Self.margin * height)
        let first = max(0, cellColumns.lowerBound - 1)
        let last = min(columns - 1, cellColumns.upperBound + 1)
        guard bottom > top else { return false }
        let needed = (bottom - top) / 2 + 1
        let (now, before, lines) = (current, previous, self.lines)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (2 * search + 1)) { buffer in
            let sums = buffer.baseAddress!
            let counts = sums + (2 * search + 1)
            // The shifts within reach first: most changes that are not motion stop there.
            let nearby = sums + (search - reach)
            ccaptions_shift_errors(now, before, lines, columns, first, last, top, bottom, Int32(reach), nearby, nearby + (2 * search + 1))
            func error(_ shift: Int) -> Float {
                let count = counts[shift + search]
                return Int(count) >= needed * (last - first + 1) ? Float(sums[shift + search]) / Float(count) : .infinity
            }
            let still = error(0)
            guard still.isFinite, still > 0 else { return false }
            var (best, smallest) = (0, still)
            for shift in -reach...reach where error(shift) < smallest { (best, smallest) = (shift, error(shift)) }
            guard best != 0 else { return false }
            if smallest > still / 2 { return false }  // not even close: no need to look farther
            ccaptions_shift_errors(now, before, lines, columns, first, last, top, bottom, Int32(search), sums, counts)
            var other = Float.infinity
            for shift in -search...search where abs(shift - best) >= 2 { other = min(other, error(shift)) }
            // Between whole lines (sub-pixel motion), when the whole shift is not close enough.
            if smallest > still / 4 || smallest > Self.largestResidual {
                for quarter in [-3, -2, -1, 1, 2, 3] {
                    smallest = min(
                        smallest,
                        residual(now, before, shift: Float(best) + Float(quarter) / 4, top: top, bottom: bottom, first: first, last: last, needed: needed))
                }
            }
            guard smallest <= still / 4, smallest <= Self.largestResidual, other >= 2 * smallest + 1 else { return false }
            // The move before this one, of the same window: the same way, about as far.
            ccaptions_shift_errors(previous, older, lines, columns, first, last, top, bottom, Int32(reach), nearby, nearby + (2 * search + 1))
            let stillBefore = error(0)
            var (earlier, earlierError) = (0, stillBefore)
            for shift in -reach...reach where error(shift) < earlierError { (earlier, earlierError) = (shift, error(shift)) }
            return earlier != 0 && earlierError <= stillBefore / 2 && abs(earlier - best) <= max(1, abs(best) / 2)
        }
    }

    /// The mean difference of a window with the previous picture moved down by `shift` lines,
    /// interpolated between lines; infinite where too few lines meet.
    private func residual(
        _ now: UnsafeMutablePointer<UInt8>, _ before: UnsafeMutablePointer<UInt8>, shift: Float, top: Int, bottom: Int,
        first: Int, last: Int, needed: Int
    ) -> Float {
        let whole = Int(shift.rounded(.down))
        let fraction = shift - Float(whole)
        let from = max(top, whole + (fraction > 0 ? 1 : 0))
        let to = min(bottom, lines + whole)
        guard to - from >= needed else { return .infinity }
        var total: Float = 0
        for y in from..<to {
            let row = now + y * columns
            let source = before + (y - whole) * columns
            for x in first...last {
                var value = Float(source[x])
                if fraction > 0 { value += (Float(source[x - columns]) - value) * fraction }
                total += abs(Float(row[x]) - value)
            }
        }
        return total / Float((to - from) * (last - first + 1))
    }
}

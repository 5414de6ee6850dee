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
/// way, as an eye can follow (texture shaken up and down flickers at every point)
/// (``move(around:columns:cellLines:)``); and only when the cell itself agrees
/// (``cellAgrees(with:lines:columns:largestCellResidual:)``).
///
/// Values are means on the 8-bit scale (`UInt8`), which is all a shift needs: 0.5 MB a picture at
/// 2160p (``halves``), made only when a scan comes near flashing.
final class MotionStrips {
    /// Cell columns: the values of each line.
    let columns: Int
    /// Strip lines of the current picture: its lines, or pairs of them (``halves``).
    private(set) var lines = 0
    /// Whether each strip line is the mean of two picture lines: where cells are 6 lines tall or
    /// more (2160p: 8), so that the strips of three pictures stay within 1.5 MB.
    private(set) var halves = false
    /// The current picture's strips, the previous picture's and the one before.
    private var current: UnsafeMutablePointer<UInt8>
    private var previous: UnsafeMutablePointer<UInt8>
    private var older: UnsafeMutablePointer<UInt8>
    private var capacity = 0
    /// Whether the current picture's strips were written (its layout has a luma plane), and how
    /// many pictures in a row, of the same size, were written before it (up to 2).
    private var written = false
    private var writtenBefore = 0
    /// The lines of each row of cells (``setRows(_:rowOfLine:columnOfPixel:)``), in strip lines.
    private var rows: [Range<Int>] = []
    /// The cell column of each pixel, and the row of cells of each line.
    private var columnOfPixel: [Int32] = []
    private var rowOfLine: [Int32] = []
    /// Rows of cells whose move is found together (``explainsChange(cell:largestCellResidual:)``).
    static let blockRows = 8
    /// Each block's move (NaN: none) and the picture it was found in.
    private var blockMoves: [Float] = []
    private var blockStamps: [UInt32] = []
    /// Counts pictures (``begin(lines:keeping:)``).
    private var picture: UInt32 = 1

    /// How far a picture may move from one picture to the next, in cell heights: 3 (12 pixels at
    /// 1080p, 360 px/s at 30 fps, faster than credits roll).
    static let reach = 3
    /// How far other shifts are tried for a second explanation, in cell heights: 8 (half a
    /// degree), so that stripes whose period is up to 8 cells tall are seen to reverse.
    static let search = 8
    /// Lines compared above and below the cell, in cell heights.
    static let margin = 3
    /// The most a shift may leave unexplained, in 8-bit codes a sample on average: compression
    /// and sub-pixel motion leave 1–7 on rolled credits; a flash of 0.1 of white changes luma by
    /// about 10 codes at the bright end, far more below.
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

    /// Sets which lines make each row of cells, the row of each line and the cell column of
    /// each pixel (``CellSampler``'s maps).
    func setRows(_ rows: [Range<Int>], rowOfLine: [Int32], columnOfPixel: [Int32]) {
        halves = (rows.map(\.count).min() ?? 0) >= 6
        (written, writtenBefore) = (false, 0)  // strips of another geometry are not compared
        let shift = halves ? 1 : 0
        self.rows = rows.map { ($0.lowerBound >> shift)..<(($0.upperBound + shift) >> shift) }
        self.columnOfPixel = columnOfPixel
        self.rowOfLine = rowOfLine
        (blockMoves, blockStamps) = ([], [])  // made when first asked for
    }

    /// Whether the change of cell `cell` (of a grid of ``columns`` across) since the previous
    /// picture is motion (``explainsChange(lines:columns:cellLines:largestCellResidual:)``). The
    /// move is found once a picture for each column of ``blockRows`` cells (their windows are
    /// nearly one: the shake of a whole 2160p picture asked it of every cell), and each cell is
    /// held to it.
    func explainsChange(cell: Int, largestCellResidual: Float) -> Bool {
        let row = cell / columns
        guard canJudge, row < rows.count else { return false }
        let column = cell - row * columns
        guard let shift = blockMove(row: row, column: column) else { return false }
        return cellAgrees(with: shift, lines: rows[row], columns: column...column, largestCellResidual: largestCellResidual)
    }

    /// The same for a cell of another grid over the same picture (a second grid, offset by half
    /// a cell): its `lines` of the picture and the cell `columns` its pixels fall in, held to the
    /// move of the block its middle is in.
    func explainsChange(picture lines: Range<Int>, columns cellColumns: ClosedRange<Int>, largestCellResidual: Float) -> Bool {
        let middle = (lines.lowerBound + lines.upperBound) / 2
        let shift = halves ? 1 : 0
        let stripLines = (lines.lowerBound >> shift)..<((lines.upperBound + shift) >> shift)
        guard canJudge, !lines.isEmpty, stripLines.upperBound <= self.lines, cellColumns.upperBound < columns,
            middle < rowOfLine.count
        else { return false }
        guard let move = blockMove(row: Int(rowOfLine[middle]), column: cellColumns.lowerBound) else { return false }
        return cellAgrees(with: move, lines: stripLines, columns: cellColumns, largestCellResidual: largestCellResidual)
    }

    /// The cell column of pixel `x` (the last for pixels past the picture).
    func column(ofPixel x: Int) -> Int {
        columnOfPixel.isEmpty ? 0 : Int(columnOfPixel[min(max(x, 0), columnOfPixel.count - 1)])
    }

    /// The move of the block of ``blockRows`` rows holding cell `row`, `column`, found once a picture.
    private func blockMove(row: Int, column: Int) -> Float? {
        if blockStamps.isEmpty {
            let blocks = (rows.count + Self.blockRows - 1) / Self.blockRows * columns
            (blockMoves, blockStamps) = ([Float](repeating: .nan, count: blocks), [UInt32](repeating: 0, count: blocks))
        }
        let block = (row / Self.blockRows) * columns + column
        if blockStamps[block] != picture {
            blockStamps[block] = picture
            let first = row - row % Self.blockRows
            let last = min(first + Self.blockRows, rows.count) - 1
            let window = rows[first].lowerBound..<rows[last].upperBound
            blockMoves[block] = move(around: window, columns: column...column, cellLines: rows[first].count) ?? .nan
        }
        let shift = blockMoves[block]
        return shift.isNaN ? nil : shift
    }

    /// Starts a picture of `lines` lines, whose strips are written when `keeping` (the storage is
    /// made then: a scan where nothing comes near flashing has none): the last pictures' strips
    /// move back one place.
    func begin(lines pictureLines: Int, keeping: Bool) {
        let lines = halves ? (pictureLines + 1) / 2 : pictureLines
        (current, previous, older) = (older, current, previous)
        picture &+= 1
        if picture == 0 {
            picture = 1
            blockStamps = [UInt32](repeating: 0, count: blockStamps.count)
        }
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
    func line(_ line: Int) -> UnsafeMutablePointer<UInt8> { current + (halves ? line >> 1 : line) * columns }

    /// Whether picture line `line` is merged into the strip line ``line(_:)`` gives (the second
    /// of a pair) rather than written.
    func merges(_ line: Int) -> Bool { halves && line & 1 == 1 }

    /// Says that every line of the current picture was written.
    func finish() { written = true }

    /// Whether this picture and the two before have strips to compare.
    var canJudge: Bool { written && writtenBefore >= Self.picturesBefore }

    /// Whether the change of a cell since the previous picture (its `lines`, its `columns`, cells
    /// `cellLines` lines tall) is what one vertical shift of the picture around it gives, as an
    /// eye can follow (``move(around:columns:cellLines:)``), and the cell itself agrees
    /// (``cellAgrees(with:lines:columns:largestCellResidual:)``).
    func explainsChange(
        lines cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, cellLines height: Int, largestCellResidual: Float
    ) -> Bool {
        guard let shift = move(around: cellLines, columns: cellColumns, cellLines: height) else { return false }
        return cellAgrees(with: shift, lines: cellLines, columns: cellColumns, largestCellResidual: largestCellResidual)
    }

    /// The vertical shift (in lines, to a quarter) that moves the previous picture onto this one
    /// around `cellLines` and `cellColumns` (cells `height` lines tall), as an eye can follow; nil
    /// when there is none:
    /// 1. the best shift within ``reach`` cells is not zero, and leaves at most a quarter of the
    ///    change and at most ``largestResidual`` unexplained;
    /// 2. the picture before moved the same way, about as far (a shake is not followed);
    /// 3. every shift at least two lines from it within ``search`` cells leaves at least twice as
    ///    much (a pattern that reverses is its own image moved half a period either way).
    func move(around cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, cellLines height: Int) -> Float? {
        guard canJudge, height > 0, !cellLines.isEmpty else { return nil }
        let reach = Self.reach * height
        let search = Self.search * height
        let top = max(0, cellLines.lowerBound - Self.margin * height)
        let bottom = min(lines, cellLines.upperBound + Self.margin * height)
        let first = max(0, cellColumns.lowerBound - 1)
        let last = min(columns - 1, cellColumns.upperBound + 1)
        guard bottom > top else { return nil }
        let needed = (bottom - top) / 2 + 1
        let (now, before, older, lines) = (current, previous, self.older, self.lines)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (2 * search + 1)) { buffer -> Float? in
            let sums = buffer.baseAddress!
            let counts = sums + (2 * search + 1)
            let nearby = sums + (search - reach)
            func errors(_ to: UnsafeMutablePointer<UInt8>, _ from: UnsafeMutablePointer<UInt8>, within range: Int) {
                let start = range == search ? sums : nearby
                ccaptions_shift_errors(to, from, lines, columns, first, last, top, bottom, Int32(range), start, start + (2 * search + 1))
            }
            func error(_ shift: Int) -> Float {
                let count = counts[shift + search]
                return Int(count) >= needed * (last - first + 1) ? Float(sums[shift + search]) / Float(count) : .infinity
            }
            func bestWithinReach() -> (shift: Int, error: Float) {
                var best = (shift: 0, error: error(0))
                for shift in -reach...reach where error(shift) < best.error { best = (shift, error(shift)) }
                return best
            }
            // 1. The shifts within reach first: most changes that are not motion stop there.
            errors(now, before, within: reach)
            let still = error(0)
            guard still.isFinite, still > 0 else { return nil }
            var (best, smallest) = bestWithinReach()
            guard best != 0, smallest <= still / 2 else { return nil }
            var shift = Float(best)
            if smallest > still / 4 || smallest > Self.largestResidual {
                // Between whole lines (sub-pixel motion).
                for quarter in [-3, -2, -1, 1, 2, 3] {
                    let candidate = Float(best) + Float(quarter) / 4
                    let value = residual(now, before, shift: candidate, top: top, bottom: bottom, first: first, last: last, needed: needed)
                    if value < smallest { (smallest, shift) = (value, candidate) }
                }
            }
            guard smallest <= still / 4, smallest <= Self.largestResidual else { return nil }
            // 2. The move before this one, of the same window: the same way, about as far.
            errors(before, older, within: reach)
            let (earlier, earlierError) = bestWithinReach()
            guard earlier != 0, earlierError <= error(0) / 2, abs(earlier - best) <= max(1, abs(best) / 2) else { return nil }
            // 3. No other shift.
            errors(now, before, within: search)
            var other = Float.infinity
            for shift in -search...search where abs(shift - best) >= 2 { other = min(other, error(shift)) }
            return other >= 2 * smallest + 1 ? shift : nil
        }
    }

    /// Whether `shift` explains the change of the cell itself (its `lines` and `columns`), to an
    /// eighth of a line either way within half a line (sub-pixel motion over a few lines): it
    /// leaves at most `largestCellResidual` and half the cell's change (a flash smaller than the
    /// window around it is not diluted by the window's motion, and no shift makes a cell of one
    /// light another).
    func cellAgrees(with shift: Float, lines cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, largestCellResidual: Float) -> Bool {
        let (top, bottom, first, last) = (cellLines.lowerBound, cellLines.upperBound, cellColumns.lowerBound, cellColumns.upperBound)
        var inCell = Float.infinity
        for eighth in -4...4 {
            inCell = min(
                inCell,
                residual(current, previous, shift: shift + Float(eighth) / 8, top: top, bottom: bottom, first: first, last: last, needed: 1))
        }
        let change = residual(current, previous, shift: 0, top: top, bottom: bottom, first: first, last: last, needed: 1)
        return inCell <= largestCellResidual && inCell <= change / 2
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

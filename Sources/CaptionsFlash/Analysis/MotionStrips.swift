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
    private(set) var current: UnsafeMutablePointer<UInt8>
    private(set) var previous: UnsafeMutablePointer<UInt8>
    private(set) var older: UnsafeMutablePointer<UInt8>
    /// Each line's spread a cell column, in the same three pictures: what a line's mean cannot
    /// show (single-pixel texture). A flash between a checkerboard of single pixels and flat grey
    /// of its mean, behind rolling text, changed no line's mean: the text's motion explained
    /// every change, a false PASS. A cell's change is motion only where the shift explains its
    /// texture too (``cellAgrees(with:lines:columns:largestCellResidual:)``).
    private(set) var currentTexture: UnsafeMutablePointer<UInt8>
    private(set) var previousTexture: UnsafeMutablePointer<UInt8>
    private(set) var olderTexture: UnsafeMutablePointer<UInt8>
    /// The same three, column by column, where a move is searched (contiguous lines, so that a
    /// shift is an offset): each column gathered from the lines when first needed in its picture
    /// (``byColumns(_:_:)``; neighbouring windows share columns), and the picture it was gathered
    /// for (``picture`` counts them).
    var currentColumns: UnsafeMutablePointer<UInt8>
    var previousColumns: UnsafeMutablePointer<UInt8>
    var olderColumns: UnsafeMutablePointer<UInt8>
    var gathered: (current: [UInt32], previous: [UInt32], older: [UInt32]) = ([], [], [])
    /// How many values each picture's strips have room for, and each column-by-column copy
    /// (made when a move is first searched).
    private(set) var capacity = 0
    var columnsCapacity = 0
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
    /// What each block's search within reach found, and in which picture: the next picture's
    /// move before it (``move(around:columns:cellLines:block:)``, step 2) is the same search over
    /// the same strips, so it is not made twice.
    private var reachResults: [ReachResult] = []

    /// Each column's errors for the block row searched last (``sumColumnErrors``), and for which
    /// picture and block row each column's were found.
    var columnErrorStorage: UnsafeMutablePointer<UInt32>?
    /// The widest search kept for a column: each column's sums and counts take twice this.
    var columnErrorStride = 0
    var columnErrorStamps: [UInt64] = []

    private struct ReachResult {
        var stamp: UInt32 = 0
        var best: Int = 0
        var bestError: Float = 0
        var still: Float = 0
    }
    /// Counts pictures (``begin(lines:keeping:)``).
    private(set) var picture: UInt32 = 3

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
    /// How far a move between two lines may fall outside them, as a shift of their difference
    /// (3: an eighth). Cubic and Lanczos filters ring at an edge, by 7–13 % of it: sharp credits
    /// scaled 2× down by a bicubic filter and rolling 2.5 lines a picture at 1080p read as
    /// flashing (29 % of a field). Where the two lines are one value (the flat parts between
    /// strokes) there is no room.
    static let overshootShift: UInt8 = 3
    /// How many pictures before the current one must have strips: 2 (the move before this one is
    /// compared with this one).
    static let picturesBefore = 2

    init(columns: Int) {
        self.columns = max(columns, 1)
        current = .allocate(capacity: 1)
        previous = .allocate(capacity: 1)
        older = .allocate(capacity: 1)
        (currentTexture, previousTexture, olderTexture) = (.allocate(capacity: 1), .allocate(capacity: 1), .allocate(capacity: 1))
        (currentColumns, previousColumns, olderColumns) = (.allocate(capacity: 1), .allocate(capacity: 1), .allocate(capacity: 1))
    }

    deinit {
        for buffer in [current, previous, older, currentTexture, previousTexture, olderTexture] { buffer.deallocate() }
        for buffer in [currentColumns, previousColumns, olderColumns] { buffer.deallocate() }
        columnErrorStorage?.deallocate()
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
        (blockMoves, blockStamps, reachResults) = ([], [], [])  // made when first asked for
        columnErrorStamps = [UInt64](repeating: 0, count: columnErrorStamps.count)
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

    /// The mean height of a row of cells in strip lines: where rows are not all as tall (720p:
    /// 2 and 3 lines), reach and search are the same for every row (a row of 2 lines reached 6
    /// lines, not 3 cells' 8, and credits rolling 8 lines a picture read as flashing there).
    private var cellHeight: Float {
        guard let top = rows.first?.lowerBound, let bottom = rows.last?.upperBound else { return 0 }
        return Float(bottom - top) / Float(rows.count)
    }

    /// Each block's move, stamp and search within reach, made when a block is first asked for.
    private func makeBlockStorage() {
        guard blockStamps.isEmpty else { return }
        let blocks = (rows.count + Self.blockRows - 1) / Self.blockRows * columns
        (blockMoves, blockStamps) = ([Float](repeating: .nan, count: blocks), [UInt32](repeating: 0, count: blocks))
        reachResults = [ReachResult](repeating: ReachResult(), count: blocks)
    }

    /// The move of the block of ``blockRows`` rows holding cell `row`, `column`, found once a picture.
    private func blockMove(row: Int, column: Int) -> Float? {
        makeBlockStorage()
        let block = (row / Self.blockRows) * columns + column
        if blockStamps[block] != picture {
            blockStamps[block] = picture
            let first = row - row % Self.blockRows
            let last = min(first + Self.blockRows, rows.count) - 1
            let window = rows[first].lowerBound..<rows[last].upperBound
            blockMoves[block] = move(around: window, columns: column...column, cellLines: cellHeight, block: block) ?? .nan
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
        (currentTexture, previousTexture, olderTexture) = (olderTexture, currentTexture, previousTexture)
        (currentColumns, previousColumns, olderColumns) = (olderColumns, currentColumns, previousColumns)
        gathered = (gathered.older, gathered.current, gathered.previous)
        picture &+= 1
        if picture <= 2 {
            // Past 2^32 pictures: no stamp may be taken for a picture's (0 is none, 1 and 2 the
            // pictures before 3).
            picture = 3
            blockStamps = [UInt32](repeating: 0, count: blockStamps.count)
            reachResults = [ReachResult](repeating: ReachResult(), count: reachResults.count)
            columnErrorStamps = [UInt64](repeating: 0, count: columnErrorStamps.count)
            gathered = ([], [], [])
        }
        writtenBefore = written && lines == self.lines ? min(writtenBefore + 1, Self.picturesBefore) : 0
        written = false
        self.lines = lines
        guard keeping, lines * columns > capacity else { return }
        for buffer in [current, previous, older, currentTexture, previousTexture, olderTexture] { buffer.deallocate() }
        capacity = lines * columns
        (current, previous, older) = (.allocate(capacity: capacity), .allocate(capacity: capacity), .allocate(capacity: capacity))
        (currentTexture, previousTexture, olderTexture) = (
            .allocate(capacity: capacity), .allocate(capacity: capacity), .allocate(capacity: capacity)
        )
        // Flat until written (a picture's strips are written whole, means and spreads together).
        for buffer in [currentTexture, previousTexture, olderTexture] { buffer.initialize(repeating: 0, count: capacity) }
        writtenBefore = 0
    }

    /// Line `line`'s values of the current picture, one a cell column, to be written.
    func line(_ line: Int) -> UnsafeMutablePointer<UInt8> { current + (halves ? line >> 1 : line) * columns }

    /// Line `line`'s spreads of the current picture, one a cell column, to be written.
    func textureLine(_ line: Int) -> UnsafeMutablePointer<UInt8> { currentTexture + (halves ? line >> 1 : line) * columns }

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
        lines cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, cellLines height: Float, largestCellResidual: Float
    ) -> Bool {
        guard let shift = move(around: cellLines, columns: cellColumns, cellLines: height) else { return false }
        return cellAgrees(with: shift, lines: cellLines, columns: cellColumns, largestCellResidual: largestCellResidual)
    }

    /// The vertical shift (in whole lines, or the half line between two for a move between them)
    /// that moves the previous picture onto this one around `cellLines` and `cellColumns` (cells
    /// `height` lines tall on average), as an eye can follow; nil when there is none:
    /// 1. the best shift within ``reach`` cells is not zero, and leaves at most a quarter of the
    ///    change and at most ``largestResidual`` unexplained;
    /// 2. the picture before moved the same way, about as far (a shake is not followed);
    /// 3. every shift at least two lines from it within ``search`` cells, whole or between two
    ///    lines, leaves at least twice as much and a code more (a pattern that reverses is its own
    ///    image moved half a period either way).
    ///
    /// For a `block` (``blockMove(row:column:)``) what the search within reach found is kept for
    /// the next picture's step 2.
    func move(around cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, cellLines height: Float, block: Int? = nil) -> Float? {
        guard canJudge, height > 0, !cellLines.isEmpty else { return nil }
        // In whole lines, the cell heights rounded up (1080p: 12, 32 and 12; 720p: 8, 22 and 8).
        func lines(_ cells: Int) -> Int { Int((Float(cells) * height - 0.001).rounded(.up)) }
        let (reach, search, margin) = (lines(Self.reach), lines(Self.search), lines(Self.margin))
        let top = max(0, cellLines.lowerBound - margin)
        let bottom = min(self.lines, cellLines.upperBound + margin)
        let first = max(0, cellColumns.lowerBound - 1)
        let last = min(columns - 1, cellColumns.upperBound + 1)
        guard bottom > top else { return nil }
        let needed = (bottom - top) / 2 + 1
        let (now, before, lines) = (current, previous, self.lines)
        let (nowColumns, beforeColumns, olderColumns) = (
            byColumns(.current, first...last), byColumns(.previous, first...last), byColumns(.older, first...last)
        )
        let width = 2 * search + 1
        if block != nil { makeBlockStorage() }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * width) { buffer -> Float? in
            // This picture against the one before at every shift within search, and (step 2) the
            // one before against the one before it within reach.
            let (sums, counts) = (buffer.baseAddress!, buffer.baseAddress! + width)
            let (earlierSums, earlierCounts) = (counts + width, counts + 2 * width)
            if let block {
                sumColumnErrors(
                    blockRow: block / columns, columns: first...last, top: top, bottom: bottom, search: search, sums: sums,
                    counts: counts)
            } else {
                ccaptions_shift_errors(nowColumns, beforeColumns, lines, first, last, top, bottom, Int32(search), sums, counts)
            }
            func error(_ shift: Int, _ sums: UnsafeMutablePointer<UInt32>, _ counts: UnsafeMutablePointer<UInt32>) -> Float {
                let count = counts[shift + search]
                return Int(count) >= needed * (last - first + 1) ? Float(sums[shift + search]) / Float(count) : .infinity
            }
            func bestWithinReach(_ sums: UnsafeMutablePointer<UInt32>, _ counts: UnsafeMutablePointer<UInt32>) -> (shift: Int, error: Float) {
                var best = (shift: 0, error: error(0, sums, counts))
                for shift in -reach...reach where error(shift, sums, counts) < best.error { best = (shift, error(shift, sums, counts)) }
                return best
            }
            // 1. The shifts within reach first: most changes that are not motion stop there.
            let still = error(0, sums, counts)
            var (best, smallest) = bestWithinReach(sums, counts)
            var earlierSearch: ReachResult?
            if let block, block < reachResults.count {
                if reachResults[block].stamp == picture &- 1 { earlierSearch = reachResults[block] }
                reachResults[block] = ReachResult(stamp: picture, best: best, bestError: smallest, still: still)
            }
            guard still.isFinite, still > 0 else { return nil }
            guard best != 0, smallest <= still / 2 else { return nil }
            var shift = Float(best)
            if smallest > still / 4 || smallest > Self.largestResidual {
                // Between whole lines (sub-pixel motion): the half line either side stands for any
                // move between the two (``residual(_:_:shift:top:bottom:first:last:needed:)``).
                for candidate in [Float(best) - 0.5, Float(best) + 0.5] {
                    let value = residual(now, before, shift: candidate, top: top, bottom: bottom, first: first, last: last, needed: needed)
                    if value < smallest { (smallest, shift) = (value, candidate) }
                }
            }
            guard smallest <= still / 4, smallest <= Self.largestResidual else { return nil }
            // 2. The move before this one, of the same window: the same way, about as far.
            let (earlier, earlierError, earlierStill): (Int, Float, Float)
            if let earlierSearch {
                (earlier, earlierError, earlierStill) = (earlierSearch.best, earlierSearch.bestError, earlierSearch.still)
            } else {
                let offset = search - reach
                ccaptions_shift_errors(
                    beforeColumns, olderColumns, lines, first, last, top, bottom, Int32(reach), earlierSums + offset,
                    earlierCounts + offset)
                ((earlier, earlierError), earlierStill) = (bestWithinReach(earlierSums, earlierCounts), error(0, earlierSums, earlierCounts))
            }
            guard earlier != 0, earlierError <= earlierStill / 2, abs(earlier - best) <= max(1, abs(best) / 2) else { return nil }
            // 3. No other shift, whole or between whole lines (stripes of 10.67 lines drifting 2.67
            // a picture: moved 8 lines back they match exactly, and as well 2.67 on, which only a
            // span finds).
            var other = Float.infinity
            for whole in -search...search where abs(Float(whole) - shift) >= 2 { other = min(other, error(whole, sums, counts)) }
            guard other >= 2 * smallest + 1 else { return nil }
            let (spanSums, spanCounts) = (earlierSums, earlierCounts)  // step 2 is done with them
            // Only spans that a bound does not rule out are measured (a dense scan measured every
            // span of every block, and took twice as long): ``ccaptions_wanted_spans``.
            let measured = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width + 4 * (bottom - top + 2 * search + 2)) {
                buffer -> Bool in
                let wanted = buffer.baseAddress!
                let steps = UnsafeMutableRawPointer(wanted + width).alignedUp(for: UInt32.self).assumingMemoryBound(to: UInt32.self)
                guard
                    ccaptions_wanted_spans(
                        sums, counts, Int32(search), shift, 2 * smallest + 1, beforeColumns, lines, first, last, top, bottom,
                        UInt32(needed * (last - first + 1)), steps, wanted) != 0
                else { return false }
                ccaptions_span_errors(
                    nowColumns, beforeColumns, lines, first, last, top, bottom, Int32(search), wanted, spanSums, spanCounts)
                return true
            }
            if measured {
                for whole in -search..<search where abs(Float(whole) + 0.5 - shift) >= 2 {
                    other = min(other, error(whole, spanSums, spanCounts))
                }
            }
            return other >= 2 * smallest + 1 ? shift : nil
        }
    }

    /// Whether `shift` explains the change of the cell itself (its `lines` and `columns`), or a
    /// move near it (sub-pixel motion over a few lines): the shift, or the whole lines and the
    /// spans between lines within half a line of it, so that a whole shift s stands for any move
    /// from s − 1 to s + 1, and a half line for the two lines either side of it. The move leaves
    /// at most `largestCellResidual` and half the cell's change (a flash smaller than the window
    /// around it is not diluted by the window's motion, and no shift makes a cell of one light
    /// another); and of the change of its lines' spreads (texture finer than a cell column) at
    /// most half, or `largestCellResidual` where they hardly changed.
    func cellAgrees(with shift: Float, lines cellLines: Range<Int>, columns cellColumns: ClosedRange<Int>, largestCellResidual: Float) -> Bool {
        let (top, bottom, first, last) = (cellLines.lowerBound, cellLines.upperBound, cellColumns.lowerBound, cellColumns.upperBound)
        // The buffers in locals: each read of a stored property of this class is an access check.
        let (now, before, nowTexture, beforeTexture) = (current, previous, currentTexture, previousTexture)
        let change = residual(now, before, shift: 0, top: top, bottom: bottom, first: first, last: last, needed: 1)
        let allowed = min(largestCellResidual, change / 2)
        // The texture's allowance, found once where a shift first explains the means.
        var textureAllowed: Float?
        // The shift itself first, then the whole lines and the spans between lines within half a
        // line of it: the first that leaves little enough answers (the least of them all would
        // answer the same). A span's residual is the same for any move inside it.
        let whole = shift.rounded(.down)
        let (second, third) = shift == whole ? (shift - 0.5, shift + 0.5) : (whole, whole + 1)
        for index in 0..<3 {  // (no array a call: this runs for every cell a dense scan asks about)
            let moved = index == 0 ? shift : index == 1 ? second : third
            let inCell = residual(now, before, shift: moved, top: top, bottom: bottom, first: first, last: last, needed: 1)
            guard inCell <= allowed else { continue }
            let limit = textureAllowed ?? max(
                largestCellResidual,
                residual(nowTexture, beforeTexture, shift: 0, top: top, bottom: bottom, first: first, last: last, needed: 1) / 2)
            textureAllowed = limit
            let texture = residual(nowTexture, beforeTexture, shift: moved, top: top, bottom: bottom, first: first, last: last, needed: 1)
            if texture <= limit { return true }
        }
        return false
    }

    /// The mean difference of a window with the previous picture moved down by `shift` lines;
    /// infinite where too few lines meet. For a shift between whole lines, a value between the
    /// two lines it falls between, or past them by an eighth of their difference
    /// (``overshootShift``), differs by nothing, and one farther out by its distance from there:
    /// a move of a fraction of a line is drawn and scaled by filters of every kind (box, cubic, in
    /// linear light or in codes), and none of them gives the straight mix of the two lines
    /// (credits rolling 4.67 lines a picture, after a scale from 1080p to 720p, left up to 11
    /// codes against that mix, and read as flashing). Where both lines hold the same value, as in
    /// the flat parts between strokes, the value must still be theirs: a flash there is not a move.
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
                let value = Float(row[x])
                let at = Float(source[x])
                if fraction > 0 {
                    let next = Float(source[x - columns])
                    let (low, high) = (min(at, next), max(at, next))
                    let overshoot = Float(UInt8(high - low) >> Self.overshootShift)
                    total += max(0, value - (high + overshoot), (low - overshoot) - value)
                } else {
                    total += abs(value - at)
                }
            }
        }
        return total / Float((to - from) * (last - first + 1))
    }
}

import CaptionsCore

/// One of a CEA-608 decoder's two caption memories: 15 rows of 32 character cells.
///
/// Rows hold more than 32 cells: text that runs past the last column (which a television
/// draws over its last cell) is kept, and reported, rather than lost in conversion.
struct CEA608Memory: Equatable {
    /// Rows and columns of the caption grid.
    static let rows = 15, columns = 32
    /// Cells kept a row, past the grid's 32.
    static let storedColumns = 160

    /// A character cell: what it shows and how.
    struct Cell: Equatable {
        /// nil: nothing (the video shows through).
        var character: Unicode.Scalar?
        var style: CellStyle
        /// The space a mid-row code shows (left out of the text beside another space).
        var isCodeSpace = false

        static let empty = Cell(character: nil, style: .plain)
    }

    /// The rows, each as long as its last cell that is not empty (so that empty rows cost nothing
    /// and equal screens compare equal).
    private var lines = [[Cell]](repeating: [], count: rows)

    /// Whether no cell shows anything.
    var isEmpty: Bool { lines.allSatisfy { $0.isEmpty } }

    /// The cell at `row` (1–15), `column` (0–159).
    subscript(row: Int, column: Int) -> Cell {
        let line = lines[row - 1]
        return column < line.count ? line[column] : .empty
    }

    /// Sets a cell; returns whether anything changed.
    @discardableResult
    mutating func set(row: Int, column: Int, to cell: Cell) -> Bool {
        guard self[row, column] != cell else { return false }
        if cell == .empty {
            lines[row - 1][column] = cell
            trim(row)
        } else {
            if lines[row - 1].count <= column {
                lines[row - 1].append(contentsOf: repeatElement(.empty, count: column + 1 - lines[row - 1].count))
            }
            lines[row - 1][column] = cell
        }
        return true
    }

    private mutating func trim(_ row: Int) {
        while lines[row - 1].last == .empty { lines[row - 1].removeLast() }
    }

    mutating func clear() {
        guard !isEmpty else { return }
        self = CEA608Memory()
    }

    /// Empties a row from `column` on; returns whether anything changed.
    @discardableResult
    mutating func clear(row: Int, from column: Int = 0) -> Bool {
        guard column < lines[row - 1].count else { return false }
        lines[row - 1].removeSubrange(column...)
        trim(row)
        return true
    }

    /// Copies a row over another; returns whether anything changed.
    @discardableResult
    mutating func copy(row source: Int, to target: Int) -> Bool {
        guard lines[target - 1] != lines[source - 1] else { return false }
        lines[target - 1] = lines[source - 1]
        return true
    }
}

extension CEA608Memory {
    /// The rows that show something, top to bottom: row number, first column, and the cells
    /// from the first to the last that show a character (empty cells between are spaces).
    var visibleRows: [(row: Int, column: Int, cells: [Cell])] {
        var rows: [(Int, Int, [Cell])] = []
        for row in 1...Self.rows where !lines[row - 1].isEmpty {
            let line = lines[row - 1]
            guard let first = line.firstIndex(where: { $0.character.map { $0 != " " } ?? false }),
                let last = line.lastIndex(where: { $0.character.map { $0 != " " } ?? false })
            else { continue }
            // A mid-row code's space beside another space is the same gap: a run of blank cells
            // shows as its real spaces, or, made only of codes' spaces (a colour then italics), as
            // one space, the last code's.
            func isBlank(_ index: Int) -> Bool { (line[index].character ?? " ") == " " }
            let shown = line[first...last].indices.filter { index in
                guard line[index].isCodeSpace else { return true }
                var (start, end) = (index, index)
                while isBlank(start - 1) { start -= 1 }
                while isBlank(end + 1) { end += 1 }
                return index == end && line[start...end].allSatisfy(\.isCodeSpace)
            }
            rows.append((row, first - line.startIndex, shown.map { line[$0] }))
        }
        return rows
    }

    /// The memory as a cue's text and placement: styled runs, rows joined by line breaks, and
    /// WebVTT settings that put the text where a 608 decoder shows it (the grid fills the middle
    /// 80 % of the picture, as CEA-608's safe title area).
    func cueParts() -> (content: [InlineNode], settings: CueSettings)? {
        let rows = visibleRows
        guard !rows.isEmpty else { return nil }
        let text = rows.map { row in
            row.cells.map { StyledCharacter(character: Character($0.character ?? " "), style: $0.style) }
        }
        return (CharacterGrid.content(of: text), Self.placement(rows.map { ($0.row, $0.column, $0.cells.count) }))
    }

    /// Settings for rows at (row, first column, width): the top row sets the line; rows that share
    /// a left edge are left-aligned there, rows that share a centre are centred on it, rows that
    /// share only a right edge are right-aligned on it (also when their centres are a column
    /// apart: a centring writer puts them less than one apart), others are left-aligned at the
    /// leftmost column; one row is centred only near the middle.
    static func placement(_ rows: [(row: Int, column: Int, width: Int)]) -> CueSettings {
        let rowHeight = 80.0 / Double(Self.rows), columnWidth = 80.0 / Double(Self.columns)
        var settings = CueSettings()
        settings.snapToLines = false
        settings.line = .value(rounded(10 + Double(rows[0].row - 1) * rowHeight))
        let centres = rows.map { Double($0.column) + Double($0.width) / 2 }
        let lefts = rows.map(\.column)
        // One row is centred when it sits about the middle of the screen, else it is placed by its left edge.
        let leftAligned = rows.count > 1
            ? lefts.allSatisfy({ $0 == lefts[0] }) || centres.max()! - centres.min()! > 1
            : abs(centres[0] - Double(Self.columns) / 2) > 1.5
        let rights = rows.map { $0.column + $0.width }
        // Rows centred on one centre are within a column of it, less than one apart; a whole
        // column apart and sharing a right edge, they are right-aligned.
        let offCentre = rows.count > 1 && centres.max()! - centres.min()! >= 1
        if leftAligned || offCentre, rows.count > 1, !lefts.allSatisfy({ $0 == lefts[0] }),
            rights.allSatisfy({ $0 == rights[0] }), rights[0] <= Self.columns
        {
            settings.align = .right
            settings.position = rounded(10 + Double(rights[0]) * columnWidth)
            settings.positionAlign = .lineRight
            settings.size = rounded(settings.position! - 10)
        } else if leftAligned {
            // Damaged input can place text past the last column (tabs after an indent): kept on screen.
            let left = min(lefts.min()!, Self.columns - 1)
            settings.align = .left
            settings.position = rounded(10 + Double(left) * columnWidth)
            settings.positionAlign = .lineLeft
            settings.size = rounded(90 - settings.position!)
        } else {
            let centre = Self.centre(of: rows, near: (centres.max()! + centres.min()!) / 2)
            let position = min(90, max(10, 10 + centre * columnWidth))
            settings.align = .center
            settings.position = rounded(position)
            settings.positionAlign = .center
            settings.size = rounded(2 * min(position, 100 - position))
        }
        return settings
    }

    /// The centre, in columns, that puts every row back where it is when centred rows are written
    /// (each at the nearest column to the centre less half its width, kept on the screen), nearest
    /// `estimate`: a row pushed in by the screen's edge is off the others' centre, and their mean
    /// moved the others a column when written again.
    static func centre(of rows: [(row: Int, column: Int, width: Int)], near estimate: Double) -> Double {
        var (low, high) = (-Double.infinity, Double.infinity)
        for row in rows {
            let half = Double(row.width) / 2
            let atLeft = row.column <= 0, atRight = row.column >= Self.columns - row.width
            // round(c − half) == column for a row inside; at an edge, anything beyond it too.
            if !atLeft { low = max(low, Double(row.column) + half - 0.5) }
            if !atRight { high = min(high, Double(row.column) + half + 0.5) }
        }
        guard low < high else { return estimate }
        if estimate >= low, estimate < high { return estimate }
        switch (low.isFinite, high.isFinite) {
        case (true, true): return (low + high) / 2
        case (true, false): return low + 0.25
        case (false, true): return high - 0.25
        case (false, false): return estimate
        }
    }

    /// A percentage to three decimals, as people write them.
    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

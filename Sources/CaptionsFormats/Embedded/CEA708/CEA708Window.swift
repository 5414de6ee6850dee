import CaptionsCore

/// One of a CEA-708 service's eight windows: a grid of rows that text is written into at the
/// pen, shown or hidden as a whole, anchored somewhere on the screen (CEA-708-E §8.4).
///
/// Rows keep text past the window's column count (a decoder would wrap or cut it) rather than
/// lose it in conversion.
struct CEA708Window: Equatable {
    var visible = false
    var rowCount = 1
    var columnCount = 32
    /// The anchor: vertical and horizontal, in percent when `relative`, else on the 75 × 210 grid.
    var anchorVertical = 0
    var anchorHorizontal = 0
    var relative = false
    /// Which point of the window sits at the anchor: 0 top left … 8 bottom right, row by row.
    var anchorPoint = 0
    /// 0 left, 1 right, 2 centre, 3 full.
    var justify = 0
    var rows: [[CEA608Memory.Cell]] = [[]]
    var penRow = 0
    var penColumn = 0
    var penStyle = CellStyle.plain

    /// Rows the window keeps at most, and cells a row (past the 32 or 42 columns a window has).
    static let maximumRows = 15, maximumCells = 160

    /// Applies a DefineWindow command's six parameter bytes; `fresh` for a window not defined yet.
    mutating func define(_ p: [UInt8], fresh: Bool) {
        visible = p[0] & 0x20 != 0
        relative = p[1] & 0x80 != 0
        anchorVertical = Int(p[1] & 0x7F)
        anchorHorizontal = Int(p[2])
        anchorPoint = min(8, Int(p[3] >> 4))
        rowCount = min(Self.maximumRows, Int(p[3] & 0x0F) + 1)
        columnCount = Int(p[4] & 0x3F) + 1
        if fresh {
            rows = Array(repeating: [], count: rowCount)
            (penRow, penColumn, penStyle, justify) = (0, 0, .plain, 0)
        } else if rows.count != rowCount {
            // Fewer rows keep the bottom ones (as roll-up text), more are added below.
            rows = rows.count > rowCount ? Array(rows.suffix(rowCount)) : rows + Array(repeating: [], count: rowCount - rows.count)
            penRow = min(penRow, rowCount - 1)
        }
    }

    /// Writes a character at the pen and moves it on.
    mutating func write(_ character: Unicode.Scalar) {
        guard penColumn < Self.maximumCells else { return }
        var row = rows[penRow]
        if row.count <= penColumn { row += Array(repeating: .empty, count: penColumn + 1 - row.count) }
        row[penColumn] = CEA608Memory.Cell(character: character, style: penStyle)
        rows[penRow] = row
        penColumn += 1
    }

    /// Backspace: the cell before the pen is emptied.
    mutating func backspace() {
        guard penColumn > 0 else { return }
        penColumn -= 1
        if penColumn < rows[penRow].count { rows[penRow][penColumn] = .empty }
    }

    /// Carriage return: the next row, scrolling the rows up from the last.
    mutating func carriageReturn() {
        penColumn = 0
        if penRow + 1 < rowCount {
            penRow += 1
        } else {
            rows.removeFirst()
            rows.append([])
        }
    }

    /// Empties every row and puts the pen home.
    mutating func clear() {
        rows = Array(repeating: [], count: rowCount)
        (penRow, penColumn) = (0, 0)
    }

    /// Moves the pen (SetPenLocation), kept inside the window.
    mutating func movePen(row: Int, column: Int) {
        penRow = min(row, rowCount - 1)
        penColumn = min(column, Self.maximumCells - 1)
    }

    /// The text as a cue's content and settings, nil when it shows nothing: rows trimmed of
    /// spaces at both ends, empty rows left out.
    func cueParts() -> (content: [InlineNode], settings: CueSettings)? {
        let lines: [[StyledCharacter]] = rows.compactMap { row in
            let shows = { (cell: CEA608Memory.Cell) in cell.character.map { $0 != " " && $0 != "\u{A0}" } ?? false }
            guard let first = row.firstIndex(where: shows), let last = row.lastIndex(where: shows) else { return nil }
            return row[first...last].map { StyledCharacter(character: Character($0.character ?? " "), style: $0.style) }
        }
        guard !lines.isEmpty else { return nil }
        return (CharacterGrid.content(of: lines), placement)
    }

    /// Where the window's anchor puts it, in WebVTT terms, inside the safe title area (the middle
    /// 80 % of the picture, which 708's anchor grid spans as 608's grid does).
    var placement: CueSettings {
        let vertical = relative ? Double(anchorVertical) : Double(anchorVertical) * 100 / 75
        let horizontal = relative ? Double(anchorHorizontal) : Double(anchorHorizontal) * 100 / 210
        func area(_ percent: Double) -> Double { ((10 + 0.8 * min(100, max(0, percent))) * 1000).rounded() / 1000 }
        var settings = CueSettings()
        settings.snapToLines = false
        settings.line = .value(area(vertical))
        settings.lineAlign = [.start, .center, .end][anchorPoint / 3]
        let position = area(horizontal)
        settings.position = position
        settings.positionAlign = [.lineLeft, .center, .lineRight][anchorPoint % 3]
        switch settings.positionAlign {
        case .lineLeft: settings.size = ((100 - position) * 1000).rounded() / 1000
        case .lineRight: settings.size = position
        default: settings.size = ((2 * min(position, 100 - position)) * 1000).rounded() / 1000
        }
        // Left is every window's default justification: a window anchored by its centre or its
        // right edge then hugs its text there (decoders size windows to their text), so the text
        // is placed by the anchor; a justification set by SetWindowAttributes is kept as set.
        settings.align = justify == 0 ? [.left, .center, .right][anchorPoint % 3] : [.left, .right, .center, .left][justify & 3]
        return settings
    }
}

import CaptionsCore

/// Turns a fitted cue into CEA-608 byte pairs (CC1, parity added later): preamble address codes
/// for each row's place, tab offsets for the columns between, mid-row codes where the look
/// changes, characters two to a pair.
enum CEA608Encoder {
    static let RCL: UInt16 = 0x1420, EDM: UInt16 = 0x142C, ENM: UInt16 = 0x142E, EOC: UInt16 = 0x142F, CR: UInt16 = 0x142D

    /// A control code sent twice, as 608 asks.
    static func doubled(_ code: UInt16) -> [UInt16] { [code, code] }

    /// The pop-on codes for a cue, as items sent whole; the item at `anchor` (End Of Caption)
    /// is the one that must fall on the cue's start.
    static func popOnItems(_ cue: Cue) -> (items: [[UInt16]], anchor: Int) {
        var items = [doubled(RCL), doubled(ENM)]
        for (row, column, cells) in rows(of: cue) { items += rowItems(row: row, column: column, cells: cells) }
        items.append(doubled(EOC))
        return (items, items.count - 1)
    }

    /// The roll-up codes for a cue: each row rolls in at the bottom; the first carriage return
    /// falls on the cue's start.
    static func rollUpItems(_ cue: Cue, rows depth: Int) -> (items: [[UInt16]], anchor: Int) {
        let rollUp = UInt16(0x1425 + min(max(depth, 2), 4) - 2)
        var items: [[UInt16]] = [doubled(rollUp)]
        var anchor = 1
        for (index, (_, column, cells)) in rows(of: cue).enumerated() {
            if index == 0 { anchor = items.count }
            items.append(doubled(CR))
            items += rowItems(row: 15, column: column, cells: cells)
        }
        return (items, anchor)
    }

    /// The rows of a fitted cue and where they go: the cue's line setting picks the rows (the
    /// bottom rows when automatic), its alignment and position the columns.
    static func rows(of cue: Cue) -> [(row: Int, column: Int, cells: [StyledCharacter])] {
        var lostBold = false
        let rows = Array(CharacterGrid.styledRows(of: cue.content, lostBold: &lostBold).prefix(CEA608Layout.maximumRows))
            .map { Array($0.prefix(CEA608Memory.columns)) }
        guard !rows.isEmpty else { return [] }
        let settings = cue.settings
        let rowHeight = 80.0 / Double(CEA608Memory.rows)
        let lastTop = CEA608Memory.rows - rows.count + 1
        var top: Int
        switch settings.line {
        case .auto:
            top = lastTop
        case .value(let setting) where settings.snapToLines:
            // Clamped first: a WebVTT line number can be any size, and a huge one trapped in Int().
            let line = setting.isFinite ? min(max(setting, -100), 100) : 0
            top = line >= 0 ? Int(line) + 1 : CEA608Memory.rows + Int(line) + 2 - rows.count
        case .value(let setting):
            let line = setting.isFinite ? min(max(setting, -1_000), 1_000) : 0
            let edge = Int(((line - 10) / rowHeight).rounded()) + 1
            switch settings.lineAlign {
            case .start: top = edge
            case .center: top = edge - rows.count / 2
            case .end: top = edge - rows.count
            }
        }
        top = min(max(top, 1), lastTop)
        // The rows are aligned in the cue's box (the grid's 32 columns span 10 % to 90 %).
        let box = settings.horizontalBox
        func column(_ percent: Double) -> Double { percent.isFinite ? (min(max(percent, -100), 200) - 10) / 2.5 : 0 }
        let columns = rows.map { cells -> Int in
            let width = cells.count
            switch settings.align {
            case .center:
                return Int((column((box.left + box.right) / 2) - Double(width) / 2).rounded())
            case .left, .start:
                return Int(column(box.left))
            case .right, .end:
                return Int(column(box.right)) - width
            }
        }
        // A row that would leave the screen moves the whole block, as a player moves a cue's box,
        // so that the rows keep the edge or centre they share (moved one by one, a re-wrapped long
        // row read back at another left edge than the rows after it).
        let widths = rows.map { $0.count + extraColumns(of: $0) }
        let pastLeft = columns.map { -$0 }.max() ?? 0
        let pastRight = zip(columns, widths).map { column, width in column + width - CEA608Memory.columns }.max() ?? 0
        let shift = pastLeft > 0 ? pastLeft : pastRight > 0 ? -pastRight : 0
        return rows.indices.map { index in
            (top + index, min(max(columns[index] + shift, 0), CEA608Memory.columns - widths[index]), rows[index])
        }
    }

    /// The items that place a row and write its characters.
    static func rowItems(row: Int, column: Int, cells: [StyledCharacter]) -> [[UInt16]] {
        var items: [[UInt16]] = []
        var style = CellStyle.plain
        var characters: [UInt8] = []
        func flushCharacters() {
            var index = 0
            while index < characters.count {
                let second = index + 1 < characters.count ? characters[index + 1] : 0
                items.append([UInt16(characters[index]) << 8 | UInt16(second)])
                index += 2
            }
            characters = []
        }
        func code(_ word: UInt16) {
            flushCharacters()
            items.append(doubled(word))
        }
        // Where the row starts, and the look of its first character. An indent's preamble
        // address code sets white, underlined or not; other looks take mid-row codes (each a
        // column) before the row's text: a colour, italics, or both (a colour, then italics).
        let first = cells.first?.style ?? .plain
        let whiteUpright = first.color == 0 && !first.italic
        let lead = whiteUpright ? 0 : first.italic && first.color != 0 ? 2 : 1
        if column >= lead {
            let start = column - lead
            code(preambleAddress(row: row, indentOf: start - start % 4, underline: whiteUpright && first.underline))
            if whiteUpright { style = first }
            if start % 4 > 0 { code(0x1720 | UInt16(start % 4)) }
        } else {
            // Too near column 0: the preamble carries the look (a colour, or italics; italics
            // over a colour then take one mid-row code, and the text a column to the right).
            let coloured = first.color != 0
            code(preambleAddress(row: row, attribute: coloured ? first.color << 1 : 0x0E, underline: first.underline))
            style = CellStyle(color: first.color, italic: !coloured, underline: first.underline)
        }
        for (position, var cell) in cells.enumerated() {
            var replacesSpace = false
            // A lone space between two words that look different takes the look of the word after
            // it: the mid-row code in its place then changes the look where that word starts (kept
            // in its own look, the space took the code back to plain, and the change waited for the
            // next space: "JOHN: <i>Where are</i>" lost the italics of "Where").
            if cell.character == " ", position > 0, position + 1 < cells.count, cells[position - 1].character != " ",
                cells[position + 1].character != " "
            {
                cell.style = cells[position + 1].style
            }
            if cell.style != style {
                // A mid-row code shows as a space: it takes the place of one, before the change or
                // at it. Between two letters ("coming</u>.") there is none to take, and an added
                // one would change the text: the look changes at the next space instead. At the
                // row's start the code takes the column before it, left free for it above.
                let spaceBefore = characters.last == 0x20
                replacesSpace = !spaceBefore && position > 0 && cell.character == " "
                // One space before the change is the code's to take. Of two or more, all stay: a
                // reader hears the code's space as part of the gap beside it (``CEA608Memory``), so
                // taking one lost a space each time a file was written again.
                let takesSpaceBefore = spaceBefore && (characters.count < 2 || characters[characters.count - 2] != 0x20)
                if spaceBefore || replacesSpace || position == 0 {
                    if takesSpaceBefore { characters.removeLast() }
                    if cell.style.italic, cell.style.color != style.color {
                        code(midRow(CellStyle(color: cell.style.color, italic: false, underline: cell.style.underline)))
                    }
                    code(midRow(cell.style))
                    style = cell.style
                }
            }
            if replacesSpace { continue }
            switch CEA608Characters.encodings[cell.character] ?? .standard(0x3F) {
            case .standard(let byte):
                characters.append(byte)
            case .special(let second):
                code(0x1100 | UInt16(second))
            case .extended(let first, let second, let fallback):
                characters.append(fallback)
                code(UInt16(first) << 8 | UInt16(second))
            }
        }
        flushCharacters()
        return items
    }

    /// The columns a row takes beside its characters at the left edge: mid-row codes that take no
    /// space's place (italics over a colour at the start; a change to both a colour and italics
    /// at one space; a change after two spaces or more, which all stay).
    static func extraColumns(of cells: [StyledCharacter]) -> Int {
        var columns = 0
        for item in rowItems(row: 1, column: 0, cells: cells) {
            guard let word = item.first else { continue }
            switch word {
            case 0x1120...0x113F: columns += 1  // a mid-row code or a special character
            case 0x1000...0x1FFF: break  // a preamble, a tab offset, or an extended character over its fallback
            default: columns += (word >> 8 != 0 ? 1 : 0) + (word & 0xFF != 0 ? 1 : 0)
            }
        }
        return columns - cells.count
    }

    /// A preamble address code placing the cursor at `row`, white, at column `indent` (0, 4 … 28).
    static func preambleAddress(row: Int, indentOf indent: Int, underline: Bool = false) -> UInt16 {
        preambleAddress(row: row, attribute: 0x10 | UInt8(indent / 4) << 1, underline: underline)
    }

    static func preambleAddress(row: Int, attribute: UInt8, underline: Bool) -> UInt16 {
        let codes: [(UInt16, UInt16)] = [
            (0x11, 0), (0x11, 0x20), (0x12, 0), (0x12, 0x20), (0x15, 0), (0x15, 0x20), (0x16, 0), (0x16, 0x20),
            (0x17, 0), (0x17, 0x20), (0x10, 0), (0x13, 0), (0x13, 0x20), (0x14, 0), (0x14, 0x20),
        ]
        let (first, rowBit) = codes[min(max(row, 1), 15) - 1]
        return first << 8 | 0x40 | rowBit | UInt16(attribute) | (underline ? 1 : 0)
    }

    /// The mid-row code for a look: a colour (italics off), or italics (colour kept).
    static func midRow(_ style: CellStyle) -> UInt16 {
        0x1120 | UInt16(style.italic ? 7 : style.color) << 1 | (style.underline ? 1 : 0)
    }
}

/// The text field of EBU STL subtitles (Tech 3264 §4, TF): characters of the GSI's code table,
/// and control codes between them.
///
/// - `0x8A` breaks the row (teletext sends it twice under double height: empty rows are dropped);
/// - `0x80`/`0x81` italics on/off, `0x82`/`0x83` underline on/off, `0x84`/`0x85` boxing: between
///   two letters they show as a space (writers put them in the place of one, and ttconv reads
///   them so), elsewhere they take no place;
/// - teletext spacing attributes take a cell and show as a space: colours `0x00`–`0x07`, flash,
///   boxing `0x0A`/`0x0B`, sizes `0x0C`–`0x0F` (double height is noted), mosaics and backgrounds;
/// - `0x8F` is unused space (padding).
enum STLTextField {
    /// The rows of a text field, each character with its look, and whether the rows are double height.
    static func rows(_ field: some Collection<UInt8>, table: EBUSTLCharacters) -> (rows: [[StyledCharacter]], doubleHeight: Bool) {
        let bytes = Array(field)
        var rows: [[StyledCharacter]] = [[]]
        var style = CellStyle.plain
        var doubleHeight = false
        func space() {
            if let last = rows[rows.count - 1].last, last.character != " " {
                rows[rows.count - 1].append(StyledCharacter(character: " ", style: style))
            }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x8A:
                if !rows[rows.count - 1].isEmpty { rows.append([]) }
                style = CellStyle(color: 0, italic: style.italic, underline: style.underline)
            case 0x80...0x85:
                switch byte {
                case 0x80: style.italic = true
                case 0x81: style.italic = false
                case 0x82: style.underline = true
                case 0x83: style.underline = false
                default: break
                }
                let next = index < bytes.count ? bytes[index] : 0x8F
                if next > 0x20, next != 0x7F, next < 0x80 || next >= 0xA1 { space() }
            case 0x00...0x07:
                // Teletext alphanumeric colours: black, red, green, yellow, blue, magenta, cyan, white.
                style.color = [0, 4, 1, 5, 2, 6, 3, 0][Int(byte)]
                space()
            case 0x0D, 0x0F:
                doubleHeight = true
                space()
            case 0x08...0x1F:
                space()
            case 0x20...0x7F, 0xA0...0xFF:
                var character: Character?
                if table.isAccent(byte), index < bytes.count, bytes[index] >= 0x20 {
                    character = table.character(accent: byte, letter: bytes[index])
                    index += 1
                } else {
                    character = table.character(byte)
                }
                if let character {
                    if character == " " { space() } else { rows[rows.count - 1].append(StyledCharacter(character: character, style: style)) }
                }
            default:
                break  // 0x86–0x89, 0x8B–0x9F: reserved, unused space
            }
        }
        let trimmed = rows.map { row -> [StyledCharacter] in
            let start = row.firstIndex { $0.character != " " } ?? row.endIndex
            let end = row.lastIndex { $0.character != " " }.map { $0 + 1 } ?? start
            return Array(row[start..<max(start, end)])
        }.filter { !$0.isEmpty }
        return (trimmed, doubleHeight)
    }

    /// `row` with its looks changing only at the start of a word. A style code takes a character's place,
    /// so one between two letters shows as a space (ttconv reads it so, as we do): a word whose
    /// characters differ takes the look most of its letters and digits have, punctuation
    /// following them (`<u>this</u>.` is written `this.` underlined, not `this .`). Only the looks
    /// the kind carries count: colour in teletext, italics and underline in open subtitles.
    static func wordStyled(_ row: [StyledCharacter], teletext: Bool) -> [StyledCharacter] {
        func look(_ style: CellStyle) -> CellStyle {
            teletext ? CellStyle(color: style.color) : CellStyle(italic: style.italic, underline: style.underline)
        }
        var result = row
        var start = 0
        while start < row.count {
            guard row[start].character != " " else {
                start += 1
                continue
            }
            var end = start
            while end < row.count, row[end].character != " " { end += 1 }
            let word = row[start..<end]
            if word.contains(where: { look($0.style) != look(word.first!.style) }) {
                let letters = word.filter { $0.character.isLetter || $0.character.isNumber }
                let chosen = (letters.isEmpty ? Array(word) : letters).map { look($0.style) }.max { first, second in
                    letters.count { look($0.style) == first } < letters.count { look($0.style) == second }
                } ?? look(word.first!.style)
                for index in start..<end {
                    if teletext {
                        result[index].style.color = chosen.color
                    } else {
                        (result[index].style.italic, result[index].style.underline) = (chosen.italic, chosen.underline)
                    }
                }
            }
            start = end
        }
        // A space takes the look of what comes before it, so that a code is written only where a
        // look changes, in the space's place (two codes there would leave no space at all).
        for index in result.indices.dropFirst() where result[index].character == " " {
            result[index].style = result[index - 1].style
        }
        return result
    }

    /// Whether ``wordStyled(_:teletext:)`` changes the look of a character of `row` (spaces aside).
    static func changesInWords(_ row: [StyledCharacter], teletext: Bool) -> Bool {
        zip(row, wordStyled(row, teletext: teletext)).contains { $0.character != " " && $0 != $1 }
    }

    /// The bytes of rows of text: `0x8A` between rows (twice, with double height and start/end box
    /// codes, for teletext), italics and underline codes for open subtitles, teletext colour codes;
    /// characters the table lacks are left out (the writer substitutes them first).
    static func bytes(_ rows: [[StyledCharacter]], table: EBUSTLCharacters, teletext: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for (number, row) in rows.map({ wordStyled($0, teletext: teletext) }).enumerated() {
            if number > 0 { out += teletext ? [0x8A, 0x8A] : [0x8A] }
            var style = CellStyle.plain
            if teletext { out += [0x0D, 0x0B, 0x0B] }
            for (position, cell) in row.enumerated() {
                if teletext, cell.style.color != style.color || position == 0 && cell.style.color != 0 {
                    // A colour code takes a cell: it replaces a space where there is one.
                    if out.last == 0x20 { out.removeLast() }
                    out.append([7, 2, 4, 6, 1, 3, 5][Int(cell.style.color)])
                }
                if !teletext, cell.style.italic != style.italic || cell.style.underline != style.underline {
                    // Between words the codes take the space's place, as teletext codes do.
                    if out.last == 0x20 { out.removeLast() }
                    if cell.style.italic != style.italic { out.append(cell.style.italic ? 0x80 : 0x81) }
                    if cell.style.underline != style.underline { out.append(cell.style.underline ? 0x82 : 0x83) }
                    style = cell.style
                    if cell.character == " " { continue }
                }
                style = cell.style
                out += table.bytes(for: cell.character) ?? []
            }
            if !teletext {
                if style.italic { out.append(0x81) }
                if style.underline { out.append(0x83) }
            }
            if teletext { out += [0x0A, 0x0A] }
        }
        return out
    }
}

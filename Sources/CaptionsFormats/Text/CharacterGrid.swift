import CaptionsCore

/// A character with the look it is shown with.
struct StyledCharacter: Equatable {
    var character: Character
    var style: CellStyle
}

/// The look of a character on a caption grid (CEA-608, teletext): one of seven colours, italics, underline.
struct CellStyle: Equatable {
    /// 0 white, 1 green, 2 blue, 3 cyan, 4 red, 5 yellow, 6 magenta.
    var color: UInt8 = 0
    var italic = false
    var underline = false

    static let plain = CellStyle()

    /// The sRGB colours of the seven foreground colours, the same in 608 and teletext.
    static let colors: [RGBAColor] = [
        RGBAColor(red: 255, green: 255, blue: 255), RGBAColor(red: 0, green: 255, blue: 0), RGBAColor(red: 0, green: 0, blue: 255),
        RGBAColor(red: 0, green: 255, blue: 255), RGBAColor(red: 255, green: 0, blue: 0), RGBAColor(red: 255, green: 255, blue: 0),
        RGBAColor(red: 255, green: 0, blue: 255),
    ]
}

/// Text laid out on a grid of character cells, for the formats that place captions on one
/// (CEA-608 in SCC, teletext and open subtitles in EBU STL): cue text as rows of styled
/// characters, rows broken to a width, cues split by rows, overlapping cues shown together.
enum CharacterGrid {
    /// Cues that overlap shown together: each stretch of time shows the text of every cue on
    /// screen then, earliest first (608 and teletext show one caption at a time).
    static func flattened(_ cues: [Cue], tally: inout DiagnosticTally, code: Diagnostic.Code) -> [Cue] {
        let sorted = cues.sorted { $0.start < $1.start }
        var result: [Cue] = []
        var index = 0
        while index < sorted.count {
            // A group of cues that overlap one another.
            var group = [sorted[index]]
            var groupEnd = sorted[index].end ?? sorted[index].start
            index += 1
            while index < sorted.count, sorted[index].start < groupEnd {
                group.append(sorted[index])
                groupEnd = max(groupEnd, sorted[index].end ?? sorted[index].start)
                index += 1
            }
            guard group.count > 1 else {
                result += group
                continue
            }
            tally.add(.note, code, "cues that overlap shown together while both are on screen", at: group[1].location ?? .start)
            let edges = Set(group.flatMap { [$0.start, $0.end ?? $0.start] }).sorted()
            for (from, to) in zip(edges, edges.dropFirst()) {
                let live = group.filter { $0.start <= from && ($0.end ?? $0.start) >= to }
                guard var merged = live.first else { continue }
                merged.start = from
                merged.end = to
                merged.content = live.enumerated().flatMap { offset, cue in offset == 0 ? cue.content : [.text("\n")] + cue.content }
                result.append(merged)
            }
        }
        return result
    }

    /// The rows of a cue's text, each character with its look (the nearest of the seven
    /// colours; bold reported through `lostBold`), without spaces at either end.
    static func styledRows(of content: [InlineNode], lostBold: inout Bool) -> [[StyledCharacter]] {
        var rows: [[StyledCharacter]] = [[]]
        func walk(_ nodes: [InlineNode], _ style: CellStyle) {
            for node in nodes {
                switch node {
                case .text(let text):
                    for character in text {
                        if character == "\n" { rows.append([]) } else { rows[rows.count - 1].append(StyledCharacter(character: character, style: style)) }
                    }
                case .timestamp: break
                case .span(let span):
                    var inner = style
                    switch span.kind {
                    case .italic: inner.italic = true
                    case .underline: inner.underline = true
                    case .bold: lostBold = true
                    case .rubyText: continue
                    default: break
                    }
                    if let color = span.style?.color ?? span.classes.lazy.compactMap(RGBAColor.webVTTClass).first { inner.color = nearest(color) }
                    walk(span.children, inner)
                }
            }
        }
        walk(content, .plain)
        // Spaces at either end of a row take no place on screen.
        return rows.map { row in
            let start = row.firstIndex { $0.character != " " } ?? row.endIndex
            let end = row.lastIndex { $0.character != " " }.map { $0 + 1 } ?? start
            return Array(row[start..<max(start, end)])
        }.filter { !$0.isEmpty }
    }

    /// The palette colour nearest to `color`.
    static func nearest(_ color: RGBAColor) -> UInt8 {
        func distance(_ a: RGBAColor, _ b: RGBAColor) -> Int {
            let (dr, dg, db) = (Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue))
            return dr * dr + dg * dg + db * db
        }
        let index = CellStyle.colors.indices.min { distance(CellStyle.colors[$0], color) < distance(CellStyle.colors[$1], color) }!
        return UInt8(index)
    }

    /// A row broken at spaces into rows of at most `limit` characters (a longer word is cut).
    static func wrap(_ row: [StyledCharacter], limit: Int) -> [[StyledCharacter]] {
        var rows: [[StyledCharacter]] = []
        var rest = row[...]
        while rest.count > limit {
            let window = rest.prefix(limit + 1)
            let cut = window.lastIndex { $0.character == " " }.flatMap { $0 > rest.startIndex ? $0 : nil } ?? rest.startIndex + limit
            rows.append(Array(rest[..<cut]))
            rest = rest[cut...].drop { $0.character == " " }
        }
        if !rest.isEmpty { rows.append(Array(rest)) }
        return rows
    }

    /// The cue shown as `chunks` of rows one after another, its time shared by their lengths.
    static func split(_ cue: Cue, into chunks: [[[StyledCharacter]]], content: ([[StyledCharacter]]) -> [InlineNode]) -> [Cue] {
        let weights = chunks.map { Int64(max($0.reduce(0) { $0 + $1.count }, 1)) }
        let total = weights.reduce(0, +)
        var done: Int64 = 0
        return chunks.enumerated().map { index, rows in
            var piece = cue
            piece.content = content(rows)
            if let end = cue.end, chunks.count > 1 {
                piece.start = cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
                done += weights[index]
                piece.end = index == chunks.count - 1 ? end : cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
            }
            return piece
        }
    }


    /// Rows of styled characters as cue text: rows joined by line breaks, runs of one look as
    /// spans (spaces at a run's edges stay outside its span).
    static func content(of rows: [[StyledCharacter]]) -> [InlineNode] {
        var builder = InlineTreeBuilder(joinsAdjacentText: true)
        for (number, cells) in rows.enumerated() {
            if number > 0 { builder.appendText("\n") }
            var index = cells.startIndex
            while index < cells.endIndex {
                let style = cells[index].style
                var end = index
                while end < cells.endIndex, cells[end].style == style || cells[end].character == " " { end += 1 }
                var text = String(cells[index..<end].map(\.character))
                if style == .plain {
                    builder.appendText(text)
                } else {
                    let leading = text.prefix { $0 == " " }.count
                    let trailing = text.reversed().prefix { $0 == " " }.count
                    builder.appendText(String(repeating: " ", count: leading))
                    text = String(text.dropFirst(leading).dropLast(trailing))
                    var node = InlineNode.text(text)
                    if style.italic { node = .span(Span(.italic, children: [node])) }
                    if style.underline { node = .span(Span(.underline, children: [node])) }
                    if style.color != 0 {
                        node = .span(Span(.class, style: TextStyle(color: CellStyle.colors[Int(style.color)]), children: [node]))
                    }
                    if !text.isEmpty { builder.append(node) }
                    builder.appendText(String(repeating: " ", count: trailing))
                }
                index = end
            }
        }
        return builder.finish()
    }

    /// What a grid format allows, for ``fit(_:to:)``.
    struct Rules {
        /// The diagnostic code prefix (`scc`, `stl`).
        var prefix: String
        /// The format's name in messages.
        var formatName: String
        /// The character set's name in messages ("the CEA-608 set").
        var characterSetName: String
        var width: Int
        var maximumRows: Int
        /// Whether the character set holds a character.
        var has: (Character) -> Bool
        /// Reports the looks of a row the format cannot show (the row is written plain there).
        var checkLooks: ([StyledCharacter], SourceLocation, inout DiagnosticTally) -> Void = { _, _, _ in }
        /// Whether a run of spaces shows as one, and a row without its spaces at either end (EBU
        /// STL: spaces and style codes share cells, and readers show one space between words).
        var collapsesSpaces = false
        /// The columns a row takes beside its characters (CEA-608: style codes that take no space's
        /// place), so that it is broken to fit beside them.
        var extraColumns: ([StyledCharacter]) -> Int = { _ in 0 }
    }

    /// `row` with one space for each run of spaces, and none at its ends.
    static func collapsingSpaces(_ row: [StyledCharacter]) -> [StyledCharacter] {
        var result: [StyledCharacter] = []
        result.reserveCapacity(row.count)
        for character in row where character.character != " " || result.last.map({ $0.character != " " }) == true {
            result.append(character)
        }
        if result.last?.character == " " { result.removeLast() }
        return result
    }

    /// Fits a document to a grid: overlapping cues shown together, characters the set lacks
    /// written as the nearest it has, rows broken at the width, cues of more rows split in time.
    /// Returns one diagnostic per kind of change.
    static func fit(_ document: inout TimedTextDocument, to rules: Rules) -> [Diagnostic] {
        var tally = DiagnosticTally()
        var substituted: Set<Character> = []
        var firstSubstitution: SourceLocation?
        var cues: [Cue] = []
        for cue in flattened(document.cues, tally: &tally, code: Diagnostic.Code(rawValue: rules.prefix + ".cues.overlap")) {
            let location = cue.location ?? .start
            var lostBold = false
            var rows: [[StyledCharacter]] = []
            for row in styledRows(of: cue.content, lostBold: &lostBold) {
                var mapped = row
                for index in mapped.indices where !rules.has(mapped[index].character) {
                    substituted.insert(mapped[index].character)
                    if firstSubstitution == nil { firstSubstitution = location }
                    mapped[index].character = LatinLetters.nearest(to: mapped[index].character, where: rules.has)
                }
                if rules.collapsesSpaces {
                    let collapsed = collapsingSpaces(mapped)
                    if collapsed.count != mapped.count {
                        tally.add(
                            .note, Diagnostic.Code(rawValue: rules.prefix + ".spaces.collapsed"),
                            "runs of spaces written as one, and none at the ends of a row (\(rules.formatName) shows them so)", at: location)
                    }
                    mapped = collapsed
                }
                rules.checkLooks(mapped, location, &tally)
                // Each row the wrap makes has its own codes: narrower until every one fits.
                var limit = rules.width - rules.extraColumns(mapped)
                var wrapped = wrap(mapped, limit: limit)
                while limit > 1, wrapped.contains(where: { $0.count + rules.extraColumns($0) > rules.width }) {
                    limit -= 1
                    wrapped = wrap(mapped, limit: limit)
                }
                if wrapped.count > 1 {
                    tally.add(.note, Diagnostic.Code(rawValue: rules.prefix + ".row.wrapped"), "a line longer than \(limit) characters re-wrapped", at: location)
                }
                rows += wrapped
            }
            if lostBold { tally.add(.warning, "convert.lost.bold", "bold text written plain: \(rules.formatName) has no bold", at: location) }
            let chunks = stride(from: 0, to: max(rows.count, 1), by: rules.maximumRows).map {
                Array(rows[min($0, rows.count)..<min($0 + rules.maximumRows, rows.count)])
            }
            if chunks.count > 1 {
                tally.add(
                    .warning, Diagnostic.Code(rawValue: rules.prefix + ".rows.split"),
                    "a cue of more than \(rules.maximumRows) rows shown in parts, its time shared by their lengths", at: location)
            }
            for part in split(cue, into: chunks, content: content(of:)) {
                // A part that goes on showing what the one before shows, from the moment it ends
                // (a cue shown alone and then in parts beside another), is that caption still on
                // screen: one caption, as a reader sees it.
                if let last = cues.last, let end = last.end, end == part.start, last.content == part.content,
                    last.settings == part.settings, last.speaker == part.speaker
                {
                    cues[cues.count - 1].end = part.end
                    tally.add(
                        .note, Diagnostic.Code(rawValue: rules.prefix + ".cues.joined"),
                        "a caption that goes on unchanged into the next cue's time written once, for both", at: location)
                    continue
                }
                cues.append(part)
            }
        }
        document.cues = cues
        var diagnostics = tally.diagnostics
        if let firstSubstitution {
            let list = substituted.map { String($0) }.sorted().joined(separator: " ")
            diagnostics.append(Diagnostic(
                .warning, Diagnostic.Code(rawValue: rules.prefix + ".character.substituted"),
                "characters outside \(rules.characterSetName) written as the nearest it has: \(list)", at: firstSubstitution))
        }
        return diagnostics
    }
}

import CaptionsCore

/// Fits cues to what CEA-608 can show: rows of at most 32 characters of its character set, at
/// most 4 rows a caption (the FCC's and most platforms' rule), one caption on screen at a time,
/// seven colours, italics and underline. Used by the SCC writer; every change is reported.
struct CEA608Layout {
    /// A character with the look it is shown with.
    struct Styled: Equatable {
        var character: Character
        var style: CEA608Style
    }

    static let maximumRows = 4

    /// The document fitted, and what changed.
    static func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        var tally = DiagnosticTally()
        var substituted: Set<Character> = []
        var cues: [Cue] = []
        for cue in flattened(document.cues, tally: &tally) {
            var rows: [[Styled]] = []
            var lostBold = false
            for row in styledRows(of: cue.content, lostBold: &lostBold) {
                let mapped = row.map { styled -> Styled in
                    var styled = styled
                    styled.character = substitute(styled.character, substituted: &substituted)
                    return styled
                }
                let wrapped = wrap(mapped)
                if wrapped.count > 1 {
                    tally.add(.note, "scc.row.wrapped", "a line longer than 32 characters re-wrapped", at: cue.location ?? .start)
                }
                rows += wrapped
            }
            if lostBold { tally.add(.warning, "convert.lost.bold", "bold text written plain: CEA-608 has no bold", at: cue.location ?? .start) }
            if !substituted.isEmpty, tally.diagnostics.allSatisfy({ $0.code != "scc.character.substituted" }) {
                tally.add(.warning, "scc.character.substituted", "", at: cue.location ?? .start)
            }
            let chunks = stride(from: 0, to: max(rows.count, 1), by: maximumRows).map { Array(rows[min($0, rows.count)..<min($0 + maximumRows, rows.count)]) }
            if chunks.count > 1 {
                tally.add(.warning, "scc.rows.split", "a cue of more than 4 rows shown in parts, its time shared by their lengths", at: cue.location ?? .start)
            }
            cues += split(cue, into: chunks)
        }
        document.cues = cues
        var diagnostics = tally.diagnostics
        if let index = diagnostics.firstIndex(where: { $0.code == "scc.character.substituted" }) {
            let list = substituted.map { String($0) }.sorted().joined(separator: " ")
            diagnostics[index].message = "characters outside the CEA-608 set written as the nearest it has: \(list)"
        }
        return diagnostics
    }

    /// Cues that overlap shown together: each stretch of time shows the text of every cue on
    /// screen then, earliest first (608 shows one caption at a time).
    static func flattened(_ cues: [Cue], tally: inout DiagnosticTally) -> [Cue] {
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
            tally.add(.note, "scc.cues.overlap", "cues that overlap shown together while both are on screen", at: group[1].location ?? .start)
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

    /// The rows of a cue's text, each character with its 608 look (the nearest of the seven
    /// colours; bold reported through `lostBold`).
    static func styledRows(of content: [InlineNode], lostBold: inout Bool) -> [[Styled]] {
        var rows: [[Styled]] = [[]]
        func walk(_ nodes: [InlineNode], _ style: CEA608Style) {
            for node in nodes {
                switch node {
                case .text(let text):
                    for character in text {
                        if character == "\n" { rows.append([]) } else { rows[rows.count - 1].append(Styled(character: character, style: style)) }
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

    /// The 608 colour nearest to `color`.
    static func nearest(_ color: RGBAColor) -> UInt8 {
        func distance(_ a: RGBAColor, _ b: RGBAColor) -> Int {
            let (dr, dg, db) = (Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue))
            return dr * dr + dg * dg + db * db
        }
        let index = CEA608Style.colors.indices.min { distance(CEA608Style.colors[$0], color) < distance(CEA608Style.colors[$1], color) }!
        return UInt8(index)
    }

    /// A character 608 can show in place of `character`: itself, its letter without accent, or `?`.
    static func substitute(_ character: Character, substituted: inout Set<Character>) -> Character {
        if CEA608Characters.encodings[character] != nil { return character }
        let replacements: [Character: Character] = ["’": "'", "‘": "'", "–": "-", "…": ".", "\u{A0}": " ", "\t": " ", "♫": "♪"]
        let replacement = replacements[character] ?? LatinLetters.base(of: character) ?? "?"
        substituted.insert(character)
        return CEA608Characters.encodings[replacement] != nil ? replacement : "?"
    }

    /// A row broken at spaces into rows of at most 32 characters (a longer word is cut).
    static func wrap(_ row: [Styled]) -> [[Styled]] {
        let limit = CEA608Memory.columns
        var rows: [[Styled]] = []
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
    static func split(_ cue: Cue, into chunks: [[[Styled]]]) -> [Cue] {
        let weights = chunks.map { Int64(max($0.reduce(0) { $0 + $1.count }, 1)) }
        let total = weights.reduce(0, +)
        var done: Int64 = 0
        return chunks.enumerated().map { index, rows in
            var piece = cue
            piece.content = content(of: rows)
            if let end = cue.end, chunks.count > 1 {
                piece.start = cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
                done += weights[index]
                piece.end = index == chunks.count - 1 ? end : cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
            }
            return piece
        }
    }

    /// Rows of styled characters as cue text.
    static func content(of rows: [[Styled]]) -> [InlineNode] {
        var memory = CEA608Memory()
        for (index, row) in rows.prefix(CEA608Memory.rows).enumerated() {
            for (column, styled) in row.prefix(CEA608Memory.columns).enumerated() {
                memory.set(row: index + 1, column: column, to: CEA608Memory.Cell(character: styled.character.unicodeScalars.first, style: styled.style))
            }
        }
        return memory.cueParts()?.content ?? []
    }
}

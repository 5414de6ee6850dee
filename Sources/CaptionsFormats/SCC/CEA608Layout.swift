import CaptionsCore

/// Fits cues to what CEA-608 can show: rows of at most 32 characters of its character set, at
/// most 4 rows a caption (the FCC's and most platforms' rule), one caption on screen at a time,
/// seven colours, italics and underline. Used by the SCC writer; every change is reported.
struct CEA608Layout {
    static let maximumRows = 4

    /// The document fitted, and what changed.
    static func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        var tally = DiagnosticTally()
        var substituted: Set<Character> = []
        var cues: [Cue] = []
        for cue in CharacterGrid.flattened(document.cues, tally: &tally, code: "scc.cues.overlap") {
            var rows: [[StyledCharacter]] = []
            var lostBold = false
            for row in CharacterGrid.styledRows(of: cue.content, lostBold: &lostBold) {
                let mapped = row.map { styled -> StyledCharacter in
                    var styled = styled
                    styled.character = substitute(styled.character, substituted: &substituted)
                    return styled
                }
                let wrapped = CharacterGrid.wrap(mapped, limit: CEA608Memory.columns)
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
            cues += CharacterGrid.split(cue, into: chunks, content: CharacterGrid.content(of:))
        }
        document.cues = cues
        var diagnostics = tally.diagnostics
        if let index = diagnostics.firstIndex(where: { $0.code == "scc.character.substituted" }) {
            let list = substituted.map { String($0) }.sorted().joined(separator: " ")
            diagnostics[index].message = "characters outside the CEA-608 set written as the nearest it has: \(list)"
        }
        return diagnostics
    }

    /// A character 608 can show in place of `character` (itself when it can), noting substitutions.
    static func substitute(_ character: Character, substituted: inout Set<Character>) -> Character {
        let nearest = LatinLetters.nearest(to: character) { CEA608Characters.encodings[$0] != nil }
        if nearest != character { substituted.insert(character) }
        return nearest
    }
}

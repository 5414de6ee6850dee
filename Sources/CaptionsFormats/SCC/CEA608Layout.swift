import CaptionsCore

/// What CEA-608 can show: rows of at most 32 characters of its character set, at most 4 rows a
/// caption (the FCC's and most platforms' rule), one caption on screen at a time, seven colours,
/// italics and underline. The SCC writer fits documents to it through ``CharacterGrid/fit(_:to:)``.
enum CEA608Layout {
    static let maximumRows = 4

    static var rules: CharacterGrid.Rules {
        CharacterGrid.Rules(
            prefix: "scc", formatName: "CEA-608", characterSetName: "the CEA-608 set", width: CEA608Memory.columns,
            maximumRows: maximumRows, has: { CEA608Characters.encodings[$0] != nil },
            checkLooks: { row, location, tally in
                // A mid-row code shows as a space, so the look changes only at one (``CEA608Encoder``).
                let inWord = row.indices.dropFirst().contains { index in
                    row[index].style != row[index - 1].style && row[index].character != " " && row[index - 1].character != " "
                }
                if inWord {
                    tally.add(
                        .note, "scc.style.moved",
                        "a change of italics, underline or colour between two letters made at the next space (CEA-608 changes the look only where a space is shown)",
                        at: location)
                }
            },
            // Mid-row codes that take no space's place take columns of their own
            // (``CEA608Encoder/extraColumns(of:)``): 32 characters starting coloured and in italics
            // ran into a 33rd column, drawn over the last.
            extraColumns: CEA608Encoder.extraColumns(of:))
    }

    /// The document fitted, and what changed.
    static func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        CharacterGrid.fit(&document, to: rules)
    }
}

/// Accented Latin letters and the letters under their accents, for writers whose character set
/// lacks a letter (CEA-608, teletext) and substitute the nearest they have.
enum LatinLetters {
    /// The letter under the accent (`É` → `E`, `ł` → `l`), or nil for a letter without one.
    static func base(of character: Character) -> Character? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return nil }
        return bases[scalar].map(Character.init)
    }

    /// What to write for `character` in a character set that lacks it: itself when `has` it,
    /// else a plain look-alike (straight quotes for curly ones, `-` for dashes), its letter without
    /// the accent, or `?`.
    static func nearest(to character: Character, where has: (Character) -> Bool) -> Character {
        if has(character) { return character }
        let lookAlikes: [Character: [Character]] = [
            "’": ["'"], "‘": ["'"], "“": ["\""], "”": ["\""], "„": ["\""], "«": ["\""], "»": ["\""],
            "–": ["—", "-"], "—": ["–", "-"], "―": ["—", "-"], "…": ["."], "\u{A0}": [" "], "\t": [" "], "♫": ["♪", "#"], "♪": ["#"],
        ]
        for candidate in lookAlikes[character] ?? [] where has(candidate) { return candidate }
        if let base = base(of: character), has(base) { return base }
        return "?"
    }

    private static let bases: [Unicode.Scalar: Unicode.Scalar] = {
        let groups: [(Unicode.Scalar, String)] = [
            ("A", "ÀÁÂÃÄÅĀĂĄ"), ("a", "àáâãäåāăą"), ("C", "ÇĆĈĊČ"), ("c", "çćĉċč"), ("D", "ĎĐ"), ("d", "ďđ"),
            ("E", "ÈÉÊËĒĔĖĘĚ"), ("e", "èéêëēĕėęě"), ("G", "ĜĞĠĢ"), ("g", "ĝğġģ"), ("H", "ĤĦ"), ("h", "ĥħ"),
            ("I", "ÌÍÎÏĨĪĬĮİ"), ("i", "ìíîïĩīĭįı"), ("J", "Ĵ"), ("j", "ĵ"), ("K", "Ķ"), ("k", "ķ"),
            ("L", "ĹĻĽĿŁ"), ("l", "ĺļľŀł"), ("N", "ÑŃŅŇ"), ("n", "ñńņň"), ("O", "ÒÓÔÕÖØŌŎŐ"), ("o", "òóôõöøōŏő"),
            ("R", "ŔŖŘ"), ("r", "ŕŗř"), ("S", "ŚŜŞŠ"), ("s", "śŝşš"), ("T", "ŢŤŦ"), ("t", "ţťŧ"),
            ("U", "ÙÚÛÜŨŪŬŮŰŲ"), ("u", "ùúûüũūŭůűų"), ("W", "Ŵ"), ("w", "ŵ"), ("Y", "ÝŶŸ"), ("y", "ýÿŷ"),
            ("Z", "ŹŻŽ"), ("z", "źżž"),
        ]
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (base, letters) in groups { for letter in letters.unicodeScalars { table[letter] = base } }
        return table
    }()
}

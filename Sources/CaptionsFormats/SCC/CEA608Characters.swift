/// The CEA-608 character sets (CEA-608-E §6.4 and Annex B), both ways.
///
/// - Standard characters are single bytes 0x20–0x7F: ASCII with nine letters swapped in.
/// - Special characters are the two-byte codes 0x11 0x30–0x3F (0x19 on data channel 2).
/// - Extended characters are 0x12/0x13 0x20–0x3F (0x1A/0x1B): a decoder backs up one column
///   before drawing them, so an encoder sends a standard look-alike first for old decoders.
enum CEA608Characters {
    /// The character a standard byte (parity stripped, 0x20–0x7F) shows.
    static func standard(_ byte: UInt8) -> Unicode.Scalar {
        switch byte {
        case 0x2A: "á"
        case 0x5C: "é"
        case 0x5E: "í"
        case 0x5F: "ó"
        case 0x60: "ú"
        case 0x7B: "ç"
        case 0x7C: "÷"
        case 0x7D: "Ñ"
        case 0x7E: "ñ"
        case 0x7F: "█"
        default: Unicode.Scalar(byte)
        }
    }

    /// Special characters, indexed by the second byte minus 0x30. Index 9 is the transparent space.
    static let special: [Unicode.Scalar] = ["®", "°", "½", "¿", "™", "¢", "£", "♪", "à", " ", "è", "â", "ê", "î", "ô", "û"]

    /// Extended characters of first byte 0x12 (Spanish, French, miscellaneous), indexed by the
    /// second byte minus 0x20.
    static let extended12: [Unicode.Scalar] = [
        "Á", "É", "Ó", "Ú", "Ü", "ü", "‘", "¡", "*", "'", "—", "©", "℠", "•", "“", "”",
        "À", "Â", "Ç", "È", "Ê", "Ë", "ë", "Î", "Ï", "ï", "Ô", "Ù", "ù", "Û", "«", "»",
    ]

    /// Extended characters of first byte 0x13 (Portuguese, German, Danish, box drawing).
    static let extended13: [Unicode.Scalar] = [
        "Ã", "ã", "Í", "Ì", "ì", "Ò", "ò", "Õ", "õ", "{", "}", "\\", "^", "_", "|", "~",
        "Ä", "ä", "Ö", "ö", "ß", "¥", "¤", "│", "Å", "å", "Ø", "ø", "┌", "┐", "└", "┘",
    ]

    /// How to send a character: one standard byte, or a two-byte code (special or extended;
    /// `fallback` is the standard byte sent first for an extended one).
    enum Encoding: Equatable {
        case standard(UInt8)
        case special(UInt8)
        case extended(first: UInt8, second: UInt8, fallback: UInt8)
    }

    /// How each character the sets hold is sent (standard first, so that `'` and `*` stay single bytes).
    static let encodings: [Character: Encoding] = {
        var table: [Character: Encoding] = [:]
        for (index, scalar) in extended13.enumerated() {
            table[Character(scalar)] = .extended(first: 0x13, second: UInt8(0x20 + index), fallback: fallback(Character(scalar)))
        }
        for (index, scalar) in extended12.enumerated() {
            table[Character(scalar)] = .extended(first: 0x12, second: UInt8(0x20 + index), fallback: fallback(Character(scalar)))
        }
        for (index, scalar) in special.enumerated() where index != 9 {
            table[Character(scalar)] = .special(UInt8(0x30 + index))
        }
        for byte in UInt8(0x20)...0x7F { table[Character(standard(byte))] = .standard(byte) }
        table["■"] = .standard(0x7F)  // the solid block, as some decoders show it
        return table
    }()

    /// The standard byte an old decoder shows in place of an extended character: its letter
    /// without the accent, or a look-alike.
    private static func fallback(_ character: Character) -> UInt8 {
        let lookAlikes: [Character: Character] = [
            "‘": "'", "“": "\"", "”": "\"", "«": "\"", "»": "\"", "—": "-", "¡": "!", "•": ".", "©": "c", "℠": " ",
            "ß": "s", "¥": "Y", "¤": "$", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "Ø": "O", "ø": "o",
        ]
        let base = lookAlikes[character] ?? LatinLetters.base(of: character) ?? " "
        if case .standard(let byte)? = standardEncodings[base] { return byte }
        return 0x20
    }

    private static let standardEncodings: [Character: Encoding] = {
        var table: [Character: Encoding] = [:]
        for byte in UInt8(0x20)...0x7F { table[Character(standard(byte))] = .standard(byte) }
        return table
    }()
}

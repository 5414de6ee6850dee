/// The character code tables of EBU STL text fields (EBU Tech 3264, GSI field CCT), read and
/// written through iconv: `00` Latin (ISO 6937-2, as Tech 3264 gives it: `¤` at 0x24, `$` at
/// 0xA4; accents as a prefix byte before the letter),
/// `01` Cyrillic (ISO 8859-5), `02` Arabic (8859-6), `03` Greek (8859-7), `04` Hebrew (8859-8).
///
/// Tables are built once per process from iconv, one call per byte (and per accent and letter),
/// so that reading a text field is a table lookup.
struct EBUSTLCharacters: Sendable {
    /// The GSI code, such as `00`.
    let code: String
    /// What each single byte shows (nil: not a character of the table).
    private let singles: [Character?]
    /// ISO 6937 accent bytes (0xC1–0xCF) with the letter after them, composed.
    private let accented: [UInt16: Character]
    /// Characters to the bytes that write them.
    private let encodings: [Character: [UInt8]]

    /// The table of a GSI CCT code; nil for an unknown code.
    static func table(_ code: String) -> EBUSTLCharacters? {
        switch code {
        case "00": latin
        case "01": cyrillic
        case "02": arabic
        case "03": greek
        case "04": hebrew
        default: nil
        }
    }

    static let latin = EBUSTLCharacters(code: "00", iconvName: "ISO_6937-2")
    static let cyrillic = EBUSTLCharacters(code: "01", iconvName: "ISO-8859-5")
    static let arabic = EBUSTLCharacters(code: "02", iconvName: "ISO-8859-6")
    static let greek = EBUSTLCharacters(code: "03", iconvName: "ISO-8859-7")
    static let hebrew = EBUSTLCharacters(code: "04", iconvName: "ISO-8859-8")

    /// Every table, in the order a writer tries them.
    static let all = [latin, cyrillic, greek, arabic, hebrew]

    private init(code: String, iconvName: String) {
        self.code = code
        func decode(_ bytes: [UInt8]) -> Character? {
            guard case .success(let utf8) = Charset.convert(bytes, from: iconvName) else { return nil }
            let text = String(decoding: utf8, as: UTF8.self)
            return text.count == 1 ? text.first : nil
        }
        let isLatin = code == "00"
        var singles = [Character?](repeating: nil, count: 256)
        for byte in UInt8(0x20)...0xFF where byte < 0x7F || byte >= 0xA0 {
            if isLatin, (0xC1...0xCF).contains(byte) { continue }
            singles[Int(byte)] = decode([byte])
        }
        if isLatin {
            // Where glibc's ISO 6937 leaves a gap, Tech 3264's Latin table has these.
            singles[0xA4] = singles[0xA4] ?? "$"
            singles[0xA6] = singles[0xA6] ?? "#"
        }
        var accented: [UInt16: Character] = [:]
        if isLatin {
            for accent in UInt8(0xC1)...0xCF {
                for letter in UInt8(0x41)...0x7A where (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter) {
                    if let character = decode([accent, letter]) { accented[UInt16(accent) << 8 | UInt16(letter)] = character }
                }
            }
        }
        var encodings: [Character: [UInt8]] = [:]
        for (key, character) in accented { encodings[character] = [UInt8(key >> 8), UInt8(key & 0xFF)] }
        // The lowest byte of a character the table has twice: `#` is 0x23, not 0xA6.
        for (byte, character) in singles.enumerated().reversed() {
            if let character { encodings[character] = [UInt8(byte)] }
        }
        if isLatin, encodings["Đ"] == nil, let eth = encodings["Ð"] {
            // ISO 6937's 0xE2 is both (glibc reads it as Ð): Croatian and Vietnamese write Đ.
            encodings["Đ"] = eth
        }
        self.singles = singles
        self.accented = accented
        self.encodings = encodings
    }

    /// Whether `byte` is an accent that composes with the letter after it.
    func isAccent(_ byte: UInt8) -> Bool { code == "00" && (0xC1...0xCF).contains(byte) }

    /// The character of a single byte.
    func character(_ byte: UInt8) -> Character? { singles[Int(byte)] }

    /// The character of an accent byte and the letter after it (the letter alone when the two
    /// do not compose).
    func character(accent: UInt8, letter: UInt8) -> Character? {
        accented[UInt16(accent) << 8 | UInt16(letter)] ?? singles[Int(letter)]
    }

    /// The bytes that write `character`; nil when the table has no such character.
    func bytes(for character: Character) -> [UInt8]? { encodings[character] }
}

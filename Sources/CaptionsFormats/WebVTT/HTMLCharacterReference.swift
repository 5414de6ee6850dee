/// HTML character references (`&amp;`, `&#233;`, `&#x1F600;`, legacy `&copy` without `;`), decoded
/// the way HTML's tokenizer decodes them in text, as WebVTT cue text requires.
enum HTMLCharacterReference {
    private static let named: [String: String] = {
        var table: [String: String] = [:]
        table.reserveCapacity(2300)
        for row in htmlNamedCharacterReferenceTable.split(separator: "\n") {
            guard let equals = row.firstIndex(of: "=") else { continue }
            table[String(row[..<equals])] = String(row[row.index(after: equals)...])
        }
        return table
    }()

    private static let longestName = 32

    /// Windows-1252 meanings HTML gives to numeric references 0x80–0x9F.
    private static let c1Replacements: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// Decodes the reference whose `&` is just before `start`.
    ///
    /// Returns the decoded text and the index after the reference, or `nil` when no reference
    /// starts there (the caller then keeps the `&` as text).
    static func consume(_ bytes: ByteSlice, from start: Int) -> (text: String, next: Int)? {
        guard start < bytes.endIndex else { return nil }
        if bytes[start] == UInt8(ascii: "#") { return consumeNumeric(bytes, from: start + 1) }
        var end = start
        while end < bytes.endIndex, end - start < longestName, isAlphanumeric(bytes[end]) { end += 1 }
        guard end > start else { return nil }
        if end < bytes.endIndex, bytes[end] == UInt8(ascii: ";"),
            let value = named[bytes[start...end].string]
        {
            return (value, end + 1)
        }
        var length = end - start
        while length > 0 {
            if let value = named[bytes[start..<(start + length)].string] { return (value, start + length) }
            length -= 1
        }
        return nil
    }

    private static func consumeNumeric(_ bytes: ByteSlice, from start: Int) -> (text: String, next: Int)? {
        var index = start
        var radix: UInt32 = 10
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        while index < bytes.endIndex, let digit = digitValue(bytes[index], radix: radix) {
            value = value > 0x10FFFF ? value : value * radix + digit
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") { index += 1 }
        let scalar: Unicode.Scalar
        if let replacement = c1Replacements[value] {
            scalar = Unicode.Scalar(replacement) ?? "\u{FFFD}"
        } else if value == 0 || value > 0x10FFFF {
            scalar = "\u{FFFD}"
        } else {
            scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        return (String(Character(scalar)), index)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        if byte >= 0x30, byte <= 0x39 { return UInt32(byte - 0x30) }
        let lower = byte | 0x20
        if radix == 16, lower >= 0x61, lower <= 0x66 { return UInt32(lower - 0x61 + 10) }
        return nil
    }
}

/// Escaping for XML and HTML text and attribute values.
public enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, and the characters XML 1.0 cannot hold at all
    /// (C0 controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) left out, so
    /// that what is written is always well-formed. (Caption writers have the capability reducer
    /// remove and report them first; this is the last line of defence for every XML writer.)
    ///
    /// Works on Unicode scalars, not characters: `&` followed by a combining mark is one
    /// `Character`, which a character-level replacement would leave unescaped.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || isForbidden($0) }) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            default: if !isForbidden(scalar) { escaped.append(scalar) }
            }
        }
        return String(escaped)
    }

    /// `text` escaped for an attribute value in double quotes: as ``escape(_:)``, and tab, line
    /// feed and carriage return as character references, which a parser keeps (it turns the raw
    /// characters into spaces when it normalises the value, so that what is read back differs).
    public static func escapeAttribute(_ text: String) -> String {
        let escaped = escape(text)
        guard escaped.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return escaped }
        var result = String.UnicodeScalarView()
        for scalar in escaped.unicodeScalars {
            switch scalar {
            case "\t": result.append(contentsOf: "&#9;".unicodeScalars)
            case "\n": result.append(contentsOf: "&#10;".unicodeScalars)
            case "\r": result.append(contentsOf: "&#13;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\""
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// A file path as a relative URL: bytes other than unreserved characters and `/` percent-encoded
    /// (a `#` or `?` in a file name would otherwise end the path).
    public static func urlPath(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}

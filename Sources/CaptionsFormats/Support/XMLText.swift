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
        // Built as UTF-8 bytes: `String.UnicodeScalarView.append(contentsOf:)` copied the whole
        // text at each reference, so a cue of 16,000 `<` took 0.4 s and one of 64,000 took 4 s.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + text.utf8.count / 2 + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;".utf8
            case "<": escaped += "&lt;".utf8
            case ">": escaped += "&gt;".utf8
            case "\"": escaped += "&quot;".utf8
            default: if !isForbidden(scalar), let bytes = UTF8.encode(scalar) { escaped += bytes }
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `text` escaped for an attribute value in double quotes: as ``escape(_:)``, and tab, line
    /// feed and carriage return as character references, which a parser keeps (it turns the raw
    /// characters into spaces when it normalises the value, so that what is read back differs).
    public static func escapeAttribute(_ text: String) -> String {
        let escaped = escape(text)
        guard escaped.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return escaped }
        var result: [UInt8] = []
        result.reserveCapacity(escaped.utf8.count + 16)
        for byte in escaped.utf8 {
            switch byte {
            case 0x09: result += "&#9;".utf8
            case 0x0A: result += "&#10;".utf8
            case 0x0D: result += "&#13;".utf8
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
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
        percentEncoded(path, keeping: "-._~/")
    }

    /// Where a page finds its media: an `http://` or `https://` address as it is (only spaces,
    /// quotes, other bytes a URL cannot hold and non-ASCII percent-encoded), anything else as a
    /// relative path (``urlPath(_:)``).
    public static func mediaSource(_ location: String) -> String {
        let lowered = location.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return urlPath(location) }
        return percentEncoded(location, keeping: "-._~:/?#[]@!$&'()*+,;=%")
    }

    private static func percentEncoded(_ text: String, keeping kept: String) -> String {
        let keptBytes = Set(kept.utf8)
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.append(Character(Unicode.Scalar(byte)))
            case _ where keptBytes.contains(byte):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}

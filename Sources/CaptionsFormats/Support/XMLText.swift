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

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\""
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
}

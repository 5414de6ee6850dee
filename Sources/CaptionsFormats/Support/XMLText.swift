/// Escaping for XML and HTML text and attribute values.
enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, and the characters XML 1.0 cannot hold at all
    /// (C0 controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) left out, so
    /// that what is written is always well-formed. (Caption writers have the capability reducer
    /// remove and report them first; this is the last line of defence for every XML writer.)
    static func escape(_ text: String) -> String {
        let escaped = text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;")
        guard escaped.unicodeScalars.contains(where: isForbidden) else { return escaped }
        var allowed = String.UnicodeScalarView()
        allowed.append(contentsOf: escaped.unicodeScalars.lazy.filter { !isForbidden($0) })
        return String(allowed)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
}

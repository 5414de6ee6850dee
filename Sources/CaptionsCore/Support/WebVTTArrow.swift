extension String {
    /// Whether the text holds `-->`, the arrow that makes a WebVTT line a cue timing line.
    ///
    /// Looked for in UTF-8, as a WebVTT parser does: to Swift's characters, `"-->\u{308}"` (a
    /// combining mark on the `>`) does not contain `"-->"`, yet a parser reads the arrow.
    public var containsWebVTTArrow: Bool {
        var dashes = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ">"), dashes >= 2 { return true }
            dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
        }
        return false
    }

    /// The text with an invisible U+200B between `--` and `>` wherever they meet (in Unicode
    /// scalars, see ``containsWebVTTArrow``), so that a WebVTT identifier or NOTE line holding it
    /// is not read as a cue timing line.
    public var withWebVTTArrowsBroken: String {
        guard containsWebVTTArrow else { return self }
        var scalars = String.UnicodeScalarView()
        var dashes = 0
        for scalar in unicodeScalars {
            if scalar == ">", dashes >= 2 { scalars.append("\u{200B}") }
            dashes = scalar == "-" ? dashes + 1 : 0
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

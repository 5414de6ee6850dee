import CaptionsCore

/// A caption file's text as lines, for the line-based readers of small formats (SBV, ASS,
/// MicroDVD, SAMI): decoded like SRT (byte order marks, UTF-16/32, legacy code pages detected),
/// split at LF, CRLF or CR, numbered from 1.
struct TextLines {
    /// The lines, without their ends.
    let lines: [Substring]
    /// What decoding noticed.
    let diagnostics: [Diagnostic]

    init(_ input: [UInt8], codePrefix: String) {
        let (bytes, diagnostics) = TextDecoding.decode(input, invalidUTF8: .detect, codePrefix: codePrefix)
        let text = String(decoding: bytes, as: UTF8.self)
        // Swift treats "\r\n" as one Character, so splitting on line ends handles all three forms.
        lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        self.diagnostics = diagnostics
    }

    /// The location of `column` (1-based) on line `index` (0-based).
    static func location(_ index: Int, column: Int = 1) -> SourceLocation { SourceLocation(line: index + 1, column: column) }
}

extension Substring {
    /// The text without spaces and tabs at either end.
    var trimmedSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}

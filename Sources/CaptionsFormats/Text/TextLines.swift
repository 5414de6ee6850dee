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

    /// A `H:MM:SS.fff` clock time as the line-based formats write it: hours of up to nine digits
    /// (so that the time in milliseconds cannot overflow), minutes and seconds below 60, an optional fraction read to the millisecond. `strictWidths`: two-digit
    /// minutes and seconds and one to three fraction digits (SBV); otherwise any widths, and
    /// fraction digits past the third ignored (ASS writes centiseconds, some tools more).
    /// `carrying`: minutes and seconds of 60 or more (two digits at most) carry into the next
    /// field, as libass reads `0:01:75.00` (2:15).
    static func clockTime(_ text: Substring, strictWidths: Bool, carrying: Bool = false) -> MediaTime? {
        let fields = text.trimmedSpaces.split(separator: ":", omittingEmptySubsequences: false)
        let limit: Int64 = carrying ? 100 : 60
        guard fields.count == 3, !strictWidths || fields[1].count == 2, fields[0].count <= maximumHourDigits,
            let hours = Int64(fields[0]), hours >= 0,
            fields[1].count <= 2 || !carrying, let minutes = Int64(fields[1]), minutes >= 0, minutes < limit
        else { return nil }
        let parts = fields[2].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !strictWidths || parts[0].count == 2, parts[0].count <= 2 || !carrying,
            let seconds = Int64(parts[0]), seconds >= 0, seconds < limit
        else { return nil }
        var milliseconds: Int64 = 0
        if parts.count == 2 {
            guard !strictWidths || parts[1].count <= 3 else { return nil }
            let digits = parts[1].prefix(3)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int64(digits) else { return nil }
            milliseconds = value * [100, 10, 1][digits.count - 1]
        }
        return MediaTime(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds)
    }

    /// The widest hours field ``clockTime(_:strictWidths:)`` reads: 999,999,999 hours is far past any
    /// plausible time (``TimeLimits`` reports those) and still fits in milliseconds.
    static let maximumHourDigits = 9

    /// The warning for a cue whose end comes before its start, which the line formats read as
    /// ending when it starts (SRT and WebVTT keep such a cue as it is, with the same warning).
    static func endBeforeStart(codePrefix: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .warning, Diagnostic.Code(rawValue: "\(codePrefix).cue.endBeforeStart"),
            "the cue ends before it starts; read as ending when it starts, so it is never shown", at: location)
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

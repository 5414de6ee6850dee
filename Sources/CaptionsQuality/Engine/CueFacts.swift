import CaptionsCore

/// What the rules need to know about one cue, measured once in one pass over its text: its lines,
/// the characters and words reading speed counts, and its times in nanoseconds (checks compare
/// times millions of times; exact rationals stay for the repairs).
struct CueFacts: Sendable {
    /// The text without markup.
    let text: String
    /// How many lines.
    let lineCount: Int
    /// The longest line's length in characters (grapheme clusters).
    let longestLine: Int
    /// The characters counted for reading speed, by the profile's rules.
    let readingCharacters: Int
    /// The words (runs of non-space characters).
    let words: Int
    /// Whether the text is all ASCII.
    let isASCII: Bool
    /// Whether the cue shows nothing.
    let isEmpty: Bool
    /// The start and end in nanoseconds (end `Int64.max` for a cue without one).
    let start: Int64
    let end: Int64

    init(_ cue: Cue, counting rules: QualityProfile.ReadingSpeed?) {
        text = cue.plainText
        start = Self.nanoseconds(cue.start)
        end = cue.end.map(Self.nanoseconds) ?? .max
        let countSpaces = rules?.countSpaces ?? true
        let countPunctuation = rules?.countPunctuation ?? true
        var counted = 0, wordCount = 0, lines = 1, longest = 0, line = 0
        var inWord = false, ascii = true, blank = true
        for byte in text.utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        func visit(isSpace: Bool, isNewline: Bool, isPunctuation: Bool) {
            if isSpace, inWord { inWord = false } else if !isSpace, !inWord { inWord = true; wordCount += 1 }
            if !isSpace { blank = false }
            if isNewline {
                longest = max(longest, line)
                line = 0
                lines += 1
                return
            }
            line += 1
            if isSpace, !countSpaces { return }
            if isPunctuation, !countPunctuation { return }
            counted += 1
        }
        if ascii {
            for byte in text.utf8 {
                let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                let isAlphanumeric = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                visit(isSpace: isSpace, isNewline: byte == 0x0A, isPunctuation: !isSpace && !isAlphanumeric)
            }
        } else {
            for character in text {
                visit(
                    isSpace: character.isWhitespace, isNewline: character == "\n",
                    isPunctuation: character.isPunctuation || character.isSymbol)
            }
        }
        longest = max(longest, line)
        if rules?.countLineBreaks == true { counted += lines - 1 }
        lineCount = lines
        longestLine = longest
        readingCharacters = counted
        words = wordCount
        isASCII = ascii
        isEmpty = blank
    }

    /// Each line's length in characters (for the rare report of which lines are long).
    var lineLengths: [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { isASCII ? $0.utf8.count : $0.count }
    }

    /// A time in nanoseconds, rounded.
    static func nanoseconds(_ time: MediaTime) -> Int64 { time.rounded(toTimescale: 1_000_000_000) }
}

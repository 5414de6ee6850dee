import CaptionsCore

/// What the rules need to know about one cue's text, measured once.
struct CueFacts: Sendable {
    /// The text without markup.
    let text: String
    /// Its lines.
    let lines: [Substring]
    /// Each line's length in characters (grapheme clusters).
    let lineLengths: [Int]
    /// The characters counted for reading speed, by the profile's rules.
    let readingCharacters: Int
    /// The words (runs of non-space characters).
    let words: Int

    init(_ cue: Cue, counting rules: QualityProfile.ReadingSpeed?) {
        text = cue.plainText
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        // ASCII text (most captions) is measured by its bytes; the rest by grapheme clusters.
        lineLengths = lines.map { ascii ? $0.utf8.count : $0.count }
        let countSpaces = rules?.countSpaces ?? true
        let countPunctuation = rules?.countPunctuation ?? true
        var counted = 0
        var wordCount = 0
        var inWord = false
        if ascii {
            for byte in text.utf8 {
                let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A
                if isSpace, inWord { inWord = false } else if !isSpace, !inWord { inWord = true; wordCount += 1 }
                if byte == 0x0A { continue }
                if isSpace, !countSpaces { continue }
                if !countPunctuation, !isSpace, !(byte >= 0x30 && byte <= 0x39) && !((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) { continue }
                counted += 1
            }
        } else {
            for character in text {
                let isSpace = character.isWhitespace
                if isSpace, inWord { inWord = false } else if !isSpace, !inWord { inWord = true; wordCount += 1 }
                if character.isNewline { continue }
                if isSpace, !countSpaces { continue }
                if !countPunctuation, character.isPunctuation || character.isSymbol { continue }
                counted += 1
            }
        }
        if rules?.countLineBreaks == true { counted += max(0, lines.count - 1) }
        readingCharacters = counted
        words = wordCount
    }

    /// Whether the cue shows nothing.
    var isEmpty: Bool { text.allSatisfy(\.isWhitespace) }
}

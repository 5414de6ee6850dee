import CaptionsCore

/// What the rules need to know about one cue, measured once in one pass over its text: its lines,
/// the characters and words reading speed counts, and its times in nanoseconds (checks compare
/// times millions of times; exact rationals stay for the repairs). Plain values only, no text: a
/// check copies and frees them in bulk, with no reference to count.
struct CueFacts: Sendable {
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
    /// Whether it is all printable ASCII and line breaks (in every repertoire but CEA-608's).
    let isPrintableASCII: Bool
    /// Whether it holds an ASCII character CEA-608's standard set shows as another one
    /// (`*`, `\`, `^`, `_`, `` ` ``, `{`, `|`, `}`, `~`).
    let hasASCIIOutside608: Bool
    /// Whether the cue shows nothing.
    let isEmpty: Bool
    /// The start and end in nanoseconds (end `Int64.max` for a cue without one).
    let start: Int64
    let end: Int64

    init(_ cue: Cue, counting rules: QualityProfile.ReadingSpeed?) {
        var text = cue.plainText
        start = Self.nanoseconds(cue.start)
        end = cue.end.map(Self.nanoseconds) ?? .max
        let countSpaces = rules?.countSpaces ?? true
        let countPunctuation = rules?.countPunctuation ?? true
        var counted = 0, wordCount = 0, lines = 1, longest = 0, line = 0
        var inWord = false, blank = true
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
        // ASCII (nearly every cue of most languages) a byte at a time through one table, with
        // the counts in registers (the same steps as `visit`).
        let table = Self.byteClass
        let skip = (countSpaces ? 0 : Self.space) | (countPunctuation ? 0 : Self.punctuation)
        let classes = text.withUTF8 { bytes -> UInt8? in
            var seen: UInt8 = 0
            var (counted0, words0, lines0, longest0, line0, inWord0) = (0, 0, 1, 0, 0, false)
            for byte in bytes {
                let kind = table[Int(byte)]
                seen |= kind
                let isSpace = kind & Self.space != 0
                if isSpace { inWord0 = false } else if !inWord0 { inWord0 = true; words0 &+= 1 }
                if byte == 0x0A {
                    longest0 = max(longest0, line0)
                    line0 = 0
                    lines0 &+= 1
                    continue
                }
                line0 &+= 1
                if kind & skip == 0 { counted0 &+= 1 }
            }
            guard seen & Self.nonASCII == 0 else { return nil }
            (counted, wordCount, lines, longest, line, inWord) = (counted0, words0, lines0, longest0, line0, inWord0)
            blank = words0 == 0
            return seen
        }
        if classes == nil {
            for character in text {
                visit(
                    isSpace: character.isWhitespace, isNewline: character == "\n",
                    isPunctuation: character.isPunctuation || character.isSymbol)
            }
        }
        let ascii = classes != nil
        longest = max(longest, line)
        if rules?.countLineBreaks == true { counted += lines - 1 }
        lineCount = lines
        longestLine = longest
        readingCharacters = counted
        words = wordCount
        isASCII = ascii
        isPrintableASCII = classes.map { $0 & Self.unprintable == 0 } ?? false
        hasASCIIOutside608 = classes.map { $0 & Self.outside608 != 0 } ?? false
        isEmpty = blank
    }

    /// Each line's length in characters in `text`, the cue's plain text (for the rare report of
    /// which lines are long).
    func lineLengths(of text: String) -> [Int] {
        guard isASCII else { return text.split(separator: "\n", omittingEmptySubsequences: false).map(\.count) }
        var lengths: [Int] = []
        lengths.reserveCapacity(lineCount)
        var length = 0
        for byte in text.utf8 {
            if byte == 0x0A {
                lengths.append(length)
                length = 0
            } else {
                length += 1
            }
        }
        lengths.append(length)
        return lengths
    }

    /// What ASCII bytes are, for the reading pass: bits of ``byteClass``.
    private static let space: UInt8 = 1, punctuation: UInt8 = 2, unprintable: UInt8 = 4, outside608: UInt8 = 8
    private static let nonASCII: UInt8 = 16
    private static let byteClass: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        guard byte < 0x80 else { return nonASCII }
        let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        let isAlphanumeric = (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
        var kind: UInt8 = isSpace ? space : isAlphanumeric ? 0 : punctuation
        if byte < 0x20 && byte != 0x0A || byte == 0x7F { kind |= unprintable }
        if [0x2A, 0x5C, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D, 0x7E].contains(byte) { kind |= outside608 }
        return kind
    }

    /// A time in nanoseconds, rounded.
    static func nanoseconds(_ time: MediaTime) -> Int64 { time.rounded(toTimescale: 1_000_000_000) }
}

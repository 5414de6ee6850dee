/// Words for breaking lines, in scripts written with spaces and in those written without
/// (Japanese, Chinese), where a line may break between any two characters.
public enum TextWords {
    /// The words of `text`: split at spaces, tabs and line breaks, and, in text holding a
    /// character of a script written without spaces, also between two characters where one of
    /// them is unspaced, except where Japanese line breaking (kinsoku) forbids it: no line starts
    /// with closing punctuation, a small kana or a prolonged sound mark, and none ends with an
    /// opening bracket. A Latin word inside Japanese (`iPhone`) stays whole.
    public static func of(_ text: String) -> [Substring] {
        if let words = asciiWords(text) { return words }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard mayHoldUnspaced(text), words.contains(where: { $0.contains(where: isUnspaced) }) else { return words }
        return words.flatMap { word -> [Substring] in
            var pieces: [Substring] = []
            var start = word.startIndex
            var index = word.startIndex
            while index < word.endIndex {
                let next = word.index(after: index)
                if next < word.endIndex, breakable(between: word[index], and: word[next]) {
                    pieces.append(word[start..<next])
                    start = next
                }
                index = next
            }
            pieces.append(word[start...])
            return pieces
        }
    }

    /// The words of all-ASCII `text` (nearly every cue of most languages), split a byte at a time:
    /// the same words as splitting its characters; nil when `text` is not all ASCII, or holds a
    /// carriage return (`\r\n` is one character, not a line break followed by a letter).
    private static func asciiWords(_ text: String) -> [Substring]? {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
        var words: [Substring] = []
        var start: String.Index?
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x09 {
                if let first = start { words.append(text[first..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            bytes.formIndex(after: &index)
        }
        if let first = start { words.append(text[first..<index]) }
        return words
    }

    /// Characters no line starts with (Japanese kinsoku shori, and the Western closing marks).
    static let noLineStart = Set("、。，．・：；？！ー）」』】〕〉》〙〗｝〜…‥ゝゞヽヾ々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;!?)]}”’")
    /// Characters no line ends with.
    static let noLineEnd = Set("（「『【〔〈《〘〖｛([{“‘")

    /// Whether a line may break between `before` and `after` written together.
    static func breakable(between before: Character, and after: Character) -> Bool {
        (isUnspaced(before) || isUnspaced(after)) && !noLineStart.contains(after) && !noLineEnd.contains(before)
    }

    /// Whether a character belongs to a script written without spaces between words (kana, CJK
    /// ideographs, full-width forms, CJK punctuation).
    public static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x3000...0x303F: return true
        default: return false
        }
    }

    /// Whether `text` may hold an unspaced character: a UTF-8 lead byte of U+3000–U+9FFF or
    /// U+F900–U+FFEF (0xE3–0xE9, 0xEF). A byte scan, so that text in other scripts (nearly all)
    /// is not looked at character by character.
    public static func mayHoldUnspaced<Text: StringProtocol>(_ text: Text) -> Bool {
        text.utf8.contains { (0xE3...0xE9).contains($0) || $0 == 0xEF }
    }

    /// Whether a space goes between `before` and `after` on a line: not beside an unspaced character.
    public static func spaced(_ before: Substring, _ after: Substring) -> Bool {
        // An ASCII byte on both sides is an ASCII character on both: spaced.
        if let last = before.utf8.last, last < 0x80, let first = after.utf8.first, first < 0x80 { return true }
        return !(before.last.map(isUnspaced) == true || after.first.map(isUnspaced) == true)
    }

    /// The words joined into a line: with spaces, but none beside an unspaced character.
    public static func join<Words: Sequence<Substring>>(_ words: Words) -> String {
        let words = Array(words)
        guard words.contains(where: { mayHoldUnspaced($0) }) else { return words.joined(separator: " ") }
        var line = ""
        var previous: Substring?
        for word in words {
            if let previous, spaced(previous, word) { line += " " }
            line += word
            previous = word
        }
        return line
    }
}

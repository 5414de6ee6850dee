import CaptionsCore

/// Gives a script's words (the author's exact words) the times at which they are said, from what
/// the recogniser heard: the two word sequences are aligned by edit distance on normalised words
/// (lower case, letters and digits), so a word heard differently still takes its time from where it
/// was said; script words with nothing heard for them take times between their neighbours', and are
/// reported as missing from the audio.
public enum ScriptAligner {
    /// A word of the script, as the author wrote it.
    public struct ScriptWord: Sendable, Equatable {
        public var text: String
        /// Whether a new paragraph starts with it.
        public var startsParagraph: Bool
        /// Who says it, when the script names a speaker.
        public var speaker: String?

        /// A word.
        public init(text: String, startsParagraph: Bool = false, speaker: String? = nil) {
            (self.text, self.startsParagraph, self.speaker) = (text, startsParagraph, speaker)
        }
    }

    /// The script's words with times, and a warning for each stretch of script the audio lacks
    /// (code `align.notHeard`; signs such as `&` or `—` are not said as written, and are only
    /// timed); nothing is timed past `duration` seconds, the recording's length. A script that is
    /// not what the recording says gives no words and one error (``mismatch(_:_:_:)``).
    public static func align(
        _ script: [ScriptWord], to heard: [TranscriptShaper.Word], duration: Double = .infinity, band: Int = 400
    ) -> (words: [TranscriptShaper.Word], diagnostics: [Diagnostic]) {
        guard !script.isEmpty else { return ([], []) }
        guard !heard.isEmpty else {
            return (script.map { TranscriptShaper.Word(text: $0.text, start: 0, end: 0, speaker: $0.speaker, startsParagraph: $0.startsParagraph) },
                    [Diagnostic(.warning, "align.notHeard", "no speech was heard: the script's \(script.count) words have no times", at: nil)])
        }
        // Words are matched by their parts between hyphens ("ill-disposed" is "ill disposed" said).
        var scriptTokens: [(text: String, owner: Int)] = []
        for (index, word) in script.enumerated() {
            let parts = word.text.split(separator: "-").map { normalised(String($0)) }.filter { !$0.isEmpty }
            for part in parts.isEmpty ? [normalised(word.text)] : parts { scriptTokens.append((part, index)) }
        }
        var heardTokens: [(text: String, start: Double, end: Double)] = []
        for word in heard {
            let parts = word.text.split(separator: "-").map { normalised(String($0)) }.filter { !$0.isEmpty }
            let total = Double(max(1, parts.reduce(0) { $0 + $1.count }))
            var start = word.start
            for part in parts.isEmpty ? [normalised(word.text)] : parts {
                let end = parts.count <= 1 ? word.end : start + (word.end - word.start) * Double(part.count) / total
                heardTokens.append((part, start, end))
                start = end
            }
        }
        let match = alignTokens(scriptTokens.map(\.text), heardTokens.map(\.text), band: band)
        if let mismatch = mismatch(scriptTokens.map(\.text), heardTokens.map(\.text), match) { return ([], [mismatch]) }
        var times = [(start: Double, end: Double)?](repeating: nil, count: script.count)
        for (token, matched) in zip(scriptTokens, match) {
            guard let matched else { continue }
            let heard = heardTokens[matched]
            times[token.owner] = times[token.owner].map { (min($0.start, heard.start), max($0.end, heard.end)) } ?? (heard.start, heard.end)
        }
        var words = script.enumerated().map { index, word in
            TranscriptShaper.Word(
                text: word.text, start: times[index]?.start ?? -1, end: times[index]?.end ?? -1, speaker: word.speaker,
                startsParagraph: word.startsParagraph)
        }
        let n = words.count
        // Unheard runs take the time between their neighbours, shared out evenly.
        var diagnostics: [Diagnostic] = []
        var index = 0
        while index < n {
            guard words[index].start < 0 else { index += 1; continue }
            var end = index
            while end < n, words[end].start < 0 { end += 1 }
            let from = index > 0 ? words[index - 1].end : (end < n ? max(0, words[end].start - 0.3) : 0)
            let to = end < n ? words[end].start : max(from, min(from + 0.3 * Double(end - index), duration))
            let step = max(0, to - from) / Double(end - index)
            for k in index..<end {
                words[k].start = from + step * Double(k - index)
                words[k].end = words[k].start + step
            }
            let said = words[index..<end].filter { !normalised($0.text).isEmpty }
            let missing = said.map(\.text).joined(separator: " ")
            defer { index = end }
            guard !said.isEmpty else { continue }
            diagnostics.append(Diagnostic(
                .warning, "align.notHeard",
                "\(RecognitionGuards.clock(from)): \(said.count) word(s) of the script not heard in the audio: \"\(missing.prefix(80))\"; timed between their neighbours",
                at: nil))
        }
        return (words, diagnostics)
    }

    /// The share of words that must be heard as written, of the script's or of the recording's
    /// (a script of half the recording, or a recording of half the script, still aligns).
    public static let minimumAgreement = 0.3

    /// An error (code `align.mismatch`) when the script is not what the recording says: fewer
    /// than ``minimumAgreement`` of the script's words, and of the words heard, were heard as
    /// written; nil when it is.
    static func mismatch(_ script: [String], _ heard: [String], _ match: [Int?]) -> Diagnostic? {
        let said = script.filter { !$0.isEmpty }.count
        guard said >= 3, !heard.isEmpty else { return nil }
        let agreeing = zip(script, match).filter { word, matched in matched.map { !word.isEmpty && heard[$0] == word } ?? false }.count
        let ofScript = Double(agreeing) / Double(said), ofHeard = Double(agreeing) / Double(heard.count)
        guard max(ofScript, ofHeard) < minimumAgreement else { return nil }
        return Diagnostic(
            .error, "align.mismatch",
            "the script does not seem to be what the recording says: \(agreeing) of its \(said) words were heard as written (\(agreeing) of the \(heard.count) words heard); is it this recording's script?",
            at: nil)
    }

    /// For each of `a`, the index of `b` it is aligned with (nil: not heard). Words found once in
    /// each, in the same order (the longest increasing run of such pairs), anchor the alignment;
    /// between anchors, an edit distance aligns the rest (banded when a stretch is long), so an
    /// hour-long script stays fast and small, and a recording of half a script aligns that half.
    static func alignTokens(_ a: [String], _ b: [String], band: Int) -> [Int?] {
        var countA: [String: Int] = [:], countB: [String: Int] = [:], positionB: [String: Int] = [:]
        for word in a { countA[word, default: 0] += 1 }
        for (index, word) in b.enumerated() {
            countB[word, default: 0] += 1
            positionB[word] = index
        }
        let pairs = a.enumerated().compactMap { index, word -> (Int, Int)? in
            guard countA[word] == 1, countB[word] == 1, !word.isEmpty, let j = positionB[word] else { return nil }
            return (index, j)
        }
        var match = [Int?](repeating: nil, count: a.count)
        var (fromA, fromB) = (0, 0)
        for (i, j) in longestIncreasing(pairs) + [(a.count, b.count)] {
            let part = alignStretch(Array(a[fromA..<i]), Array(b[fromB..<j]), band: band)
            for (offset, found) in part.enumerated() { match[fromA + offset] = found.map { $0 + fromB } }
            if i < a.count { match[i] = j }
            (fromA, fromB) = (i + 1, j + 1)
        }
        return match
    }

    /// The longest run of `pairs` (in order of their first index) whose second indices increase.
    private static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        var tails: [Int] = [], previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if pairs[tails[middle]].1 < pair.1 { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [(Int, Int)] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(pairs[index])
            index = previous[index]
        }
        return result.reversed()
    }

    /// Edit-distance alignment of one stretch: two rows of costs and a byte per cell for the way
    /// back; rows cover the columns around i × |b| / |a| (± `band`, or all when that is small).
    private static func alignStretch(_ a: [String], _ b: [String], band: Int) -> [Int?] {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return [Int?](repeating: nil, count: n) }
        let width = n * m <= 4_000_000 ? max(n, m) : max(band, 2_000)
        func range(_ i: Int) -> ClosedRange<Int> {
            let centre = Int((Double(i) * Double(m) / Double(n)).rounded())
            return max(0, centre - width)...min(m, centre + width)
        }
        let infinity = Int.max / 4
        var move: [[UInt8]] = []  // 0 diagonal, 1 up (a word unheard), 2 left (an extra heard word)
        move.reserveCapacity(n + 1)
        var previousRow: [Int] = [], previousRange = 0...0
        for i in 0...n {
            let columns = range(i)
            var row = [Int](repeating: infinity, count: columns.count)
            var moves = [UInt8](repeating: 2, count: columns.count)
            for j in columns {
                let k = j - columns.lowerBound
                if i == 0 && j == 0 { row[k] = 0; continue }
                var best = infinity, step: UInt8 = 2
                if i > 0, j > 0, previousRange.contains(j - 1) {
                    let candidate = previousRow[j - 1 - previousRange.lowerBound] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    if candidate < best { (best, step) = (candidate, 0) }
                }
                if i > 0, previousRange.contains(j), previousRow[j - previousRange.lowerBound] + 1 < best {
                    (best, step) = (previousRow[j - previousRange.lowerBound] + 1, 1)
                }
                if k > 0, row[k - 1] + 1 < best { (best, step) = (row[k - 1] + 1, 2) }
                row[k] = best
                moves[k] = step
            }
            move.append(moves)
            (previousRow, previousRange) = (row, columns)
        }
        var match = [Int?](repeating: nil, count: n)
        var (i, j) = (n, m)
        while i > 0 {
            let columns = range(i)
            guard columns.contains(j) else { i -= 1; continue }
            switch move[i][j - columns.lowerBound] {
            case 0 where j > 0:
                match[i - 1] = j - 1
                (i, j) = (i - 1, j - 1)
            case 2 where j > 0: j -= 1
            default: i -= 1
            }
        }
        return match
    }


    /// Tokens that are Markdown's syntax, not the author's words.
    static let markdownMarks: Set<String> = ["-", "*", "+", ">", "#", "|"]

    /// Lower case letters and digits only.
    static func normalised(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }.map(Character.init))
    }

    /// The words of a script: plain text (a blank line between paragraphs), Markdown (a heading
    /// line is left out, emphasis and links reduced to their words; a paragraph of only
    /// `**Name**` or `**Name** · 1:23`, as our Markdown transcripts write it, names the speaker of
    /// the next, as `**Name:**` at a paragraph's start names its own, as `Name (1:23)` on a paragraph's first line does in our plain-text ones; `*Seen*` passages and `>` quotes are descriptions, not speech, and left out), or
    /// HTML (the text of its `<p>` elements; `<cite>` names the speaker; time stamps and passages
    /// marked as seen are left out, as are paragraphs outside `<main>` when there is one).
    public static func words(ofScript text: String) -> [ScriptWord] {
        let isHTML = text.contains("<p") && text.contains("</p>")
        let paragraphs = isHTML ? htmlParagraphs(text) : markdownParagraphs(text)
        var result: [ScriptWord] = []
        for (paragraph, speaker) in paragraphs {
            let plain = isHTML
                ? paragraph.replacing(/<[^>]+>/, with: " ")
                : markdownInline(paragraph.replacing(/<[^>]+>/, with: " "))
            // Every word and sign the author wrote (`&`, `—`), but Markdown's list and quote marks.
            let tokens = plain.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter { !Self.markdownMarks.contains($0) }
            for (index, token) in tokens.enumerated() {
                result.append(ScriptWord(text: decodeEntities(token), startsParagraph: index == 0, speaker: speaker))
            }
        }
        return result
    }

    /// Markdown's inline marks reduced to the words they mark: links to their text, footnote
    /// references (`[^1]`) removed, `**strong**`, `*emphasis*`, `_emphasis_` and `` `code` `` to
    /// their text. A lone `*` or `_` inside a word (`2*3`, `snake_case`) stays.
    static func markdownInline(_ text: String) -> String {
        text.replacing(/\[\^[^\]\s]+\]/, with: "")
            .replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
            .replacing("**", with: "").replacing("__", with: "")
            .replacing(/`+([^`\n]+?)`+/) { String($0.1) }
            .replacing(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/) { String($0.1) + String($0.2) }
            .replacing(/(^|[^\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])/) { String($0.1) + String($0.2) }
    }

    /// Paragraphs of plain text or Markdown, each with its speaker.
    private static func markdownParagraphs(_ text: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var speaker: String?
        var seen = false
        for block in text.replacing("\r\n", with: "\n").split(separator: "\n\n", omittingEmptySubsequences: true) {
            // Heading lines go, and footnote definitions (`[^1]: …`, not read aloud).
            let lines = block.split(separator: "\n").filter {
                let line = String($0).trimmingCharacters(in: .whitespaces)
                return !line.hasPrefix("#") && line.firstMatch(of: /^\[\^[^\]]+\]:/) == nil
            }
            var paragraph = lines.joined(separator: "\n").trimmingCharacters(in: .whitespaces)
            guard !paragraph.isEmpty else { continue }
            if let match = paragraph.wholeMatch(of: /\*\*([^*\n]+)\*\*(?: · [0-9:]+)?/) {
                speaker = String(match.1)
                seen = false
                continue
            }
            if paragraph.wholeMatch(of: /\*Seen\*(?: · [0-9:]+)?/) != nil {
                seen = true
                continue
            }
            if paragraph.hasPrefix(">") || seen {
                seen = false
                continue
            }
            if let match = paragraph.firstMatch(of: /^\*\*([^*\n]+)\*\*(?: · [0-9:]+)?\n/) {
                speaker = String(match.1)
                paragraph = String(paragraph[match.range.upperBound...])
            } else if let match = paragraph.firstMatch(of: /^\*\*([^*\n:]{1,40}?)(?::\*\*|\*\*:)[ \t]+/) {
                // `**Ann:** text` or `**Ann**: text`, a label at the start of the speech (bold
                // without the colon is emphasis: `**Never** again.`).
                speaker = String(match.1)
                paragraph = String(paragraph[match.range.upperBound...])
            } else if let match = paragraph.firstMatch(of: /^([^\n]{1,60}) \(([0-9]+:)?[0-9]+:[0-9]{2}\)\n/) {
                // `Name (1:23)` on a line of its own: our plain-text transcripts.
                if match.1 == "Seen" { continue }
                speaker = String(match.1)
                paragraph = String(paragraph[match.range.upperBound...])
            }
            result.append((paragraph, speaker))
        }
        return result
    }

    /// The `<p>` paragraphs of HTML (those in `<main>` when there is one), without time stamps and
    /// passages marked as seen, each with its `<cite>` speaker.
    private static func htmlParagraphs(_ text: String) -> [(String, String?)] {
        var scope = Substring(text)
        if let open = text.firstMatch(of: /<main[^>]*>/), let close = text[open.range.upperBound...].firstMatch(of: /<\/main>/) {
            scope = text[open.range.upperBound..<close.range.lowerBound]
        }
        return scope.matches(of: /<p([^>]*)>([\s\S]*?)<\/p>/).compactMap { match in
            if match.1.contains("seen") { return nil }
            var body = String(match.2)
                .replacing(/<a[^>]*class="stamp"[^>]*>[\s\S]*?<\/a>/, with: "")
                .replacing(/<time[^>]*>[^<]*<\/time>/, with: "")
                .replacing(/<span class="seen-label">[^<]*<\/span>/, with: "")
            var speaker: String?
            if let cite = body.firstMatch(of: /<cite>([^<]+)<\/cite>/) {
                speaker = decodeEntities(String(cite.1))
                body.removeSubrange(cite.range)
            }
            return (body, speaker)
        }
    }

    private static func decodeEntities(_ text: String) -> String {
        text.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&#39;", with: "'")
    }
}

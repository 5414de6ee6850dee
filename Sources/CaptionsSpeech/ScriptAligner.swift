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
    /// (code `align.notHeard`).
    public static func align(
        _ script: [ScriptWord], to heard: [TranscriptShaper.Word], band: Int = 400
    ) -> (words: [TranscriptShaper.Word], diagnostics: [Diagnostic]) {
        guard !script.isEmpty else { return ([], []) }
        guard !heard.isEmpty else {
            return (script.map { TranscriptShaper.Word(text: $0.text, start: 0, end: 0, speaker: $0.speaker, startsParagraph: $0.startsParagraph) },
                    [Diagnostic(.warning, "align.notHeard", "no speech was heard: the script's \(script.count) words have no times", at: .start)])
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
            let to = end < n ? words[end].start : from + 0.3 * Double(end - index)
            let step = max(0, to - from) / Double(end - index)
            for k in index..<end {
                words[k].start = from + step * Double(k - index)
                words[k].end = words[k].start + step
            }
            let missing = words[index..<end].map(\.text).joined(separator: " ")
            diagnostics.append(Diagnostic(
                .warning, "align.notHeard",
                "\(RecognitionGuards.clock(from)): \(end - index) word(s) of the script not heard in the audio: \"\(missing.prefix(80))\"; timed between their neighbours",
                at: .start))
            index = end
        }
        return (words, diagnostics)
    }

    /// For each of `a`, the index of `b` it is aligned with (nil: inserted), by a banded edit
    /// distance: row i covers the columns around i × |b| / |a|.
    static func alignTokens(_ a: [String], _ b: [String], band: Int) -> [Int?] {
        let n = a.count, m = b.count
        let width = max(band, abs(n - m) + 8)
        func range(_ i: Int) -> ClosedRange<Int> {
            let centre = Int((Double(i) * Double(m) / Double(max(n, 1))).rounded())
            return max(0, centre - width)...min(m, centre + width)
        }
        let infinity = Int.max / 4
        var cost: [[Int]] = [], move: [[UInt8]] = []  // 0 diagonal, 1 up (a word unheard), 2 left (an extra heard word)
        cost.reserveCapacity(n + 1)
        move.reserveCapacity(n + 1)
        for i in 0...n {
            let columns = range(i)
            var row = [Int](repeating: infinity, count: columns.count)
            var moves = [UInt8](repeating: 2, count: columns.count)
            for j in columns {
                let k = j - columns.lowerBound
                if i == 0 && j == 0 { row[k] = 0; continue }
                var best = infinity, step: UInt8 = 2
                if i > 0, j > 0, let previous = value(cost, range, i - 1, j - 1) {
                    let candidate = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
                    if candidate < best { (best, step) = (candidate, 0) }
                }
                if i > 0, let previous = value(cost, range, i - 1, j), previous + 1 < best { (best, step) = (previous + 1, 1) }
                if k > 0, row[k - 1] + 1 < best { (best, step) = (row[k - 1] + 1, 2) }
                row[k] = best
                moves[k] = step
            }
            cost.append(row)
            move.append(moves)
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

    private static func value(_ cost: [[Int]], _ range: (Int) -> ClosedRange<Int>, _ i: Int, _ j: Int) -> Int? {
        let columns = range(i)
        guard columns.contains(j) else { return nil }
        return cost[i][j - columns.lowerBound]
    }

    /// Lower case letters and digits only.
    static func normalised(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }.map(Character.init))
    }

    /// The words of a script: plain text (a blank line between paragraphs), Markdown (headings,
    /// emphasis and links reduced to their words; `**Name** · 1:23` or `Name:` at a paragraph's
    /// start names its speaker) or HTML (the text of its `<p>` elements, `<cite>` naming the speaker).
    public static func words(ofScript text: String) -> [ScriptWord] {
        let isHTML = text.contains("<p") && text.contains("</p>")
        let paragraphs = isHTML ? htmlParagraphs(text) : text.replacing("\r\n", with: "\n").split(separator: "\n\n", omittingEmptySubsequences: true).map(String.init)
        var result: [ScriptWord] = []
        var speaker: String?
        for var paragraph in paragraphs {
            paragraph = paragraph.trimmingCharacters(in: .whitespaces)
            if paragraph.hasPrefix("#") { continue }  // a Markdown heading
            // `**Name** · 1:23` (our Markdown transcripts) on a line of its own names the speaker.
            if let match = paragraph.firstMatch(of: /^\*\*([^*]+)\*\*(?: · [0-9:]+)?\n/) {
                speaker = String(match.1)
                paragraph = String(paragraph[match.range.upperBound...])
            } else if let match = paragraph.firstMatch(of: /^<cite>([^<]+)<\/cite>/) {
                speaker = String(match.1)
                paragraph = String(paragraph[match.range.upperBound...])
            }
            let plain = paragraph.replacing(/<[^>]+>/, with: " ").replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
                .replacing("**", with: "").replacing("__", with: "")
            let tokens = plain.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter { !normalised($0).isEmpty || $0.count > 1 }
            for (index, token) in tokens.enumerated() {
                result.append(ScriptWord(text: decodeEntities(token), startsParagraph: index == 0, speaker: speaker))
            }
        }
        return result
    }

    private static func htmlParagraphs(_ text: String) -> [String] {
        text.matches(of: /<p[^>]*>([\s\S]*?)<\/p>/).map { match in
            String(match.1).replacing(/<time[^>]*>[^<]*<\/time>/, with: "")
        }
    }

    private static func decodeEntities(_ text: String) -> String {
        text.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&#39;", with: "'")
    }
}

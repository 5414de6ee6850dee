/// Re-breaks plain-text cues into lines of at most `lineLength` characters and, when a cue needs
/// more than `maxLines` lines, splits it into several cues whose times are shared in proportion
/// to their characters (exactly, no rounding).
///
/// Only plain text, or plain text in one voice span, is re-broken; cues with other markup are left
/// as they are, so nothing is lost. Cues without an end are re-broken but not split.
/// A word longer than a line gets a line of its own. Japanese and Chinese, written without
/// spaces, break between any two characters (``TextWords``).
public struct CueLineWrapper: Sendable {
    /// The longest line, in characters.
    public var lineLength: Int
    /// The most lines in one cue.
    public var maxLines: Int

    /// A wrapper; `maxLines` defaults to no limit.
    public init(lineLength: Int, maxLines: Int = .max) {
        self.lineLength = max(lineLength, 1)
        self.maxLines = max(maxLines, 1)
    }

    /// The document with its plain-text cues re-broken.
    public func apply(to document: TimedTextDocument) -> TimedTextDocument {
        var wrapped = document
        wrapped.cues = document.cues.flatMap(wrap)
        return wrapped
    }

    private func wrap(_ cue: Cue) -> [Cue] {
        var voice: Span?
        var nodes = cue.content
        if nodes.count == 1, case .span(let span) = nodes[0], span.kind == .voice {
            voice = span
            nodes = span.children
        }
        var text = ""
        for node in nodes {
            guard case .text(let part) = node else { return [cue] }
            text += part
        }
        func content(_ lines: [String]) -> [InlineNode] {
            let node = InlineNode.text(lines.joined(separator: "\n"))
            guard var voice else { return [node] }
            voice.children = [node]
            return [.span(voice)]
        }
        let chunks = chunks(of: text)
        guard !chunks.isEmpty else { return [cue] }
        guard chunks.count > 1, let end = cue.end else {
            var single = cue
            single.content = content(chunks.flatMap { $0 })
            return [single]
        }
        let weights = chunks.map { Int64(TextWords.join($0.map { Substring($0) }).count) }
        let total = weights.reduce(0, +)
        var done: Int64 = 0
        return chunks.enumerated().map { index, chunk in
            var piece = cue
            if !cue.id.isEmpty { piece.id = index == 0 ? cue.id : "\(cue.id)-\(index + 1)" }
            piece.start = cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
            done += weights[index]
            piece.end = index == chunks.count - 1 ? end : cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
            piece.content = content(chunk)
            return piece
        }
    }

    /// The lines of `text` in groups of at most `maxLines`, the words shared out evenly between the
    /// groups (so no cue is left with one word), ending at punctuation where one is near, when
    /// that still fits.
    private func chunks(of text: String) -> [[String]] {
        let lines = Self.lines(of: text, length: lineLength)
        let count = lines.count / maxLines + (lines.count % maxLines == 0 ? 0 : 1)
        guard count > 1 else { return lines.isEmpty ? [] : [lines] }
        let words = TextWords.of(text)
        let target = Double(words.reduce(0) { $0 + $1.count + 1 }) / Double(count)
        var balanced: [[String]] = []
        var group: [Substring] = []
        var size = 0
        for word in words {
            // A group ends at the middle of the word that reaches its share, or, from 60 % of
            // its share on, after a sentence or clause (as LineBalancer groups do).
            let atPunctuation = group.last?.last.map { ".?!,;:…、。，！？".contains($0) } ?? false
            let reach = Double(size) + (atPunctuation ? target * 0.4 : Double(word.count + 1) / 2)
            if !group.isEmpty, balanced.count < count - 1, reach > target {
                balanced.append(Self.lines(of: TextWords.join(group), length: lineLength))
                group = []
                size = 0
            }
            group.append(word)
            size += word.count + 1
        }
        balanced.append(Self.lines(of: TextWords.join(group), length: lineLength))
        if balanced.allSatisfy({ $0.count <= maxLines }) { return balanced }
        return stride(from: 0, to: lines.count, by: maxLines).map { Array(lines[$0..<min($0 + maxLines, lines.count)]) }
    }

    /// Greedy word wrap of `text` (existing line breaks are joined first).
    static func lines(of text: String, length: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var last: Substring?
        let unspaced = TextWords.mayHoldUnspaced(text)
        for word in TextWords.of(text) {
            let space = last.map { !unspaced || TextWords.spaced($0, word) ? 1 : 0 } ?? 0
            if line.isEmpty {
                line = String(word)
            } else if line.count + space + word.count <= length {
                line += (space == 1 ? " " : "") + word
            } else {
                lines.append(line)
                line = String(word)
            }
            last = word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

import CaptionsCore

/// Turns recognised words into cues people can read: captions (short lines, a reading speed a
/// viewer can keep up with) or podcast segments (a sentence or so each).
public struct TranscriptShaper: Sendable {
    /// The longest line, in characters.
    public var maximumLineLength: Int
    /// The most lines a cue shows.
    public var maximumLines: Int
    /// The longest a cue lasts, in seconds.
    public var maximumDuration: Double
    /// The shortest a cue lasts when the time is free, in seconds.
    public var minimumDuration: Double
    /// The reading speed a cue is held on screen for (characters a second), when the time is free.
    public var maximumCharactersPerSecond: Double
    /// A pause between words, in seconds, that starts a new cue.
    public var pause: Double
    /// Whether each word's time is kept inside the cue (WebVTT inline timestamps).
    public var wordTimes: Bool
    /// The end of the recording, in seconds: a cue is not held on screen past it.
    public var recordingEnd: Double = .infinity

    /// Captions as the common delivery specifications want them: 42 characters a line, 2 lines,
    /// at most 7 s, at least 1 s, held for 20 characters a second where the time is free.
    public static let captions = TranscriptShaper(
        maximumLineLength: 42, maximumLines: 2, maximumDuration: 7, minimumDuration: 1,
        maximumCharactersPerSecond: 20, pause: 0.6, wordTimes: false)

    /// Podcast transcript segments: a sentence or a breath each, one line, up to 15 s.
    public static let podcastSegments = TranscriptShaper(
        maximumLineLength: 160, maximumLines: 1, maximumDuration: 15, minimumDuration: 0,
        maximumCharactersPerSecond: 1000, pause: 0.8, wordTimes: false)

    /// A word to place, with who says it.
    public struct Word: Sendable, Equatable {
        public var text: String
        public var start: Double
        public var end: Double
        public var speaker: String?
        /// Whether a new paragraph starts with it (a cue never runs across).
        public var startsParagraph: Bool
        /// Whether the recogniser started a segment with it (its start is the least sure).
        public var startsSegment = false
        /// Whether a space comes before it (not between the words of Chinese or Japanese).
        public var spaceBefore = true

        /// The width it adds after another word on a line.
        var width: Int { text.count + (spaceBefore ? 1 : 0) }

        /// A word.
        public init(text: String, start: Double, end: Double, speaker: String? = nil, startsParagraph: Bool = false) {
            (self.text, self.start, self.end, self.speaker, self.startsParagraph) = (text, start, end, speaker, startsParagraph)
        }
    }

    /// The words of `segments` in time order (a segment without word times is one word).
    public static func words(of segments: [RecognisedSegment]) -> [Word] {
        var result: [Word] = []
        for segment in segments {
            if segment.words.isEmpty {
                let text = segment.text.trimmingCharacters(in: .whitespaces)
                if !text.isEmpty { result.append(Word(text: text, start: segment.start, end: segment.end)) }
                continue
            }
            for (index, word) in segment.words.enumerated() {
                let text = word.word.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                // A piece without the space before it continues the word before when it is a
                // hyphen's or an apostrophe's ("ill" "-disposed", "don" "'t"); otherwise it is a word
                // of a language written without spaces.
                let spaced = word.word.first?.isWhitespace ?? true
                if index > 0, !spaced, let last = result.indices.last,
                    "-'’".contains(text.first ?? " ") || result[last].text.hasSuffix("-") {
                    result[last].text += text
                    result[last].end = max(result[last].end, word.end)
                    continue
                }
                var made = Word(text: text, start: word.start, end: max(word.end, word.start))
                made.startsSegment = index == 0
                made.spaceBefore = spaced || index == 0
                result.append(made)
            }
        }
        return result
    }

    /// Cues for `words`, in time order; every word is in exactly one cue, in its order.
    public func cues(for words: [Word]) -> [Cue] {
        var groups: [[Word]] = []
        var current: [Word] = []
        func length(_ words: [Word]) -> Int { Self.width(words) }
        for word in words {
            if let last = current.last, let first = current.first {
                let wouldBe = length(current + [word])
                let breakHere = word.start - last.end >= pause
                    || word.startsParagraph
                    || word.speaker != last.speaker
                    || word.end - first.start > maximumDuration
                    || !fits(current + [word])
                    // A sentence ends the cue once it holds half a line: the next starts afresh.
                    || (last.text.last.map { ".?!".contains($0) } ?? false && length(current) * 2 >= maximumLineLength)
                    || wouldBe > maximumLineLength * maximumLines
                if breakHere {
                    groups.append(current)
                    current = []
                }
            }
            current.append(word)
        }
        if !current.isEmpty { groups.append(current) }

        var cues: [Cue] = []
        for (index, group) in groups.enumerated() {
            guard let first = group.first, let last = group.last else { continue }
            let lines = wrap(group)
            let characters = Double(lines.reduce(0) { $0 + Self.width($1) })
            var end = max(last.end, first.start + minimumDuration, first.start + characters / maximumCharactersPerSecond)
            end = min(end, first.start + maximumDuration)
            // Never into the next cue: held only while the time is free.
            if index + 1 < groups.count, let next = groups[index + 1].first { end = min(end, next.start) }
            end = max(min(end, recordingEnd), last.end)
            var content: [InlineNode] = []
            for (lineIndex, line) in lines.enumerated() {
                for (wordIndex, word) in line.enumerated() {
                    let separator = wordIndex > 0 ? (word.spaceBefore ? " " : "") : (lineIndex > 0 ? "\n" : "")
                    if wordTimes, lineIndex + wordIndex > 0 {
                        content.append(.text(separator))
                        content.append(.timestamp(Self.time(word.start)))
                        content.append(.text(word.text))
                    } else {
                        content.append(.text(separator + word.text))
                    }
                }
            }
            cues.append(Cue(start: Self.time(first.start), end: Self.time(end), speaker: first.speaker, content: Self.merged(content)))
        }
        return cues
    }

    /// Whether `words` fit the lines.
    private func fits(_ words: [Word]) -> Bool {
        let lines = wrap(words)
        return lines.count <= maximumLines && lines.allSatisfy { Self.width($0) <= maximumLineLength }
    }

    /// `words` in lines of at most ``maximumLineLength``: one line when they fit, else lines as
    /// even as the words allow (a bottom-heavy split on a tie, as captioners prefer).
    func wrap(_ words: [Word]) -> [[Word]] {
        let total = Self.width(words)
        guard total > maximumLineLength, words.count > 1 else { return [words] }
        if maximumLines == 2 {
            var best: (split: Int, score: Int)?
            var left = -1
            for split in 1..<words.count {
                left += split == 1 ? words[0].text.count : words[split - 1].width
                let right = Self.width(Array(words[split...]))
                guard left <= maximumLineLength, right <= maximumLineLength else { continue }
                let score = abs(left - right) + (left > right ? 1 : 0)
                if best == nil || score < best!.score { best = (split, score) }
            }
            if let best { return [Array(words[..<best.split]), Array(words[best.split...])] }
        }
        // Greedy filling.
        var lines: [[Word]] = [[]]
        var width = -1
        for word in words {
            if width + word.width > maximumLineLength, !lines[lines.count - 1].isEmpty {
                lines.append([])
                width = -1
            }
            lines[lines.count - 1].append(word)
            width += lines[lines.count - 1].count == 1 ? word.text.count + 1 : word.width
        }
        return lines
    }

    /// The characters `words` take on one line (the first word's space not counted).
    static func width(_ words: [Word]) -> Int {
        guard let first = words.first else { return 0 }
        return words.dropFirst().reduce(first.text.count) { $0 + $1.width }
    }

    /// Adjacent text nodes joined.
    private static func merged(_ nodes: [InlineNode]) -> [InlineNode] {
        var result: [InlineNode] = []
        for node in nodes {
            if case .text(let text) = node, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + text)
            } else {
                result.append(node)
            }
        }
        return result
    }

    /// Seconds as a time to the millisecond.
    static func time(_ seconds: Double) -> MediaTime {
        MediaTime(milliseconds: Int64((max(0, seconds) * 1000).rounded()))
    }
}

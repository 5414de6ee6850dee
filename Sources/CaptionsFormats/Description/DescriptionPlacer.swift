import CaptionsCore

/// Places audio descriptions in the pauses of the dialogue.
///
/// Dialogue cues, widened by `margin` on each side, occupy the timeline; the gaps are the rest up
/// to `duration`. Each description goes, in script order, into the first gap at or after its
/// anchor (or the previous description) where its spoken length fits; one that does not fit whole
/// there is split at sentence ends, each sentence in the first gap it fits. Descriptions never move
/// past the next anchor. What fits nowhere is reported as needing extended description.
public struct DescriptionPlacer: Sendable {
    /// A half-open stretch of time.
    public struct Interval: Sendable, Equatable {
        /// Its start.
        public var start: MediaTime
        /// Its end.
        public var end: MediaTime

        /// An interval.
        public init(start: MediaTime, end: MediaTime) {
            self.start = start
            self.end = end
        }

        /// `end - start`.
        public var length: MediaTime { end - start }
    }

    /// A description (or one sentence of a split one) on the timeline.
    public struct Placement: Sendable, Equatable {
        /// The script entry it comes from.
        public var entryIndex: Int
        /// 1-based part number when the entry was split, else nil.
        public var part: Int?
        /// Where it is spoken.
        public var interval: Interval
        /// What is spoken.
        public var text: String
    }

    /// The outcome.
    public struct Result: Sendable, Equatable {
        /// The placed descriptions, in time order.
        public var placements: [Placement]
        /// Script entries that fit no pause (they need extended description, WCAG 1.2.7).
        public var unplaced: [Int]
        /// The pauses that were available.
        public var gaps: [Interval]
    }

    /// Space kept between dialogue and a description, each side.
    public var margin: MediaTime
    /// Speaking rate, words per minute.
    public var wordsPerMinute: Double
    /// The spoken length of a text; defaults to words at `wordsPerMinute`.
    public var spokenLength: @Sendable (String) -> MediaTime

    /// A placer estimating spoken length from the word count.
    public init(margin: MediaTime = MediaTime(milliseconds: 250), wordsPerMinute: Double = 160) {
        self.margin = margin
        self.wordsPerMinute = wordsPerMinute
        let rate = wordsPerMinute
        spokenLength = { text in
            let words = text.split(whereSeparator: { $0.isWhitespace }).count
            return MediaTime(milliseconds: Int64((Double(words) * 60_000 / rate).rounded(.up)))
        }
    }

    /// The pauses between `cues` (widened by the margin) within `0..<duration`.
    public func gaps(around cues: [Cue], duration: MediaTime) -> [Interval] {
        let occupied = cues.compactMap { cue -> Interval? in
            guard let end = cue.end, cue.start < end else { return nil }
            return Interval(start: cue.start - margin, end: end + margin)
        }.sorted { $0.start < $1.start }
        var gaps: [Interval] = []
        var cursor = MediaTime.zero
        for interval in occupied {
            if cursor < interval.start { gaps.append(Interval(start: cursor, end: min(interval.start, duration))) }
            cursor = max(cursor, interval.end)
        }
        if cursor < duration { gaps.append(Interval(start: cursor, end: duration)) }
        return gaps.filter { $0.start < $0.end }
    }

    /// Places `script` around `dialogue` on a timeline `duration` long.
    public func place(_ script: DescriptionScript, dialogue: [Cue], duration: MediaTime) -> Result {
        let gaps = gaps(around: dialogue, duration: duration)
        var placements: [Placement] = []
        var unplaced: [Int] = []
        var cursor = MediaTime.zero
        for (index, entry) in script.entries.enumerated() {
            let earliest = max(cursor, entry.start ?? .zero)
            let nextAnchor = script.entries[(index + 1)...].lazy.compactMap(\.start).first
            let latest = min(entry.end ?? duration, nextAnchor.map { max($0, earliest) } ?? duration)
            if let whole = fit(entry.text, in: gaps, from: earliest, before: latest, firstGapOnly: true) {
                placements.append(Placement(entryIndex: index, part: nil, interval: whole, text: entry.text))
                cursor = whole.end
                continue
            }
            let sentences = Self.sentences(entry.text)
            var parts: [Placement] = []
            var partCursor = earliest
            for (number, sentence) in sentences.enumerated() {
                guard let slot = fit(sentence, in: gaps, from: partCursor, before: latest, firstGapOnly: false) else {
                    parts = []
                    break
                }
                parts.append(Placement(entryIndex: index, part: sentences.count > 1 ? number + 1 : nil, interval: slot, text: sentence))
                partCursor = slot.end
            }
            if parts.isEmpty {
                unplaced.append(index)
            } else {
                placements += parts
                cursor = partCursor
            }
        }
        return Result(placements: placements, unplaced: unplaced, gaps: gaps)
    }

    /// The first slot for `text` starting at or after `earliest` and ending by `latest`.
    private func fit(_ text: String, in gaps: [Interval], from earliest: MediaTime, before latest: MediaTime,
                     firstGapOnly: Bool) -> Interval? {
        let length = spokenLength(text)
        for gap in gaps where gap.end > earliest {
            let start = max(gap.start, earliest)
            let end = start + length
            if end <= gap.end, end <= latest { return Interval(start: start, end: end) }
            if firstGapOnly || start >= latest { return nil }
        }
        return nil
    }

    /// The sentences of `text`, split after `.`, `!` or `?` followed by a space.
    static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            if character.isWhitespace, let previous, ".!?".contains(previous) {
                sentences.append(current)
                current = ""
            } else if !(current.isEmpty && character.isWhitespace) {
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }
}

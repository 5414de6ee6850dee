import CaptionsCore

/// Breaks a cue's text into balanced lines within a profile's limits: the fewest lines that fit,
/// their lengths as even as possible, preferring breaks after punctuation and never breaking
/// between a title and the name after it (`Mr. | Smith`) or after an article.
struct LineBalancer {
    /// The longest line, in characters.
    let maxLength: Int
    /// The most lines.
    let maxLines: Int

    /// Words a line never ends with: titles (the name must follow on the same line).
    static let titles: Set<Substring> = [
        "Mr.", "Mrs.", "Ms.", "Mx.", "Dr.", "Prof.", "St.", "Sr.", "Jr.", "Rev.", "Capt.", "Gen.", "Col.", "Lt.", "Sgt.",
        "Sir", "Dame", "Lord", "Lady", "Mme", "Mlle", "M.", "Herr", "Frau", "Sra.", "Srta.", "Dña.", "Don", "Doña",
    ]
    /// Words a line should not end with: articles (the noun follows them).
    static let articles: Set<Substring> = ["a", "an", "the", "A", "An", "The", "le", "la", "les", "un", "une", "der", "die", "das", "el", "los", "las"]

    /// Characters a line may well end with: the end of a phrase.
    static let phraseEnds = Set(".,;:!?…、。，！？")

    /// Balanced lines for `words`, or `nil` when they cannot fit in ``maxLines`` lines (a word
    /// longer than a line never fits).
    func lines(for words: [Substring]) -> [String]? {
        guard !words.isEmpty else { return [] }
        let lengths = words.map { $0.count }
        guard lengths.allSatisfy({ $0 <= maxLength }) else { return nil }
        let count = words.count
        // width(i, j): the line of words i..<j, from prefix sums of the word lengths and of the
        // spaces ``join(_:)`` puts between neighbours (none between two unspaced characters).
        var letters = [0], spaces = [0, 0]
        for (index, length) in lengths.enumerated() {
            letters.append(letters[index] + length)
            if index > 0 {
                spaces.append(spaces[index] + (TextWords.spaced(words[index - 1], words[index]) ? 1 : 0))
            }
        }
        func width(_ i: Int, _ j: Int) -> Int { letters[j] - letters[i] + spaces[j] - spaces[i + 1] }
        // More letters than the lines can hold: no need to search.
        let capacity = maxLength.multipliedReportingOverflow(by: maxLines)
        if !capacity.overflow, letters[count] > capacity.partialValue { return nil }
        func breakPenalty(after index: Int) -> Double {
            let word = words[index]
            if Self.titles.contains(word) { return .infinity }
            if Self.articles.contains(word) { return 400 }
            if let last = word.last, Self.phraseEnds.contains(last) { return -30 }
            return 0
        }
        let penalties = (0..<count).map(breakPenalty(after:))
        // best[j * stride + k]: the least cost of the first j words in k lines; cost = Σ length² +
        // penalties, which is least when the lines are even. from: where that k-th line starts.
        let most = max(1, min(maxLines, count)), stride = most + 1
        var best = [Double](repeating: .infinity, count: (count + 1) * stride)
        var from = [Int](repeating: -1, count: (count + 1) * stride)
        best[0] = 0
        // Each line count's table extends the one before (the first j words in k lines do not
        // depend on how many lines there are in all), so one table serves every count.
        for k in 1...most {
            for j in k...count {
                // From the shortest line back: once a line is too wide, longer ones are too.
                for i in Swift.stride(from: j - 1, through: k - 1, by: -1) {
                    let lineWidth = width(i, j)
                    if lineWidth > maxLength { break }
                    let before = best[i * stride + k - 1]
                    guard before < .infinity else { continue }
                    let penalty = j < count ? penalties[j - 1] : 0
                    let cost = before + Double(lineWidth * lineWidth) + penalty
                    if cost < best[j * stride + k] {
                        best[j * stride + k] = cost
                        from[j * stride + k] = i
                    }
                }
            }
            guard best[count * stride + k] < .infinity else { continue }
            var lines: [String] = []
            var end = count
            for line in Swift.stride(from: k, through: 1, by: -1) {
                let start = from[end * stride + line]
                lines.append(TextWords.join(words[start..<end]))
                end = start
            }
            return lines.reversed()
        }
        return nil
    }

    /// `words` in as few consecutive groups as fit (each within the limits), balanced by length and
    /// ending at punctuation where possible; `nil` when no split into at most `limit` groups fits.
    func groups(for words: [Substring], limit: Int) -> [[Substring]]? {
        guard limit >= 2, words.count >= 2 else { return nil }
        let total = words.reduce(0) { $0 + $1.count + 1 }
        for groupCount in 2...limit where groupCount <= words.count {
            let target = Double(total) / Double(groupCount)
            var groups: [[Substring]] = []
            var current: [Substring] = []
            var size = 0
            for (index, word) in words.enumerated() {
                current.append(word)
                size += word.count + 1
                let remainingWords = words.count - index - 1
                let groupsLeft = groupCount - groups.count - 1
                guard groupsLeft > 0, remainingWords >= groupsLeft else { continue }
                let atPunctuation = word.last.map(Self.phraseEnds.contains) ?? false
                if Double(size) >= target * (atPunctuation ? 0.6 : 1.0), !Self.titles.contains(word) {
                    groups.append(current)
                    current = []
                    size = 0
                }
            }
            if !current.isEmpty { groups.append(current) }
            if groups.allSatisfy({ lines(for: $0) != nil }) { return groups }
        }
        return nil
    }
}

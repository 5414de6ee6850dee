/// Breaks a cue's text into balanced lines within a profile's limits: the fewest lines that fit,
/// their lengths as even as possible, preferring breaks after punctuation and never breaking
/// between a title and the name after it (`Mr. | Smith`) or after an article.
struct LineBalancer {
    /// The longest line, in characters.
    let maxLength: Int
    /// The most lines.
    let maxLines: Int

    /// Words a line never ends with: titles (the name must follow on the same line).
    static let titles: Set<String> = [
        "Mr.", "Mrs.", "Ms.", "Mx.", "Dr.", "Prof.", "St.", "Sr.", "Jr.", "Rev.", "Capt.", "Gen.", "Col.", "Lt.", "Sgt.",
        "Sir", "Dame", "Lord", "Lady", "Mme", "Mlle", "M.", "Herr", "Frau", "Sra.", "Srta.", "Dña.", "Don", "Doña",
    ]
    /// Words a line should not end with: articles (the noun follows them).
    static let articles: Set<String> = ["a", "an", "the", "A", "An", "The", "le", "la", "les", "un", "une", "der", "die", "das", "el", "los", "las"]

    /// The words of `text`: split at spaces, or, for text written without spaces (Japanese,
    /// Chinese), one character each, so that lines may break between any two.
    static func words(of text: String) -> [Substring] {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard words.contains(where: { $0.contains(where: isUnspaced) }) else { return words }
        return words.flatMap { word in word.indices.map { word[$0...$0] } }
    }

    /// Whether a character belongs to a script written without spaces between words.
    static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x3000...0x303F: return true
        default: return false
        }
    }

    /// The words joined into a line: with spaces, but none between two unspaced characters.
    static func join(_ words: ArraySlice<Substring>) -> String {
        var line = ""
        for word in words {
            if let last = line.last, !(isUnspaced(last) || word.first.map(isUnspaced) == true) { line += " " }
            line += word
        }
        return line
    }

    /// Balanced lines for `words`, or `nil` when they cannot fit in ``maxLines`` lines (a word
    /// longer than a line never fits).
    func lines(for words: [Substring]) -> [String]? {
        guard !words.isEmpty else { return [] }
        let lengths = words.map(\.count)
        guard lengths.allSatisfy({ $0 <= maxLength }) else { return nil }
        let count = words.count
        // width(i, j): the line of words i..<j, from prefix sums of the word lengths and of the
        // spaces ``join(_:)`` puts between neighbours (none between two unspaced characters).
        var letters = [0], spaces = [0, 0]
        for (index, length) in lengths.enumerated() {
            letters.append(letters[index] + length)
            if index > 0 {
                let joined = !(words[index - 1].last.map(Self.isUnspaced) == true || words[index].first.map(Self.isUnspaced) == true)
                spaces.append(spaces[index] + (joined ? 1 : 0))
            }
        }
        func width(_ i: Int, _ j: Int) -> Int { letters[j] - letters[i] + spaces[j] - spaces[i + 1] }
        // More letters than the lines can hold: no need to search.
        let capacity = maxLength.multipliedReportingOverflow(by: maxLines)
        if !capacity.overflow, letters[count] > capacity.partialValue { return nil }
        func breakPenalty(after index: Int) -> Double {
            let word = String(words[index])
            if Self.titles.contains(word) { return .infinity }
            if Self.articles.contains(word) { return 400 }
            if let last = word.last, ".,;:!?…、。，！？".contains(last) { return -30 }
            return 0
        }
        let penalties = (0..<count).map(breakPenalty(after:))
        for lineCount in 1...max(1, min(maxLines, count)) {
            // best[j][k]: the least cost of the first j words in k lines; cost = Σ length² + penalties,
            // which is least when the lines are even.
            var best = Array(repeating: Array(repeating: Double.infinity, count: lineCount + 1), count: count + 1)
            var from = Array(repeating: Array(repeating: -1, count: lineCount + 1), count: count + 1)
            best[0][0] = 0
            for j in 1...count {
                for k in 1...min(lineCount, j) {
                    // From the shortest line back: once a line is too wide, longer ones are too.
                    for i in stride(from: j - 1, through: k - 1, by: -1) {
                        let lineWidth = width(i, j)
                        if lineWidth > maxLength { break }
                        guard best[i][k - 1] < .infinity else { continue }
                        let penalty = j < count ? penalties[j - 1] : 0
                        let cost = best[i][k - 1] + Double(lineWidth * lineWidth) + penalty
                        if cost < best[j][k] {
                            best[j][k] = cost
                            from[j][k] = i
                        }
                    }
                }
            }
            guard best[count][lineCount] < .infinity else { continue }
            var lines: [String] = []
            var end = count
            for k in stride(from: lineCount, through: 1, by: -1) {
                let start = from[end][k]
                lines.append(Self.join(words[start..<end]))
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
                let atPunctuation = word.last.map { ".?!,;:…、。，！？".contains($0) } ?? false
                if Double(size) >= target * (atPunctuation ? 0.6 : 1.0), !Self.titles.contains(String(word)) {
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

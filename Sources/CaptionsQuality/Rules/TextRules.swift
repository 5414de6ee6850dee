import CaptionsCore
import CaptionsFormats

/// Cues with no text: `check.cue.empty`.
struct EmptyCueRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        for index in context.cues.indices where context.facts[index].isEmpty {
            sink.add("check.cue.empty", .warning, "no text", cue: index, repair: "empty")
        }
    }
}

/// Line count and line length: `check.line.count`, `check.line.length`.
struct LineRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let maxLines = context.limits.maxLines
        let maxLength = context.limits.maxLineLength
        guard maxLines != nil || maxLength != nil else { return }
        let facts = context.facts
        for index in facts.indices where !facts[index].isEmpty {
            if let maxLines, facts[index].lineCount > maxLines {
                sink.add("check.line.count", .error, "\(facts[index].lineCount) lines, over \(maxLines)", cue: index, repair: "lines")
            }
            if let maxLength, facts[index].longestLine > maxLength {
                let lengths = facts[index].lineLengths(of: context.cues[index].plainText)
                guard lengths.contains(where: { $0 > maxLength }) else { continue }
                // "line 1 has 43, line 3 has 45 characters, over 42"
                sink.add("check.line.length", .error, cue: index, repair: "lines") { text in
                    var first = true
                    for (line, length) in lengths.enumerated() where length > maxLength {
                        text.append(first ? "line " : ", line ")
                        text.append(line + 1)
                        text.append(" has ")
                        text.append(length)
                        first = false
                    }
                    text.append(" characters, over ")
                    text.append(maxLength)
                }
            }
        }
    }
}

/// Reading speed: `check.readingSpeed`, in characters a second or words a minute as the profile counts.
struct ReadingSpeedRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        guard let limit = context.limits.readingSpeed else { return }
        // What reads the same in every finding, written once.
        let unit = limit.unit == .characters ? "characters/s, over " : "words/min, over "
        var limitText = MessageText()
        limitText.appendOneDecimal(limit.max)
        let over = unit + limitText.take()
        let facts = context.facts
        // Within a step of the times is met, as for durations: a cue that reads in time had it a
        // step longer (3.353 s written in ASS as 3.35 s).
        let slack = Double(context.slackNanoseconds) / 1e9
        for index in facts.indices where !facts[index].isEmpty {
            guard let speed = context.readingSpeed(of: index) else { continue }
            let (start, end) = (facts[index].start, facts[index].end)
            let duration = Double(end - start) / 1e9
            guard speed.rate * duration / (duration + slack) > speed.limit.max else { continue }
            let (amount, what) = limit.unit == .characters
                ? (facts[index].readingCharacters, " characters in ") : (facts[index].words, " words in ")
            sink.add("check.readingSpeed", .error, cue: index, repair: "readingSpeed") { text in
                text.append("reads at ")
                text.appendOneDecimal(speed.rate)
                text.append(" ")
                text.append(over)
                text.append(" (")
                text.append(amount)
                text.append(what)
                text.appendSeconds(milliseconds: (end - start) / 1_000_000)
                text.append(")")
            }
        }
    }
}

/// Characters the target cannot show: `check.characters`.
struct CharacterRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let name = context.limits.characters ?? "printable"
        let repertoire = CharacterRepertoire.named(name) ?? .printable
        let takesAllASCII = repertoire.name == "printable"
        let facts = context.facts
        for index in facts.indices {
            // Printable ASCII is in every repertoire but CEA-608's, which lacks nine of its characters.
            if facts[index].isPrintableASCII, takesAllASCII || !facts[index].hasASCIIOutside608 { continue }
            var seen: [Character] = []
            for character in context.cues[index].plainText where !repertoire.contains(character) && !seen.contains(character) {
                seen.append(character)
            }
            guard !seen.isEmpty else { continue }
            let listed = seen.prefix(5).map { character in
                let codes = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
                return "'\(character)' (\(codes.joined(separator: " ")))"
            }
            sink.add(
                "check.characters", .error,
                "\(listed.joined(separator: ", "))\(seen.count > 5 ? " and \(seen.count - 5) more" : "") cannot be shown (\(repertoire.name))",
                cue: index, repair: nil)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Start tags without end tags and end tags without start tags, as the reader noticed them:
/// `check.markup.unbalanced`.
struct MarkupRule: QualityRule {
    /// The reader codes that mean unbalanced markup.
    static func isMarkup(_ code: Diagnostic.Code) -> Bool {
        code.rawValue.hasSuffix(".tag.unclosed") || code.rawValue.hasSuffix(".tag.unmatched")
    }

    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let starts = context.cues.map(\.location)
        for diagnostic in context.readerDiagnostics where Self.isMarkup(diagnostic.code) {
            guard let location = diagnostic.location else { continue }
            // The cue the tag is in: the last one starting at or before it (cues are in file order).
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if let start = starts[middle], start <= location { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { continue }
            sink.add("check.markup.unbalanced", .warning, diagnostic.message, cue: low - 1, repair: nil, at: location)
        }
    }
}

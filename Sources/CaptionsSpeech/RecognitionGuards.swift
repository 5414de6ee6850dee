import CaptionsCore
import CaptionsMedia

/// Checks on what a recogniser wrote, for its known failures: the same line over and over (a
/// decoder stuck in a loop), and words over silence (text made up where nobody speaks). What
/// they remove is reported with its time, never dropped silently.
public enum RecognitionGuards {
    /// The level below which a stretch counts as silence: −50 dBFS, and never less than 40 dB
    /// below the recording's loud speech (a quiet recording's speech is not silence).
    public static let silenceLevel: Float = 0.0032

    /// The pause, in seconds, after which the same words again are a sentence said again, not the
    /// recogniser repeating itself.
    public static let repeatGap = 1.0

    /// How loud the recording is from one time to another, on a scale where 1 is its loud speech
    /// (the 95th percentile of its loudest channel's 20 ms levels) scaled to full scale, so that
    /// ``silenceLevel`` means the same in a quiet or a 5.1 recording (dialogue in one channel).
    public static func loudness(of audio: DecodedAudio) -> (Double, Double) -> Float {
        let levels = WordTiming.loudest(audio.channelLevels)
        let sorted = levels.sorted()
        let speech = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
        // Scaled up to full scale at most 40 dB: below that, a recording is silence.
        let gain = speech > 0 ? min(100, max(1, 0.5 / speech)) : 1
        let window = Double(DecodedAudio.levelWindow) / Double(DecodedAudio.sampleRate)
        return { start, end in
            let first = max(0, Int(start / window)), last = min(levels.count, Int((end / window).rounded(.up)))
            guard last > first else { return 0 }
            var sum: Float = 0
            for index in first..<last { sum += levels[index] * levels[index] }
            return (sum / Float(last - first)).squareRoot() * gain
        }
    }

    /// `segments` with repeats collapsed and text over silence dropped, and a warning for each
    /// kind of removal (codes `transcribe.repeated`, `transcribe.silence`).
    ///
    /// - A segment whose words (lower case, without punctuation) are those of the segment before,
    ///   and that follows it within ``repeatGap`` seconds, is a repeat (a decoder in a loop fills
    ///   the time; a sentence said again after a pause is speech); so is a sentence said again
    ///   within a segment, three times or more in a row.
    /// - A segment is over silence when the sound's level over its time is below
    ///   ``silenceLevel``, or when the recogniser itself rates it as likely not speech
    ///   (no-speech probability above 0.6 with a mean log probability below −1, Whisper's own rule).
    public static func apply(
        to segments: [RecognisedSegment], level: ((Double, Double) -> Float)?
    ) -> (segments: [RecognisedSegment], diagnostics: [Diagnostic]) {
        var kept: [RecognisedSegment] = []
        var repeated: [RecognisedSegment] = [], silent: [RecognisedSegment] = []
        for var segment in segments {
            let quiet = level.map { $0(segment.start, segment.end) < silenceLevel } ?? false
            if quiet || (segment.noSpeechProb > 0.6 && segment.avgLogprob < -1) {
                silent.append(segment)
                continue
            }
            if let previous = kept.last, segment.start - previous.end < repeatGap,
               normalised(previous.text) == normalised(segment.text), !normalised(segment.text).isEmpty {
                repeated.append(segment)
                kept[kept.count - 1].end = max(previous.end, segment.end)
                continue
            }
            if let collapsed = collapsingRepeatedSentences(segment) {
                repeated.append(segment)
                segment = collapsed
            }
            kept.append(segment)
        }
        var diagnostics: [Diagnostic] = []
        if !repeated.isEmpty {
            diagnostics.append(Diagnostic(
                .warning, "transcribe.repeated",
                "the recogniser repeated itself \(repeated.count) time(s) (first at \(clock(repeated[0].start))); the repeats were collapsed into one",
                at: nil))
        }
        if !silent.isEmpty {
            let seconds = silent.reduce(0) { $0 + $1.end - $1.start }
            diagnostics.append(Diagnostic(
                .warning, "transcribe.silence",
                "\(silent.count) stretch(es) of text over silence (\(Int(seconds.rounded())) s, first at \(clock(silent[0].start)): \"\(silent[0].text.trimmingCharacters(in: .whitespaces).prefix(40))\") dropped as made up",
                at: nil))
        }
        return (kept, diagnostics)
    }

    /// Lower case letters and digits, words separated by single spaces.
    static func normalised(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).joined(separator: " ")
    }

    /// The segment with a sentence said three or more times in a row said once, or nil when
    /// there is none.
    static func collapsingRepeatedSentences(_ segment: RecognisedSegment) -> RecognisedSegment? {
        var sentences: [String] = []
        var current = ""
        for character in segment.text {
            current.append(character)
            if ".?!".contains(character) {
                sentences.append(current)
                current = ""
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { sentences.append(current) }
        guard sentences.count >= 3 else { return nil }
        // The words of each sentence, in order (the recogniser's words follow its text).
        var wordRanges: [Range<Int>] = []
        var next = 0
        for sentence in sentences {
            let count = normalised(sentence).split(separator: " ").count
            let end = min(segment.words.count, next + count)
            wordRanges.append(next..<end)
            next = end
        }
        var text = "", words: [RecognisedWord] = []
        var index = 0
        while index < sentences.count {
            var end = index + 1
            while end < sentences.count, normalised(sentences[end]) == normalised(sentences[index]) { end += 1 }
            for kept in index..<(end - index >= 3 ? index + 1 : end) {
                text += sentences[kept]
                words += segment.words[wordRanges[kept]]
            }
            index = end
        }
        guard text.count < segment.text.count else { return nil }
        var collapsed = segment
        collapsed.text = text
        collapsed.words = words
        if let last = words.last { collapsed.end = last.end }
        return collapsed
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return (h > 0 ? "\(h):" : "") + (m < 10 && h > 0 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }
}

extension String {
    /// Without leading and trailing characters in `set`.
    func trimmingCharacters(in set: CharacterSet) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, set.contains(last) { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

/// A few characters.
struct CharacterSet {
    let characters: Set<Character>
    static let whitespaces = CharacterSet(characters: [" ", "\t", "\n"])
    func contains(_ character: Character) -> Bool { characters.contains(character) }
}

import CaptionsMedia

/// Word times made to agree with the sound. Whisper times words by attention, and the first word
/// after a pause is known to start too early, stretched back over the silence (by up to two
/// seconds on LibriVox). A word's start is moved to where the sound first rises within it, and a
/// word before a pause ends where the sound last falls, in 20 ms steps. A pause of 160 ms or more
/// inside a word's span (for a segment's first word: before the next word) means the word was
/// said after it.
public enum WordTiming {
    /// How far below the recording's loud speech (its 95th percentile level) counts as silence: 35 dB
    /// (and never less than 12 dB above its noise floor).
    public static let silenceBelowSpeech: Float = 56.2
    /// The shortest pause inside a word's span that it is moved past: 160 ms.
    static let pauseWindows = 8

    /// `words` with their edges moved onto the sound in `audio`.
    public static func snap(_ words: [TranscriptShaper.Word], to audio: DecodedAudio) -> [TranscriptShaper.Word] {
        let levels = loudest(audio.channelLevels)
        guard !levels.isEmpty else { return words }
        let sorted = levels.sorted()
        let speech = sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
        // Above the recording's noise floor too (the 10th percentile of what is not digital silence).
        let sounding = sorted.drop { $0 < 1e-5 }
        let noise = sounding.isEmpty ? 0 : sounding[sounding.startIndex + sounding.count / 10]
        let threshold = max(speech / silenceBelowSpeech, noise * 4, RecognitionGuards.silenceLevel / 4)
        let window = Double(DecodedAudio.levelWindow) / Double(DecodedAudio.sampleRate)
        var result = words
        for index in result.indices {
            var word = result[index]
            // A segment's first word may belong after a pause before the next word: look up to it.
            let reach = word.startsSegment && index + 1 < result.count ? max(word.end, result[index + 1].start) : word.end
            let first = max(0, Int(word.start / window)), last = min(levels.count, Int((reach / window).rounded(.up)))
            guard last > first else { continue }
            // Where the sound rises after the last pause inside the word (the word said after a
            // pause that was stretched back over it), else where it first rises.
            var rise = (first..<last).first(where: { levels[$0] >= threshold })
            var quiet = 0
            for position in first..<last {
                if levels[position] < threshold {
                    quiet += 1
                } else {
                    if quiet >= pauseWindows { rise = position }
                    quiet = 0
                }
            }
            if let rise {
                let start = Double(rise) * window
                if start > word.start + window {
                    let duration = word.end - word.start
                    word.start = start
                    word.end = reach > word.end ? min(reach, start + duration) : max(word.end, start + window)
                }
                let followedByPause = index + 1 == result.count || result[index + 1].start - word.end > 0.2
                if followedByPause, let fall = (first..<last).last(where: { levels[$0] >= threshold }) {
                    let end = Double(fall + 1) * window
                    if end < word.end - window { word.end = max(end, word.start + window) }
                }
            }
            result[index] = word
        }
        return result
    }

    /// The loudest channel's level in each window.
    static func loudest(_ channels: [[Float]]) -> [Float] {
        guard let first = channels.first else { return [] }
        var levels = first
        for channel in channels.dropFirst() {
            for index in 0..<min(levels.count, channel.count) { levels[index] = max(levels[index], channel[index]) }
        }
        return levels
    }
}

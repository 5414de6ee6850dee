import CaptionsCore
import Foundation
import CaptionsMedia
@testable import CaptionsSpeech
import Testing

/// Words into cues, and the guards against the recogniser's failures, without a recogniser.
struct TranscriptShaperTests {
    /// Words of a paragraph, one every 0.3 s, with a pause of 1 s after the sentence ending at `pauseAfter`.
    static func words(_ text: String, pauseAfter: Int? = nil) -> [RecognisedWord] {
        var time = 0.0
        return text.split(separator: " ").enumerated().map { index, word in
            defer { time += 0.3 + (index == pauseAfter ? 1 : 0) }
            return RecognisedWord(start: time, end: time + 0.25, word: " " + word)
        }
    }

    static let paragraph = """
        And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for \
        them. He was not an ill disposed young man, unless to be rather cold hearted and rather selfish is to be ill \
        disposed. Had he married a more amiable woman, he might have been made still more respectable than he was.
        """

    /// The last cue is held for its reading time only while the recording lasts: a short
    /// sentence at the very end ends with the recording, not seconds after it.
    @Test func noCueIsHeldPastTheEndOfTheRecording() throws {
        // Three long words in 0.85 s; 47 characters at 20 a second are held for 2.35 s.
        let text = "Extraordinarily incomprehensible circumstances."
        let words = TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 0.85, text: text, words: Self.words(text))])
        var shaper = TranscriptShaper.captions
        let held = try #require(shaper.cues(for: words).last?.end?.seconds)
        #expect(held > 2, "without an end, held for its reading time: \(held)")
        shaper.recordingEnd = 1.2
        #expect(shaper.cues(for: words).last?.end?.seconds == 1.2)
        shaper.recordingEnd = 0.5  // words heard past the end keep their own times
        #expect(shaper.cues(for: words).last?.end?.seconds == words.last?.end)
    }

    @Test func captionsKeepEveryWordInOrderWithinTheLimits() {
        let words = TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 30, text: Self.paragraph, words: Self.words(Self.paragraph))])
        let cues = TranscriptShaper.captions.cues(for: words)
        #expect(cues.count >= 5)
        let text = cues.map(\.plainText).joined(separator: " ").replacing("\n", with: " ")
        #expect(text == Self.paragraph)
        for cue in cues {
            let lines = cue.plainText.split(separator: "\n")
            #expect(lines.count <= 2, "\(cue.plainText)")
            #expect(lines.allSatisfy { $0.count <= 42 }, "\(cue.plainText)")
            let duration = (cue.end ?? cue.start).seconds - cue.start.seconds
            #expect(duration <= 7 + 1e-9 && duration >= 1 - 1e-9, "\(cue.plainText): \(duration) s")
        }
        for (cue, next) in zip(cues, cues.dropFirst()) { #expect(cue.end! <= next.start) }
        // A sentence that starts inside a cue of some length starts the next cue instead.
        #expect(cues.contains { $0.plainText.hasPrefix("He was not") })
    }

    @Test func twoLinesAreBalanced() {
        let shaper = TranscriptShaper.captions
        let line = "one two three four five six seven eight nine ten eleven twelve"
        let words = line.split(separator: " ").map { TranscriptShaper.Word(text: String($0), start: 0, end: 0) }
        let lines = shaper.wrap(words).map { $0.map(\.text).joined(separator: " ") }
        #expect(lines.count == 2)
        #expect(abs(lines[0].count - lines[1].count) <= 6, "\(lines)")
    }

    @Test func aPauseStartsANewCue() {
        let text = "First we talk. Then after a break we talk again"
        let words = TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 5, text: text, words: Self.words(text, pauseAfter: 2))])
        let cues = TranscriptShaper.captions.cues(for: words)
        #expect(cues.first?.plainText == "First we talk.")
    }

    @Test func wordPiecesJoinTheWordBefore() {
        let words = TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 1, text: " an ill-disposed man", words: [
            RecognisedWord(start: 0, end: 0.2, word: " an"), RecognisedWord(start: 0.2, end: 0.4, word: " ill"),
            RecognisedWord(start: 0.4, end: 0.7, word: "-disposed"), RecognisedWord(start: 0.7, end: 1, word: " man"),
        ])])
        #expect(words.map(\.text) == ["an", "ill-disposed", "man"])
        #expect(words[1].end == 0.7)
    }

    @Test func wordTimesBecomeInlineTimestamps() {
        var shaper = TranscriptShaper.captions
        shaper.wordTimes = true
        let cues = shaper.cues(for: TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 1, text: " Hello there", words: Self.words("Hello there"))]))
        #expect(cues.count == 1)
        #expect(cues[0].content == [.text("Hello"), .text(" "), .timestamp(MediaTime(milliseconds: 300)), .text("there")]
            || cues[0].content == [.text("Hello "), .timestamp(MediaTime(milliseconds: 300)), .text("there")])
    }

    // MARK: Guards

    @Test func repeatedSegmentsCollapseAndAreReported() {
        let line = RecognisedSegment(start: 0, end: 2, text: " Thank you for watching.", words: Self.words("Thank you for watching."))
        var again = line
        (again.start, again.end) = (2, 4)
        let (kept, diagnostics) = RecognitionGuards.apply(to: [line, again, again, RecognisedSegment(start: 5, end: 6, text: " Bye.", words: [])], level: nil)
        #expect(kept.map(\.text) == [" Thank you for watching.", " Bye."])
        #expect(diagnostics.map(\.code.rawValue) == ["transcribe.repeated"])
    }

    /// The same words again after a pause are a sentence said again, not a decoder in a loop.
    @Test func theSameSentenceAfterAPauseIsKept() {
        let line = RecognisedSegment(start: 0, end: 2, text: " He was not an ill-disposed young man.", words: [])
        var again = line
        (again.start, again.end) = (2 + RecognitionGuards.repeatGap, 4 + RecognitionGuards.repeatGap)
        let (kept, diagnostics) = RecognitionGuards.apply(to: [line, again], level: nil)
        #expect(kept.count == 2 && diagnostics.isEmpty)
    }

    @Test func aSentenceSaidThreeTimesInARowIsSaidOnce() {
        let text = " I see. We go on. We go on. We go on. The end."
        let segment = RecognisedSegment(start: 0, end: 6, text: text, words: Self.words(text))
        let collapsed = RecognitionGuards.collapsingRepeatedSentences(segment)
        #expect(collapsed?.text == " I see. We go on. The end.")
        #expect(collapsed?.words.map(\.word).joined() == " I see. We go on. The end.")
        // Twice is speech, not a loop.
        #expect(RecognitionGuards.collapsingRepeatedSentences(RecognisedSegment(start: 0, end: 3, text: " No. No. Fine.", words: [])) == nil)
    }

    @Test func textOverSilenceIsDroppedAndReported() {
        let speech = RecognisedSegment(start: 0, end: 2, text: " Hello.", words: [])
        let madeUp = RecognisedSegment(start: 3, end: 5, text: " Thanks for watching!", words: [])
        let level: (Double, Double) -> Float = { start, _ in start < 2.5 ? 0.1 : 0.0001 }
        let (kept, diagnostics) = RecognitionGuards.apply(to: [speech, madeUp], level: level)
        #expect(kept.map(\.text) == [" Hello."])
        #expect(diagnostics.count == 1 && diagnostics[0].code.rawValue == "transcribe.silence")
        #expect(diagnostics[0].message.contains("0:03"))
        // The recogniser's own verdict counts too.
        let unsure = RecognisedSegment(start: 0, end: 2, text: " Hmm.", avgLogprob: -1.5, noSpeechProb: 0.9, words: [])
        #expect(RecognitionGuards.apply(to: [unsure], level: nil).segments.isEmpty)
    }

    /// Nothing heard (silence, noise, music) and other audio streams left aside are warnings,
    /// not a finished transcript.
    @Test func anEmptyTranscriptAndUnheardStreamsAreReported() {
        var audio = DecodedAudio(mono: [Float](repeating: 0, count: DecodedAudio.sampleRate), channelLevels: [[0]])
        audio.otherAudioStreams = [2]
        let document = TranscriptDocument.make(
            from: Recognition(language: "en", languageProbability: 1, segments: []), audio: audio,
            shaper: .captions, speakerPerChannel: false, model: "base")
        #expect(document.cues.isEmpty)
        #expect(document.diagnostics.map(\.code.rawValue) == ["media.audio.others", "transcribe.speech.none"])
    }

    @Test func speakersAreNamedByTheLoudestChannel() {
        // Channel 1 speaks in the first second, channel 2 in the second.
        let windows = DecodedAudio.sampleRate / DecodedAudio.levelWindow
        let left = (0..<2 * windows).map { $0 < windows ? Float(0.3) : 0.01 }
        let right = (0..<2 * windows).map { $0 < windows ? Float(0.01) : 0.3 }
        let audio = DecodedAudio(mono: [Float](repeating: 0.1, count: 2 * DecodedAudio.sampleRate), channelLevels: [left, right])
        let segments = [
            RecognisedSegment(start: 0, end: 0.9, text: " Hi Bob.", words: [RecognisedWord(start: 0, end: 0.4, word: " Hi"), RecognisedWord(start: 0.4, end: 0.9, word: " Bob.")]),
            RecognisedSegment(start: 1.1, end: 1.9, text: " Hi Ann.", words: [RecognisedWord(start: 1.1, end: 1.5, word: " Hi"), RecognisedWord(start: 1.5, end: 1.9, word: " Ann.")]),
        ]
        let document = TranscriptDocument.make(
            from: Recognition(language: "en", languageProbability: 1, segments: segments), audio: audio,
            shaper: .captions, speakerPerChannel: true, model: "base")
        #expect(document.cues.map(\.speaker) == ["Speaker 1", "Speaker 2"])
        #expect(document.cues.map(\.plainText) == ["Hi Bob.", "Hi Ann."])
        #expect(document.comments.first?.text.contains("Machine-generated") == true)
        #expect(document.language == "en")
    }

    /// Each channel heard on its own: two voices at once give two cues at once (they were cut
    /// into one-word cues, or lost), and spill is left out: a word 12 dB quieter on its channel
    /// than on another, or one another channel heard louder at the same time, even misheard.
    @Test func channelsHeardApartKeepVoicesThatOverlapAndDropSpill() {
        let windows = DecodedAudio.sampleRate / DecodedAudio.levelWindow
        // Ann (left) speaks from 0 to 1.7 s, Bob (right) from 1 to 3 s; each spills into the other's
        // microphone at a third of its level (−10 dB), and Bob's "Really?" at 3.3 s at a tenth.
        func level(_ t: Int, speaking: ClosedRange<Double>, spill: ClosedRange<Double>, quiet: ClosedRange<Double>? = nil) -> Float {
            let time = Double(t) / Double(windows)
            if speaking.contains(time) { return 0.3 }
            if spill.contains(time) { return 0.1 }
            if let quiet, quiet.contains(time) { return 0.03 }
            return 0.001
        }
        let left = (0..<4 * windows).map { level($0, speaking: 0...1.7, spill: 1.7...3, quiet: 3.1...3.7) }
        let right = (0..<4 * windows).map { level($0, speaking: 1...3, spill: 0...1, quiet: nil) + ((3.1...3.7).contains(Double($0) / Double(windows)) ? 0.3 : 0) }
        var audio = DecodedAudio(mono: [Float](repeating: 0.1, count: 4 * DecodedAudio.sampleRate), channelLevels: [left, right])
        audio.channelSamples = [audio.mono, audio.mono]
        func words(_ pairs: [(Double, String)]) -> [RecognisedWord] { pairs.map { RecognisedWord(start: $0.0, end: $0.0 + 0.3, word: " " + $0.1) } }
        let ann = words([(0.1, "We"), (0.5, "went"), (0.7, "to"), (1.0, "the"), (1.3, "lake."), (1.85, "relieve"), (3.3, "really?")])
        let bob = words([(1.1, "I"), (1.4, "know,"), (1.8, "believe"), (2.4, "me."), (3.3, "Really?")])
        let document = TranscriptDocument.make(
            channels: [ann, bob].map { Recognition(language: "en", languageProbability: 1, segments: [RecognisedSegment(start: $0[0].start, end: $0.last!.end, text: "", words: $0)]) },
            audio: audio, shaper: .captions, model: "base")
        let cues = document.cues.map { "\($0.speaker ?? "?"): \($0.plainText)" }
        #expect(cues == ["Speaker 1: We went to the lake.", "Speaker 2: I know, believe me.", "Speaker 2: Really?"], "\(cues)")
        #expect(document.cues[1].start < document.cues[0].end!, "the two voices overlap")
        #expect(document.diagnostics.map(\.code.rawValue) == ["transcribe.channels.spill"])
    }
}

/// Languages written without spaces keep their words apart and unspaced.
struct UnspacedLanguageTests {
    @Test func chineseWordsAreNotGluedIntoOneAndGetNoSpaces() {
        let pieces = ["今天", "天气", "很", "好", "。", "我们", "去", "公园", "散步", "吧", "。"]
        let words = pieces.enumerated().map { RecognisedWord(start: Double($0) * 0.4, end: Double($0) * 0.4 + 0.3, word: $1) }
        let shaped = TranscriptShaper.words(of: [RecognisedSegment(start: 0, end: 5, text: pieces.joined(), words: words)])
        #expect(shaped.count == pieces.count)
        var shaper = TranscriptShaper.captions
        shaper.maximumLineLength = 8
        let cues = shaper.cues(for: shaped)
        #expect(cues.map(\.plainText).joined().replacing("\n", with: "") == pieces.joined())
        #expect(cues.allSatisfy { !$0.plainText.contains(" ") })
        #expect(cues.allSatisfy { $0.plainText.split(separator: "\n").allSatisfy { $0.count <= 8 } })
    }
}

/// The helper's samples (230 MB an hour) and log are registered for removal should a signal end
/// the process, and unregistered once removed, however often removal is asked for.
@Suite struct SpeechTemporaryFileTests {
    @Test func temporaryFilesAreRemovedOnASignalToo() throws {
        let file = try TemporaryFile(suffix: ".f32")
        #expect(TemporaryFileCleanup.isRegistered(file.path))
        try file.write([0, 0.5])
        file.remove()
        file.remove()
        #expect(!TemporaryFileCleanup.isRegistered(file.path))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}

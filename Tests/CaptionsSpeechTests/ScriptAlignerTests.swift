import CaptionsCore
import CaptionsFormats
@testable import CaptionsSpeech
import Testing

/// Scripts read as words, and words aligned to what was heard.
struct ScriptAlignerTests {
    static let episode = """
        WEBVTT

        00:01.000 --> 00:03.000
        <v Ann>Welcome to the show.

        00:04.000 --> 00:06.000
        <v Bob>Thanks for having me.

        """

    /// Our own transcripts (Markdown and the HTML page, with a description merged in) read back as
    /// the spoken words with their speakers: no time stamps, names or seen passages as words.
    @Test(arguments: [TranscriptFormat.md, .html, .txt])
    func ourTranscriptsReadBackAsTheirWords(format: TranscriptFormat) throws {
        let document = try WebVTTReader().read(Array(Self.episode.utf8))
        let seen = try WebVTTReader().read(Array("WEBVTT\n\n00:03.500 --> 00:03.900\nBob sits down.\n".utf8))
        let text = format.render(document, title: "Episode 1", media: "episode.mp3", descriptions: seen)
        let words = ScriptAligner.words(ofScript: text)
        let expected = "Welcome to the show. Thanks for having me."
        #expect(words.map(\.text).joined(separator: " ") == expected, "\(text)")
        #expect(words.first?.speaker == "Ann" && words.last?.speaker == "Bob")
        #expect(words.filter(\.startsParagraph).count == 2)
    }

    /// A script is refused when few of its words, and few of the words heard, agree; half a
    /// script against the whole recording, or the whole script against half, still aligns.
    @Test func aScriptOfOtherWordsIsAMismatch() {
        func heard(_ text: String) -> [TranscriptShaper.Word] {
            text.split(separator: " ").enumerated().map { TranscriptShaper.Word(text: String($1), start: Double($0), end: Double($0) + 0.5) }
        }
        func script(_ text: String) -> [ScriptAligner.ScriptWord] { text.split(separator: " ").map { .init(text: String($0)) } }
        let said = "and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them"
        let other = "welcome to the show today we talk about gardening tomatoes and the weather in spring"
        let (words, diagnostics) = ScriptAligner.align(script(other), to: heard(said))
        #expect(words.isEmpty && diagnostics.map(\.code.rawValue) == ["align.mismatch"])
        #expect(diagnostics.first?.severity == .error)
        let half = String(said.prefix(50))
        for (text, sound) in [(said, said), (half, said), (said, half), (said.replacing("dashwood", with: "dashwud"), said)] {
            let (words, diagnostics) = ScriptAligner.align(script(text), to: heard(sound))
            #expect(words.count == text.split(separator: " ").count && !diagnostics.contains { $0.code.rawValue == "align.mismatch" }, "\(text)")
        }
    }

    @Test func markdownHeadingsGoButTheTextAfterThemStays() {
        let words = ScriptAligner.words(ofScript: "# Title\nFirst sentence here.\n\nSecond [link](http://x) and **bold**.")
        #expect(words.map(\.text) == ["First", "sentence", "here.", "Second", "link", "and", "bold."])
    }

    /// Emphasis, code and footnotes are Markdown's marks, not the author's words: `*leisure*`
    /// is timed as "leisure", a footnote reference goes, a footnote definition is not read
    /// aloud; a `*` or `_` inside a word stays.
    @Test func markdownEmphasisCodeAndFootnotesAreMarksNotWords() {
        let script = """
            He was not an *ill-disposed* young man, rather `cold-hearted` and _selfish_ **too**.[^1] 2*3 snake_case_name

            [^1]: A footnote that is not read aloud.
            """
        #expect(ScriptAligner.words(ofScript: script).map(\.text) == [
            "He", "was", "not", "an", "ill-disposed", "young", "man,", "rather", "cold-hearted", "and", "selfish", "too.", "2*3", "snake_case_name",
        ])
    }

    /// `**Ann:** text` names the paragraph's speaker and is not one of its words; bold without a
    /// colon is emphasis.
    @Test func anInlineBoldLabelNamesTheSpeaker() {
        let words = ScriptAligner.words(ofScript: "**Ann:** And Mr. John\n\n**Ben**: He was\n\n**Never** again.")
        #expect(words.map(\.text) == ["And", "Mr.", "John", "He", "was", "Never", "again."])
        #expect(words.map { $0.speaker ?? "-" } == ["Ann", "Ann", "Ann", "Ben", "Ben", "Ben", "Ben"])
    }

    /// Words heard differently still take their times; hyphenated words match their parts; a
    /// word never heard is reported and timed between its neighbours.
    @Test func wordsAreMatchedByEditDistance() {
        let script = ["Mister", "Smith", "is", "ill-disposed", "today", "indeed."].map { ScriptAligner.ScriptWord(text: $0) }
        let heard = [("Mr.", 0.0), ("Smith", 0.5), ("is", 1.0), ("ill", 1.5), ("disposed", 1.8), ("indeed.", 3.0)].map {
            TranscriptShaper.Word(text: $0.0, start: $0.1, end: $0.1 + 0.3)
        }
        let (words, diagnostics) = ScriptAligner.align(script, to: heard)
        #expect(words.map(\.text) == script.map(\.text), "the author's words")
        #expect(words.map(\.start) == [0, 0.5, 1.0, 1.5, 2.1, 3.0])
        #expect(words[3].end == 2.1, "ill-disposed spans both parts")
        #expect(diagnostics.count == 1 && diagnostics[0].message.contains("\"today\""))
    }

    /// Signs the author wrote (`&`, `—`) stay in the text and are timed, not reported as unheard;
    /// script words after the last one heard are timed within the recording, not after it.
    @Test func signsStayAndNothingIsTimedPastTheRecording() {
        let script = ScriptAligner.words(ofScript: "He was ill-disposed & young — man, really truly.\n\n- a list item\n")
        #expect(script.map(\.text) == ["He", "was", "ill-disposed", "&", "young", "—", "man,", "really", "truly.", "a", "list", "item"])
        let heard = [("he", 0.0), ("was", 0.3), ("ill", 0.6), ("disposed", 0.9), ("young", 1.4), ("man", 1.9)].map {
            TranscriptShaper.Word(text: $0.0, start: $0.1, end: $0.1 + 0.3)
        }
        let (words, diagnostics) = ScriptAligner.align(script, to: heard, duration: 2.5)
        #expect(words.map(\.text) == script.map(\.text))
        #expect(words.allSatisfy { $0.end <= 2.5 }, "\(words.map(\.end))")
        #expect(diagnostics.count == 1, "\(diagnostics.map(\.message))")
        #expect(diagnostics.first?.message.contains("5 word(s)") == true, "really truly. a list item: \(diagnostics.map(\.message))")
    }

    /// A long script against a recording of half of it stays within memory and aligns the half.
    @Test func aLongScriptAgainstHalfItsRecording() {
        let script = (0..<20_000).map { ScriptAligner.ScriptWord(text: "w\($0 % 997)x\($0 / 997)") }
        let heard = script.prefix(10_000).enumerated().map { TranscriptShaper.Word(text: $1.text, start: Double($0), end: Double($0) + 0.5) }
        let (words, diagnostics) = ScriptAligner.align(script, to: Array(heard))
        #expect(words.prefix(10_000).enumerated().allSatisfy { $1.start == Double($0) })
        #expect(diagnostics.count == 1 && diagnostics[0].message.contains("10000 word(s)"))
    }
}

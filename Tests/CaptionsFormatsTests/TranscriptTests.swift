import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

@Suite struct TranscriptTests {
    private let dialogue = """
        WEBVTT

        00:00:01.000 --> 00:00:02.000
        <v Ann>Hello there,</v>

        00:00:02.200 --> 00:00:03.000
        <v Ann>- how are you?</v>

        00:00:03.100 --> 00:00:04.000
        <v Ben>Fine. [laughs]</v>

        00:00:08.000 --> 00:00:09.000
        <v Ben>Much later.</v>

        00:01:05.000 --> 00:01:06.000
        [music]

        """

    @Test func groupsTurnsBySpeakerAndPause() throws {
        let transcript = Transcript(try WebVTTReader().read(Array(dialogue.utf8)))
        #expect(transcript.paragraphs.map(\.speaker) == ["Ann", "Ben", "Ben", nil])
        #expect(transcript.paragraphs.map(\.text) == ["Hello there, how are you?", "Fine. [laughs]", "Much later.", "[music]"])
        #expect(transcript.paragraphs.map { Transcript.stamp($0.start) } == ["0:01", "0:03", "0:08", "1:05"])
    }

    /// A chapter that starts inside a paragraph (no pause at the change) cuts it there: each
    /// chapter holds its own words, none is left empty.
    @Test func aChapterStartCutsTheParagraphItFallsIn() throws {
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>Welcome.\n\n00:00:02.200 --> 00:00:09.000\n<v Ann>Chapter two text.\n"
        let transcript = Transcript(try WebVTTReader().read(Array(vtt.utf8)))
        #expect(transcript.paragraphs.count == 1)
        let sections = transcript.sections([
            Transcript.Chapter(start: .zero, title: "One"), Transcript.Chapter(start: MediaTime(milliseconds: 2200), title: "Two"),
        ])
        #expect(sections.map(\.title) == ["One", "Two"])
        #expect(sections.map { $0.paragraphs.map(\.text) } == [["Welcome."], ["Chapter two text."]])
        #expect(sections[1].paragraphs.first?.start == MediaTime(milliseconds: 2200))
    }

    /// Stamps show whole seconds gone by, as a player's clock does, and the machine-readable
    /// time keeps the fraction.
    @Test func stampsShowThePlayersClockAndTheExactTime() throws {
        #expect(Transcript.stamp(MediaTime(milliseconds: 500)) == "0:00")
        #expect(Transcript.stamp(MediaTime(milliseconds: 90_999)) == "1:30")
        #expect(Transcript.stamp(MediaTime(milliseconds: 3_600_000)) == "1:00:00")
        let vtt = "WEBVTT\n\n00:01:30.250 --> 00:01:32.000\nLate.\n"
        let page = TranscriptFormat.html.render(try WebVTTReader().read(Array(vtt.utf8)), title: "t")
        #expect(page.contains("<time datetime=\"PT90.25S\">1:30</time>"), "\(page)")
    }

    @Test func soundTagsCanBeDropped() throws {
        var options = Transcript.Options()
        options.keepSoundTags = false
        let transcript = Transcript(try WebVTTReader().read(Array(dialogue.utf8)), options: options)
        #expect(transcript.paragraphs.map(\.text) == ["Hello there, how are you?", "Fine.", "Much later."])
    }

    /// What was said that looks like Markdown is written as text: no heading, list, quote, HTML,
    /// emphasis or link (it was written raw, and shown as all of those); and a "-" inside a line
    /// is kept (only a dialogue dash that starts a line is dropped: "3 - 2" lost its minus).
    @Test func markdownTranscriptsKeepTextAsText() throws {
        let lines = [
            "# Not a heading", "1986. What a year.", "> not a quote", "<script>x</script>", "*not bold* a_b [link](x)",
            "- 3 - 2 = 1", "+ plus", "&copy; `code` ~~gone~~ a|b",
        ]
        let cues = lines.enumerated().map { index, line in
            Cue(start: MediaTime(seconds: Int64(index * 10)), end: MediaTime(seconds: Int64(index * 10 + 1)), content: [.text(line)])
        }
        let markdown = TranscriptFormat.md.render(TimedTextDocument(cues: cues), title: "#1 [ep]", timestamps: false)
        #expect(markdown.components(separatedBy: "\n\n") == [
            "# \\#1 [ep]", "\\# Not a heading", "1986\\. What a year.", "\\> not a quote", "\\<script>x\\</script>",
            "\\*not bold\\* a\\_b [link\\](x)", "3 - 2 = 1", "\\+ plus", "\\&copy; \\`code\\` \\~\\~gone\\~\\~ a\\|b\n",
        ])
    }

    @Test func everyFormatRenders() throws {
        let document = try WebVTTReader().read(Array(dialogue.utf8))
        let text = TranscriptFormat.txt.render(document, title: "Ep. 1")
        #expect(text.hasPrefix("Ann (0:01)\nHello there, how are you?\n\nBen (0:03)\nFine. [laughs]\n"))
        let markdown = TranscriptFormat.md.render(document, title: "Ep. 1", timestamps: false)
        #expect(markdown.hasPrefix("# Ep. 1\n\n**Ann**\n\nHello there, how are you?\n"))
        let html = TranscriptFormat.html.render(document, title: "Ep. <1>")
        #expect(html.contains("<p data-start=\"1\"><a class=\"stamp\" href=\"#t=1\" data-start=\"1\"><time datetime=\"PT1S\">0:01</time></a> <cite>Ann</cite> <a class=\"piece\" href=\"#t=1\" data-start=\"1\" tabindex=\"-1\">Hello there,</a> <a class=\"piece\" href=\"#t=2.2\" data-start=\"2.2\" tabindex=\"-1\">how are you?</a></p>"), "\(html)")
        #expect(!html.contains("id=\"player\""), "no player without media")
        #expect(html.contains("<title>Ep. &lt;1&gt;</title>") && html.contains("<html lang=\"en\">"))
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(TranscriptFormat.podcastJSON.render(document, title: "").utf8)) as? [String: Any])
        #expect(json["version"] as? String == "1.0.0")
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 5)
        #expect(segments[1]["body"] as? String == "how are you?")
        #expect(segments[1]["startTime"] as? Double == 2.2)
        #expect(segments[4]["speaker"] == nil)
    }
}

@Suite struct PodcastTranscriptTests {
    private let episode = """
        {"version": "1.0.0", "segments": [
          {"speaker": "Ann", "startTime": 0.5, "endTime": 1.25, "body": "Hello"},
          {"speaker": "Ann", "startTime": 0.5, "endTime": 1.25, "body": "world"},
          {"speaker": "Ben", "startTime": 2.2, "endTime": 3.333, "body": "Hi & bye"}
        ]}
        """

    /// A transcript of what the recogniser heard says it is machine-generated, as its captions do
    /// (the text, Markdown and HTML transcripts did not); an author's WebVTT NOTE stays out.
    @Test func machineTranscriptsSaySo() throws {
        var heard = try WebVTTReader().read(Array("WEBVTT\n\nNOTE Machine-generated by a test.\n\n00:00:01.000 --> 00:00:02.000\nHello.\n".utf8))
        let authored = heard
        heard.sourceFormat = "speech"
        heard.language = "cs"
        #expect(TranscriptFormat.txt.render(heard, title: "T").hasPrefix("Machine-generated by a test.\n\n"))
        #expect(TranscriptFormat.md.render(heard, title: "T").hasPrefix("# T\n\n_Machine-generated by a test._\n\n"))
        #expect(TranscriptFormat.html.render(heard, title: "T").contains(#"<p class="note" lang="en">Machine-generated by a test.</p>"#))
        for format in [TranscriptFormat.txt, .md, .html] {
            #expect(!format.render(authored, title: "T").contains("Machine-generated"))
        }
    }

    /// What is seen is labelled in the transcript's language where we have the word, else in English.
    @Test func theSeenLabelIsInTheTranscriptsLanguage() throws {
        let seen = try WebVTTReader().read(Array("WEBVTT\n\n00:00:02.500 --> 00:00:03.000\nA letter.\n".utf8))
        func text(_ language: String, _ format: TranscriptFormat) throws -> String {
            var document = try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>Hello.\n".utf8))
            document.language = language
            return format.render(document, title: "T", descriptions: seen)
        }
        #expect(try text("fr", .txt).contains("À l’écran (0:02)\nA letter."))
        #expect(try text("de-AT", .md).contains("*Im Bild* · 0:02"))
        #expect(try text("cs", .txt).contains("Seen (0:02)\nA letter."))
    }

    @Test func segmentsWithTheSameTimesAreMerged() throws {
        let document = try PodcastTranscriptReader().read(Array(episode.utf8))
        #expect(document.cues.map(\.plainText) == ["Hello world", "Hi & bye"])
        #expect(document.cues.map(\.speaker) == ["Ann", "Ben"])
        #expect(document.cues[1].start == MediaTime(milliseconds: 2200))
        #expect(document.cues[1].end == MediaTime(milliseconds: 3333))
    }

    @Test func podcastJSONThroughWebVTTKeepsSpeakersTimesAndText() throws {
        let original = try PodcastTranscriptReader().read(Array(episode.utf8))
        let webVTT = try WebVTTReader().read(WebVTTWriter().write(original))
        let back = try PodcastTranscriptReader().read(PodcastTranscriptWriter().write(webVTT))
        #expect(back.cues.map(\.speaker) == original.cues.map(\.speaker))
        #expect(back.cues.map(\.start) == original.cues.map(\.start))
        #expect(back.cues.map(\.end) == original.cues.map(\.end))
        #expect(back.cues.map(\.plainText) == original.cues.map(\.plainText))
    }

    @Test(arguments: [
        ("{\"version\": \"1.0.0\"}", "missing \"segments\""),
        ("{\"segments\": [{\"startTime\": \"1\", \"body\": \"x\"}]}", "segments[0].startTime"),
        ("{\"segments\": [{\"startTime\": -1, \"body\": \"x\"}]}", "segments[0].startTime"),
        ("not json", "not JSON"),
    ])
    func badTranscriptsAreClearErrors(text: String, mention: String) {
        do {
            _ = try PodcastTranscriptReader().read(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == "podcast.json.invalid")
            #expect(error.message.contains(mention), "\(error.message)")
        }
    }

    @Test func anOutputNameGivesTheFormatOnlyByAFileExtension() {
        #expect(TranscriptFormat(fileExtensionOf: "ep.markdown") == .md)
        #expect(TranscriptFormat(fileExtensionOf: "ep.HTM") == .html)
        #expect(TranscriptFormat(fileExtensionOf: "ep.json") == .podcastJSON)
        // Names `--to` takes are not extensions.
        #expect(TranscriptFormat(fileExtensionOf: "ep.podcast") == nil)
        #expect(TranscriptFormat(fileExtensionOf: "ep.text") == nil)
        #expect(TranscriptFormat(fileExtensionOf: "folder.md/ep") == nil)
        #expect(TranscriptFormat(name: "podcast") == .podcastJSON)
    }

    /// A page in a language written right to left says so (`dir="rtl"`); others do not.
    @Test func aRightToLeftTranscriptSaysItsDirection() throws {
        for (language, direction) in [("ar", #" dir="rtl""#), ("he-IL", #" dir="rtl""#), ("en", "")] {
            let vtt = "WEBVTT\nLanguage: \(language)\n\n00:00:01.000 --> 00:00:02.000\nمرحبا!\n"
            let page = TranscriptFormat.html.render(try WebVTTReader().read(Array(vtt.utf8)), title: "t")
            #expect(page.contains("<html lang=\"\(language)\"\(direction)>"), "\(language)")
        }
    }
}

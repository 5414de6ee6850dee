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

    @Test func soundTagsCanBeDropped() throws {
        var options = Transcript.Options()
        options.keepSoundTags = false
        let transcript = Transcript(try WebVTTReader().read(Array(dialogue.utf8)), options: options)
        #expect(transcript.paragraphs.map(\.text) == ["Hello there, how are you?", "Fine.", "Much later."])
    }

    @Test func everyFormatRenders() throws {
        let document = try WebVTTReader().read(Array(dialogue.utf8))
        let text = TranscriptFormat.txt.render(document, title: "Ep. 1")
        #expect(text.hasPrefix("Ann (0:01)\nHello there, how are you?\n\nBen (0:03)\nFine. [laughs]\n"))
        let markdown = TranscriptFormat.md.render(document, title: "Ep. 1", timestamps: false)
        #expect(markdown.hasPrefix("# Ep. 1\n\n**Ann**\n\nHello there, how are you?\n"))
        let html = TranscriptFormat.html.render(document, title: "Ep. <1>")
        #expect(html.contains("<p><cite>Ann</cite> <time datetime=\"PT1S\">0:01</time> Hello there, how are you?</p>"))
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

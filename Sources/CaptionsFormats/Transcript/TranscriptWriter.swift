import CaptionsCore

/// Writes a ``Transcript`` as plain text, Markdown or one accessible HTML page, or the cues as a
/// Podcasting 2.0 JSON transcript.
public enum TranscriptFormat: String, Sendable, CaseIterable {
    /// `Speaker (M:SS)` then the paragraph.
    case txt
    /// `**Speaker** · M:SS` then the paragraph.
    case md
    /// One page: `lang`, a title, `<p>` with `<cite>` and `<time datetime>`, light and dark CSS.
    case html
    /// `{"version": "1.0.0", "segments": [{"speaker", "startTime", "endTime", "body"}]}`.
    case podcastJSON = "podcast-json"

    /// Renders `document` (grouped with `options` for the prose formats), titled `title`, with a
    /// heading at each of `chapters` (the prose formats).
    public func render(_ document: TimedTextDocument, title: String, options: Transcript.Options = Transcript.Options(),
                       timestamps: Bool = true, chapters: [Transcript.Chapter] = []) -> String {
        let transcript = Transcript(document, options: options)
        switch self {
        case .txt:
            return transcript.sections(chapters).map { section in
                let heading = section.title.map { $0 + "\n" + String(repeating: "=", count: $0.count) + "\n\n" } ?? ""
                return heading + section.paragraphs.map { paragraph in
                    let heading = [paragraph.speaker, timestamps ? "(\(Transcript.stamp(paragraph.start)))" : nil]
                        .compactMap { $0 }.joined(separator: " ")
                    return (heading.isEmpty ? "" : heading + "\n") + paragraph.text
                }.joined(separator: "\n\n")
            }.joined(separator: "\n\n") + "\n"
        case .md:
            return "# \(title)\n\n" + transcript.sections(chapters).map { section in
                let heading = section.title.map { "## \($0)\n\n" } ?? ""
                return heading + section.paragraphs.map { paragraph in
                    let parts = [paragraph.speaker.map { "**\($0)**" }, timestamps ? Transcript.stamp(paragraph.start) : nil]
                        .compactMap { $0 }
                    return (parts.isEmpty ? "" : parts.joined(separator: " · ") + "\n\n") + paragraph.text
                }.joined(separator: "\n\n")
            }.joined(separator: "\n\n") + "\n"
        case .html:
            return html(transcript, title: title, language: document.language ?? "en", timestamps: timestamps, chapters: chapters)
        case .podcastJSON:
            return podcastJSON(document)
        }
    }

    private func html(
        _ transcript: Transcript, title: String, language: String, timestamps: Bool, chapters: [Transcript.Chapter]
    ) -> String {
        let paragraphs = transcript.sections(chapters).map { section -> String in
            let body = section.paragraphs.map { paragraph -> String in
                var heading = ""
                if let speaker = paragraph.speaker { heading += "<cite>\(XMLText.escape(speaker))</cite> " }
                if timestamps {
                    let seconds = paragraph.start.rounded(toTimescale: 1)
                    heading += "<time datetime=\"PT\(seconds)S\">\(Transcript.stamp(paragraph.start))</time> "
                }
                return "<p>\(heading)\(XMLText.escape(paragraph.text))</p>"
            }.joined(separator: "\n")
            guard let title = section.title else { return body }
            return "<section>\n<h2>\(XMLText.escape(title))</h2>\n\(body)\n</section>"
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(XMLText.escape(language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XMLText.escape(title))</title>
            <style>
            :root { color-scheme: light dark; }
            body { font: 18px/1.6 Georgia, serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
            cite { font-style: normal; font-weight: 700; font-family: system-ui, sans-serif; }
            time { color: GrayText; font: 0.85em system-ui, sans-serif; margin: 0 .3em; }
            </style>
            </head>
            <body>
            <main>
            <h1>\(XMLText.escape(title))</h1>
            \(paragraphs)
            </main>
            </body>
            </html>

            """
    }

    private func podcastJSON(_ document: TimedTextDocument) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("version"); json.string("1.0.0")
        json.key("segments"); json.beginArray()
        for cue in document.cues {
            let body = Transcript.prose(cue.plainText)
            guard !body.isEmpty else { continue }
            json.beginObject()
            if let speaker = cue.speaker ?? Cue.firstVoice(in: cue.content) { json.key("speaker"); json.string(speaker) }
            json.key("startTime"); json.number(Double(cue.start.rounded(toTimescale: 1000)) / 1000)
            if let end = cue.end { json.key("endTime"); json.number(Double(end.rounded(toTimescale: 1000)) / 1000) }
            json.key("body"); json.string(body)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.output + "\n"
    }

}

/// Writes cues as a Podcasting 2.0 JSON transcript (``TranscriptFormat/podcastJSON``).
public struct PodcastTranscriptWriter: TimedTextWriter {
    /// Speakers, and text as prose.
    public let capabilities: FormatCapabilities = [.voices, .openEnds, .literalMarkup, .trailingSpaces, .controlCharacters, .emptyCues]

    /// A writer.
    public init() {}

    /// Writes `{"version": "1.0.0", "segments": […]}`.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var text = TranscriptFormat.podcastJSON.render(document, title: "")
        text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
    }
}

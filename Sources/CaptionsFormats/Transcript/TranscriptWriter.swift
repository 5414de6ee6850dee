import CaptionsCore

/// Writes a ``Transcript`` as plain text, Markdown or one accessible HTML page, or the cues as a
/// Podcasting 2.0 JSON transcript.
public enum TranscriptFormat: String, Sendable, CaseIterable {
    /// `Speaker (M:SS)` then the paragraph.
    case txt
    /// `**Speaker** · M:SS` then the paragraph.
    case md
    /// One page that follows the media (``TranscriptPage``): `lang`, a title, a player when a
    /// media file is given, `<p>` with `<cite>` and `<time datetime>`, links that seek, search.
    case html
    /// `{"version": "1.0.0", "segments": [{"speaker", "startTime", "endTime", "body"}]}`.
    case podcastJSON = "podcast-json"

    /// The format a name on the command line stands for: its raw value, or `text`, `markdown`,
    /// `podcast`, `json`.
    public init?(name: String) {
        let name = name.lowercased()
        let aliases: [String: TranscriptFormat] = ["text": .txt, "markdown": .md, "htm": .html, "json": .podcastJSON, "podcast": .podcastJSON]
        guard let format = TranscriptFormat(rawValue: name) ?? aliases[name] else { return nil }
        self = format
    }

    /// The format a file name's extension names (`.txt`, `.md`/`.markdown`, `.html`/`.htm`,
    /// `.json`); nil for another extension or none.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let name = path[path.index(after: dot)...].lowercased()
        // File extensions only: not the other names `--to` takes ("text", "podcast", "podcast-json").
        guard ["txt", "md", "markdown", "html", "htm", "json"].contains(name), let format = TranscriptFormat(name: name) else { return nil }
        self = format
    }

    /// Renders `document` (grouped with `options` for the prose formats), titled `title`, with a
    /// heading at each of `chapters` (the prose formats); `descriptions` (what is seen) are merged
    /// in as marked passages, and the HTML page plays `media` (a link, as given).
    public func render(_ document: TimedTextDocument, title: String, options: Transcript.Options = Transcript.Options(),
                       timestamps: Bool = true, chapters: [Transcript.Chapter] = [], media: String? = nil,
                       descriptions: TimedTextDocument? = nil) -> String {
        let transcript = Transcript(document, options: options, descriptions: descriptions)
        let words = TranscriptWords.for(document.language)
        // What the recogniser wrote says so (the note captions carry as a comment).
        let note = document.sourceFormat == "speech" ? document.comments.first?.text : nil
        switch self {
        case .txt:
            return (note.map { $0 + "\n\n" } ?? "") + transcript.sections(chapters).map { section in
                let heading = section.title.map { $0 + "\n" + String(repeating: "=", count: $0.count) + "\n\n" } ?? ""
                return heading + section.paragraphs.map { paragraph in
                    let heading = [paragraph.isDescription ? words.seen : paragraph.speaker, timestamps ? "(\(Transcript.stamp(paragraph.start)))" : nil]
                        .compactMap { $0 }.joined(separator: " ")
                    return (heading.isEmpty ? "" : heading + "\n") + paragraph.text
                }.joined(separator: "\n\n")
            }.joined(separator: "\n\n") + "\n"
        case .md:
            let escaped = MarkdownText.escaped
            return "# \(escaped(title))\n\n" + (note.map { "_\(escaped($0))_\n\n" } ?? "") + transcript.sections(chapters).map { section in
                let heading = section.title.map { "## \(escaped($0))\n\n" } ?? ""
                return heading + section.paragraphs.map { paragraph in
                    let who = paragraph.isDescription ? "*\(escaped(words.seen))*" : paragraph.speaker.map { "**\(escaped($0))**" }
                    let parts = [who, timestamps ? Transcript.stamp(paragraph.start) : nil].compactMap { $0 }
                    let text = paragraph.isDescription ? "> " + escaped(paragraph.text) : escaped(paragraph.text)
                    return (parts.isEmpty ? "" : parts.joined(separator: " · ") + "\n\n") + text
                }.joined(separator: "\n\n")
            }.joined(separator: "\n\n") + "\n"
        case .html:
            return TranscriptPage.render(
                transcript.sections(chapters), title: title, language: document.language ?? "en", timestamps: timestamps, media: media,
                note: note)
        case .podcastJSON:
            return podcastJSON(document)
        }
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

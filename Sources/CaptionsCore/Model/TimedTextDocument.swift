/// One timed-text file in the exact model every reader produces and every writer consumes.
public struct TimedTextDocument: Sendable, Hashable {
    /// What the text is for, as in HTML's `<track kind>`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Transcription and sound description for people who cannot hear the audio.
        case captions
        /// Translation of the dialogue.
        case subtitles
        /// Text descriptions of the video, spoken by assistive technology (audio description).
        case descriptions
        /// Chapter titles for navigation.
        case chapters
        /// Data for scripts, not shown.
        case metadata
    }

    /// The format the document was read from, such as `"webvtt"` or `"srt"`; `nil` when built in code.
    public var sourceFormat: String?
    /// What the text is for.
    public var kind: Kind
    /// The BCP 47 language tag of the text, when the source says it.
    public var language: String?
    /// Text after the `WEBVTT` signature on the first line, verbatim (without the separating space).
    public var title: String
    /// Header lines between the signature line and the first blank line, verbatim (for example
    /// `Kind: captions`, `Language: en`).
    public var headerLines: [String]
    /// Regions cues may be placed in, ids unique.
    public var regions: [Region]
    /// CSS style sheets, kept verbatim.
    public var styleSheets: [StyleSheet]
    /// Comments (WebVTT `NOTE` blocks), each placed before a cue.
    public var comments: [Comment]
    /// The cues, in source order.
    public var cues: [Cue]
    /// What the reader noticed while reading.
    public var diagnostics: [Diagnostic]
    /// Fields of the source file's own header that only a writer of the same format can carry,
    /// by the format's names (EBU STL's GSI: `TPT`, `TN`, `PUB`, `DSC`…), so that re-saving keeps
    /// them; other writers ignore them.
    public var sourceHeader: [String: String] = [:]
    /// The step the source counts its times in when that is not fixed by its format: one frame
    /// of TTML timed in SMPTE frames (iTT) at the file's own rate; nil otherwise.
    public var sourceTimeStep: MediaTime?

    /// An empty document of a kind.
    public init(
        kind: Kind = .captions, language: String? = nil, title: String = "", headerLines: [String] = [],
        regions: [Region] = [], styleSheets: [StyleSheet] = [], comments: [Comment] = [], cues: [Cue] = [],
        diagnostics: [Diagnostic] = [], sourceFormat: String? = nil
    ) {
        self.kind = kind
        self.language = language
        self.title = title
        self.headerLines = headerLines
        self.regions = regions
        self.styleSheets = styleSheets
        self.comments = comments
        self.cues = cues
        self.diagnostics = diagnostics
        self.sourceFormat = sourceFormat
    }

    /// The distinct speakers named by cues, in order of first appearance.
    public var speakers: [String] {
        var seen = Set<String>()
        return cues.compactMap(\.speaker).filter { seen.insert($0).inserted }
    }

    /// The region with an id, if any.
    public func region(id: String) -> Region? {
        regions.last { $0.id == id }
    }
}

/// A CSS style sheet from a WebVTT `STYLE` block, kept as written.
public struct StyleSheet: Sendable, Hashable {
    /// The CSS text, lines joined by LF.
    public var text: String
    /// Where the block starts.
    public var location: SourceLocation?

    /// A style sheet with its text.
    public init(text: String, location: SourceLocation? = nil) {
        self.text = text
        self.location = location
    }
}

/// A comment (a WebVTT `NOTE` block) and the place it stands among the cues.
public struct Comment: Sendable, Hashable {
    /// The comment text after `NOTE` and its separating space or line break, lines joined by LF.
    public var text: String
    /// The index of the cue the comment comes before; `cues.count` for a comment after the last cue.
    public var beforeCue: Int
    /// Where the comment starts.
    public var location: SourceLocation?

    /// The text as a WebVTT NOTE block can hold it: without empty lines, which would end the block
    /// (a TTML `ttm:desc` of paragraphs became stray blocks), and with U+200B inside `-->`, which
    /// would make the block a cue. Comments read from WebVTT never have either.
    public var textForNoteBlock: String {
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        return lines.joined(separator: "\n").withWebVTTArrowsBroken
    }

    /// A comment placed before the cue at `beforeCue`.
    public init(text: String, beforeCue: Int, location: SourceLocation? = nil) {
        self.text = text
        self.beforeCue = beforeCue
        self.location = location
    }
}

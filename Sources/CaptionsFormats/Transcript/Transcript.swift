import CaptionsCore

/// Captions turned back into prose: one paragraph per speaker turn.
///
/// Consecutive cues of one speaker join into a paragraph (caption line breaks become spaces); a
/// new paragraph starts when the speaker changes or after a pause. Sound tags such as `[music]`
/// can be kept or dropped.
public struct Transcript: Sendable, Equatable {
    /// One speaker turn.
    public struct Paragraph: Sendable, Equatable {
        /// Who speaks, when known.
        public var speaker: String?
        /// When the turn starts.
        public var start: MediaTime
        /// The text, as prose.
        public var text: String
        /// The text in timed pieces: a cue each, or a word each where the cue times its words.
        public var pieces: [Piece] = []
        /// Whether this is a description of what is seen (from `--descriptions`), not speech.
        public var isDescription = false
    }

    /// A stretch of a paragraph's text and when it is said.
    public struct Piece: Sendable, Equatable {
        public var start: MediaTime
        public var text: String
    }

    /// How cues are grouped.
    public struct Options: Sendable {
        /// A silence at least this long starts a new paragraph (default 2 s).
        public var pause = MediaTime(seconds: 2)
        /// Keep sound tags such as `[music]` or `(laughs)` (default true).
        public var keepSoundTags = true

        /// The defaults.
        public init() {}
    }

    /// A chapter heading (Podcasting 2.0 chapters).
    public struct Chapter: Sendable, Equatable {
        /// Where the chapter starts.
        public var start: MediaTime
        /// Its title.
        public var title: String

        /// A chapter.
        public init(start: MediaTime, title: String) {
            self.start = start
            self.title = title
        }
    }

    /// Paragraphs under a chapter heading (nil before the first chapter).
    public struct Section: Sendable, Equatable {
        /// The chapter title.
        public var title: String?
        /// The paragraphs that start in the chapter.
        public var paragraphs: [Paragraph]
    }

    /// The paragraphs, in time order.
    public var paragraphs: [Paragraph]

    /// The paragraphs grouped under `chapters` (sorted by start); chapters without paragraphs are kept.
    public func sections(_ chapters: [Chapter]) -> [Section] {
        let sorted = chapters.sorted { $0.start < $1.start }
        var sections: [Section] = []
        var chapterIndex = 0
        var current = Section(title: nil, paragraphs: [])
        for paragraph in Self.split(paragraphs, at: sorted.map(\.start)) {
            while chapterIndex < sorted.count, sorted[chapterIndex].start <= paragraph.start {
                if current.title != nil || !current.paragraphs.isEmpty { sections.append(current) }
                current = Section(title: sorted[chapterIndex].title, paragraphs: [])
                chapterIndex += 1
            }
            current.paragraphs.append(paragraph)
        }
        if current.title != nil || !current.paragraphs.isEmpty { sections.append(current) }
        for chapter in sorted[chapterIndex...] { sections.append(Section(title: chapter.title, paragraphs: [])) }
        return sections
    }

    /// `paragraphs` with each one that runs across a chapter's start cut there, between its
    /// pieces (a host who talks on without a pause into the next chapter).
    static func split(_ paragraphs: [Paragraph], at starts: [MediaTime]) -> [Paragraph] {
        guard !starts.isEmpty else { return paragraphs }
        var result: [Paragraph] = []
        for paragraph in paragraphs {
            var rest = paragraph
            for start in starts where start > rest.start {
                guard let cut = rest.pieces.firstIndex(where: { $0.start >= start }), cut > 0 else { continue }
                var before = rest
                before.pieces = Array(rest.pieces[..<cut])
                before.text = before.pieces.map(\.text).joined(separator: " ")
                result.append(before)
                rest.pieces = Array(rest.pieces[cut...])
                rest.text = rest.pieces.map(\.text).joined(separator: " ")
                rest.start = rest.pieces[0].start
            }
            result.append(rest)
        }
        return result
    }

    /// Groups the cues of `document` into paragraphs; the cues of `descriptions` (audio
    /// descriptions: what is seen) become paragraphs of their own, marked, in time order.
    public init(_ document: TimedTextDocument, options: Options = Options(), descriptions: TimedTextDocument? = nil) {
        paragraphs = []
        var lastEnd: MediaTime?
        let spoken = document.cues.map { ($0, false) }, seen = (descriptions?.cues ?? []).map { ($0, true) }
        for (cue, isDescription) in (spoken + seen).sorted(by: { $0.0.start < $1.0.start }) {
            var pieces = Self.pieces(of: cue)
            if !options.keepSoundTags, !isDescription {
                pieces = pieces.map { Piece(start: $0.start, text: Self.withoutSoundTags($0.text)) }.filter { !$0.text.isEmpty }
            }
            let text = pieces.map(\.text).joined(separator: " ")
            guard !text.isEmpty else { continue }
            let speaker = isDescription ? nil : cue.speaker ?? Cue.firstVoice(in: cue.content)
            let paused = lastEnd.map { cue.start - $0 >= options.pause } ?? true
            if let last = paragraphs.last, !isDescription, !last.isDescription, last.speaker == speaker, !paused {
                paragraphs[paragraphs.count - 1].text += " " + text
                paragraphs[paragraphs.count - 1].pieces += pieces
            } else {
                paragraphs.append(Paragraph(speaker: speaker, start: cue.start, text: text, pieces: pieces, isDescription: isDescription))
            }
            if !isDescription { lastEnd = max(lastEnd ?? cue.start, cue.end ?? cue.start) }
        }
    }

    /// The cue's text as prose pieces: one from the cue's start, and one from each inline
    /// timestamp (WebVTT `<00:00:01.500>`, a word's time) on.
    static func pieces(of cue: Cue) -> [Piece] {
        var pieces: [Piece] = []
        var start = cue.start, text = ""
        func walk(_ nodes: [InlineNode]) {
            for node in nodes {
                switch node {
                case .text(let value): text += value
                case .timestamp(let time):
                    let prose = Self.prose(text)
                    if !prose.isEmpty { pieces.append(Piece(start: start, text: prose)) }
                    (start, text) = (max(time, start), "")
                case .span(let span):
                    if span.kind == .rubyText { continue }
                    walk(span.children)
                }
            }
        }
        walk(cue.content)
        let prose = Self.prose(text)
        if !prose.isEmpty { pieces.append(Piece(start: start, text: prose)) }
        return pieces
    }

    /// Caption lines joined into one line of prose, spaces collapsed, dialogue dashes removed.
    static func prose(_ text: String) -> String {
        text.split(separator: "\n").flatMap { line in
            // A dialogue dash starts a line; a "-" inside one ("3 - 2") is what was said.
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.first == "-" ? Array(words.dropFirst()) : words
        }.joined(separator: " ")
    }

    /// The text without sound tags: every `[…]`, and the `(…)` that describe a sound.
    static func withoutSoundTags(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "[" || $0 == "(" }) {
            let closer: Character = rest[open] == "[" ? "]" : ")"
            guard let close = rest[open...].firstIndex(of: closer) else { break }
            let inside = rest[rest.index(after: open)..<close]
            result += rest[..<open]
            if !(closer == "]" || isSoundDescription(inside)) { result += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return prose(result + rest)
    }

    /// Whether parenthesised text describes a sound, as captions write them (`(LAUGHS)`,
    /// `(door slams)`, `(music playing)`), rather than speech said in parentheses (`(vraiment
    /// tous)`): written in capitals, or starting with a word of the sound vocabulary.
    static func isSoundDescription(_ text: Substring) -> Bool {
        let letters = text.filter(\.isLetter)
        if !letters.isEmpty, letters.allSatisfy(\.isUppercase), letters.count > 1 { return true }
        let first = text.split(whereSeparator: { !$0.isLetter }).first.map { $0.lowercased() } ?? ""
        return soundWords.contains(first)
    }

    private static let soundWords: Set<String> = [
        "laughs", "laughing", "laughter", "chuckles", "chuckling", "giggles", "giggling", "sighs", "sighing", "gasps", "gasping",
        "coughs", "coughing", "sneezes", "applause", "applauding", "music", "singing", "sings", "humming", "hums", "cheering",
        "cheers", "screams", "screaming", "shouts", "shouting", "yells", "yelling", "whispers", "whispering", "groans", "groaning",
        "grunts", "grunting", "crying", "cries", "sobbing", "sobs", "sniffles", "sniffing", "clears", "inaudible", "indistinct",
        "crosstalk", "silence", "static", "beeping", "beeps", "ringing", "rings", "knocking", "knocks", "thunder", "footsteps",
        "exhales", "inhales", "panting", "pants", "murmuring", "murmurs", "snoring", "snores", "breathing", "breathes", "door",
        "phone", "doorbell", "engine", "gunshot", "gunshots", "explosion", "siren", "sirens", "barking", "barks", "birds",
        "wind", "rain", "water", "crowd", "audience", "background", "dramatic", "upbeat", "soft", "tense", "ominous",
        "rires", "musique", "applaudissements", "soupirs", "soupire", "risas", "música", "aplausos", "lachen", "musik", "applaus",
    ]

    /// `M:SS`, or `H:MM:SS` from an hour on.
    public static func stamp(_ time: MediaTime) -> String {
        // Whole seconds gone by, as a player's clock shows them (0.5 s is still 0:00).
        let total = max(0, time.rounded(toTimescale: 1000)) / 1000
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))" : "\(total / 60):\(twoDigits(seconds))"
    }
}

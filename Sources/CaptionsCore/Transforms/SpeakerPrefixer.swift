/// Writes speaker names into the text as `Name: ` for formats without voices (SRT `--speaker-prefix`).
///
/// Each voice span becomes its children preceded by `Name: `; a cue whose speaker is known but has
/// no voice span gets the prefix before its text.
public struct SpeakerPrefixer: Sendable {
    /// A prefixer.
    public init() {}

    /// The document with voice spans and speakers replaced by name prefixes.
    public func apply(to document: TimedTextDocument) -> TimedTextDocument {
        var prefixed = document
        for index in prefixed.cues.indices {
            var cue = prefixed.cues[index]
            let hadVoice = Cue.firstVoice(in: cue.content) != nil
            cue.content = Self.unwrapVoices(cue.content)
            if !hadVoice, let speaker = cue.speaker, !speaker.isEmpty {
                cue.content.insert(.text(speaker + ": "), at: 0)
            }
            // The name is in the text now: nothing of the speaker is left to lose.
            cue.speaker = nil
            prefixed.cues[index] = cue
        }
        return prefixed
    }

    private static func unwrapVoices(_ nodes: [InlineNode]) -> [InlineNode] {
        nodes.flatMap { node -> [InlineNode] in
            guard case .span(var span) = node else { return [node] }
            span.children = unwrapVoices(span.children)
            guard span.kind == .voice else { return [.span(span)] }
            let name = span.annotation ?? ""
            return (name.isEmpty ? [] : [.text(name + ": ")]) + span.children
        }
    }
}

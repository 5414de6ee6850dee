/// Renames speakers (`--speakers map.json`): labels such as `SPEAKER_1` from a diarisation tool
/// become real names, in cue speakers and in voice spans alike.
public struct SpeakerRenamer: Sendable {
    /// Old label → new name.
    public var names: [String: String]

    /// A renamer with a map of labels to names.
    public init(names: [String: String]) { self.names = names }

    /// The document with every mapped speaker renamed.
    public func apply(to document: TimedTextDocument) -> TimedTextDocument {
        var renamed = document
        for index in renamed.cues.indices {
            if let speaker = renamed.cues[index].speaker, let name = names[speaker] { renamed.cues[index].speaker = name }
            renamed.cues[index].content = rename(renamed.cues[index].content)
        }
        return renamed
    }

    private func rename(_ nodes: [InlineNode]) -> [InlineNode] {
        nodes.map { node in
            guard case .span(var span) = node else { return node }
            if span.kind == .voice, let annotation = span.annotation, let name = names[annotation] { span.annotation = name }
            span.children = rename(span.children)
            return .span(span)
        }
    }
}

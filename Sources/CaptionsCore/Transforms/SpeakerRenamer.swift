/// Renames speakers (`--speakers map.json`): labels such as `SPEAKER_1` from a diarisation tool
/// become real names, in cue speakers and in voice spans alike.
///
/// A label is matched exactly, or else ignoring case and with `_` or `-` as a space, so that a
/// map written for one tool's `SPEAKER_1` names the `Speaker 1` of another. Labels of the map
/// that name no speaker of the document are reported (`speakers.unmatched`), with the speakers
/// it has, instead of leaving every cue unchanged without a word. A label mapped to nothing (`""`,
/// or only spaces) is taken off: the text stays, without a speaker (it was written as an empty
/// name: `****` in Markdown, `<cite></cite>` in HTML).
public struct SpeakerRenamer: Sendable {
    /// Old label → new name.
    public var names: [String: String]

    /// A renamer with a map of labels to names.
    public init(names: [String: String]) { self.names = names }

    /// The document with every mapped speaker renamed, and a warning for labels that matched nothing.
    public func apply(to document: TimedTextDocument) -> (document: TimedTextDocument, diagnostics: [Diagnostic]) {
        var labels: [String] = []
        var seen = Set<String>()
        func collect(_ nodes: [InlineNode]) {
            for case .span(let span) in nodes {
                if span.kind == .voice, let annotation = span.annotation, seen.insert(annotation).inserted { labels.append(annotation) }
                collect(span.children)
            }
        }
        for cue in document.cues {
            if let speaker = cue.speaker, seen.insert(speaker).inserted { labels.append(speaker) }
            collect(cue.content)
        }
        var resolved: [String: String] = [:]
        var used = Set<String>()
        let loose = Dictionary(names.map { (Self.loose($0.key), $0.key) }, uniquingKeysWith: { first, _ in first })
        for label in labels {
            guard let key = names[label] != nil ? label : loose[Self.loose(label)], let name = names[key] else { continue }
            resolved[label] = name
            used.insert(key)
        }
        var renamed = document
        for index in renamed.cues.indices {
            if let speaker = renamed.cues[index].speaker, let name = resolved[speaker] {
                renamed.cues[index].speaker = Self.isNone(name) ? nil : name
            }
            renamed.cues[index].content = rename(renamed.cues[index].content, resolved)
        }
        let unmatched = names.keys.filter { !used.contains($0) }.sorted()
        var diagnostics: [Diagnostic] = []
        if !unmatched.isEmpty {
            let quoted = unmatched.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (unmatched.count > 5 ? "…" : "")
            let has = labels.isEmpty
                ? "the captions name no speaker"
                : "the speakers are " + labels.prefix(8).map { "'\($0)'" }.joined(separator: ", ") + (labels.count > 8 ? "…" : "")
            diagnostics.append(Diagnostic(
                .warning, "speakers.unmatched", "--speakers: \(quoted) match\(unmatched.count == 1 ? "es" : "") no speaker (\(has))", at: nil))
        }
        return (renamed, diagnostics)
    }

    private static func loose(_ label: String) -> String {
        String(label.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 })
    }

    /// Whether a mapped name is none: empty or only spaces.
    private static func isNone(_ name: String) -> Bool { name.allSatisfy(\.isWhitespace) }

    private func rename(_ nodes: [InlineNode], _ resolved: [String: String]) -> [InlineNode] {
        nodes.flatMap { node -> [InlineNode] in
            guard case .span(var span) = node else { return [node] }
            span.children = rename(span.children, resolved)
            if span.kind == .voice, let annotation = span.annotation, let name = resolved[annotation] {
                // A voice taken off leaves its text.
                if Self.isNone(name) { return span.children }
                span.annotation = name
            }
            return [.span(span)]
        }
    }
}

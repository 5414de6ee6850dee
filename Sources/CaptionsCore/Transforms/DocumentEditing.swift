extension TimedTextDocument {
    /// Replaces every time in the document (cue starts, ends and karaoke timestamps) by `transform(time)`.
    public mutating func mapTimes(_ transform: (MediaTime) -> MediaTime) {
        for index in cues.indices {
            cues[index].start = transform(cues[index].start)
            cues[index].end = cues[index].end.map(transform)
            cues[index].content = Self.mapTimes(in: cues[index].content, transform)
        }
    }

    private static func mapTimes(in nodes: [InlineNode], _ transform: (MediaTime) -> MediaTime) -> [InlineNode] {
        nodes.map { node in
            switch node {
            case .text: return node
            case .timestamp(let time): return .timestamp(transform(time))
            case .span(var span):
                span.children = mapTimes(in: span.children, transform)
                return .span(span)
            }
        }
    }

    /// Removes the cues whose indices are in `removed`, keeping each comment before the cue that
    /// followed it (or at the end).
    public mutating func removeCues(at removed: Set<Int>) {
        guard !removed.isEmpty else { return }
        for index in comments.indices {
            let anchor = comments[index].beforeCue
            comments[index].beforeCue = anchor - removed.count { $0 < anchor }
        }
        cues = cues.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}

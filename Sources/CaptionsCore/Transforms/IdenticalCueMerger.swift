/// Joins consecutive cues that show the same thing without a gap (`--merge`).
///
/// Two neighbours merge when their content, settings and speaker are equal and the second starts
/// no later than the first ends; the merged cue keeps the first id and the later end. Typical
/// input: roll-up captions exported as one cue per frame or per line refresh.
public struct IdenticalCueMerger: Sendable {
    /// A merger.
    public init() {}

    /// The document with identical neighbours merged, and a note saying how many were merged.
    public func apply(to document: TimedTextDocument) -> (TimedTextDocument, [Diagnostic]) {
        var merged = document
        var removed = Set<Int>()
        var keeper = 0
        for index in merged.cues.indices.dropFirst() {
            let previous = merged.cues[keeper]
            let cue = merged.cues[index]
            if let previousEnd = previous.end, cue.start <= previousEnd, cue.content == previous.content,
                cue.settings == previous.settings, cue.speaker == previous.speaker
            {
                merged.cues[keeper].end = cue.end.map { max($0, previousEnd) }
                removed.insert(index)
            } else {
                keeper = index
            }
        }
        merged.removeCues(at: removed)
        let diagnostics =
            removed.isEmpty
            ? []
            : [Diagnostic(.note, "transform.merge.merged", "\(removed.count) identical consecutive cue(s) merged", at: nil)]
        return (merged, diagnostics)
    }
}

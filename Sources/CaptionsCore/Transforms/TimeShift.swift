/// Moves every cue by a fixed offset (`captions convert --shift -1.5s`).
///
/// A cue pushed entirely before zero is removed; one that starts before zero but ends after it
/// starts at zero. Both are reported (`transform.shift.removed`, `transform.shift.clamped`).
public struct TimeShift: Sendable {
    /// The offset added to every time; negative moves cues earlier.
    public var offset: MediaTime

    /// A shift by `offset`.
    public init(offset: MediaTime) { self.offset = offset }

    /// The shifted document and what the shift had to remove or clamp.
    public func apply(to document: TimedTextDocument) -> (TimedTextDocument, [Diagnostic]) {
        var shifted = document
        shifted.mapTimes { $0 + offset }
        var removed = Set<Int>()
        var clamped: [SourceLocation?] = []
        for (index, cue) in shifted.cues.enumerated() where cue.start < .zero {
            if let end = cue.end, end <= .zero {
                removed.insert(index)
            } else {
                shifted.cues[index].start = .zero
                clamped.append(cue.location)
            }
        }
        var diagnostics: [Diagnostic] = []
        if let first = removed.min() {
            diagnostics.append(Diagnostic(
                .warning, "transform.shift.removed",
                "\(removed.count) cue(s) ended before 0 after the shift and were removed",
                at: document.cues[first].location))
        }
        if let first = clamped.first {
            diagnostics.append(Diagnostic(
                .warning, "transform.shift.clamped",
                "\(clamped.count) cue(s) started before 0 after the shift and now start at 0", at: first))
        }
        shifted.removeCues(at: removed)
        return (shifted, diagnostics)
    }
}

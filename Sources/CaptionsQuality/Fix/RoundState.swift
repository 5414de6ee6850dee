import CaptionsCore

/// Repairs tried and found impossible, so that the next rounds of a fix, and the next fix of the
/// same file with the same checker (`captions fix` fixes its output again as it reads back), do
/// not try them again: most of a round's time on a long file. What they depend on is the cues'
/// text and times, which a repair that succeeds changes, and the checker's limits.
public struct FailedRepairs: Sendable {
    /// A cue's text and times (not where it was read). Hashed by its times alone, which few cues
    /// share: hashing the text took longer than the repairs it spared.
    struct Key: Hashable, Sendable {
        let content: [InlineNode]
        let start: MediaTime
        let end: MediaTime?

        init(_ cue: Cue) { (content, start, end) = (cue.content, cue.start, cue.end) }

        func hash(into hasher: inout Hasher) {
            hasher.combine(start)
            hasher.combine(end)
        }
    }

    /// A cue and the next.
    struct Pair: Hashable, Sendable {
        let first: Key
        let second: Key
    }

    /// Cues that cannot be re-broken or split to fit the line limits.
    var rewraps = Set<Key>()
    /// Cues that cannot be merged with the next.
    var merges = Set<Pair>()

    /// None yet.
    public init() {}
}

/// A list of cues rebuilt from another, cue by cue in order, that copies nothing until the first
/// change: most rounds of a fix change nothing on most cues of a long file.
struct CueEdits {
    /// The cues before.
    let original: [Cue]
    private var edited: [Cue]?
    /// How many of ``original`` are kept or replaced so far.
    private var done = 0

    init(_ cues: [Cue]) { original = cues }

    /// The next cue kept as it is.
    mutating func keep() {
        edited?.append(original[done])
        done += 1
    }

    /// The next `count` cues replaced by `cues`.
    mutating func replace(_ count: Int, with cues: [Cue]) {
        if edited == nil {
            var copy: [Cue] = []
            copy.reserveCapacity(original.count + cues.count)
            copy += original[..<done]
            edited = copy
        }
        edited?.append(contentsOf: cues)
        done += count
    }

    /// The cues after, or nil when none changed.
    var result: [Cue]? {
        guard var edited else { return nil }
        if done < original.count { edited += original[done...] }
        return edited
    }
}

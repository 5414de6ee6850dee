import CaptionsCore

/// Cue edges near a shot change without being on it: `check.shot.start` (a cue should start on
/// the cut or a zone away from it) and `check.shot.end` (end the profile's offset before the cut,
/// or a zone away from it). Viewers re-read a subtitle that survives a cut by a few frames.
struct ShotChangeRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        guard !context.shotChanges.isEmpty, let zone = context.time(context.limits.shotChangeZone), zone > .zero else { return }
        let offset = context.time(context.limits.shotChangeOutOffset) ?? .zero
        let slack = context.slack
        for (index, cue) in context.cues.enumerated() where !context.facts[index].isEmpty {
            if let shot = Self.nearest(to: cue.start, in: context.shotChanges) {
                let distance = cue.start - shot
                if Self.magnitude(distance) > slack, Self.magnitude(distance) + slack < zone {
                    let side = distance.isNegative ? "before" : "after"
                    sink.add(
                        "check.shot.start", .warning,
                        "starts \(context.describe(Self.magnitude(distance))) \(side) the shot change at \(QualityContext.clock(shot)): start on it, or \(context.describe(zone)) away",
                        cue: index, repair: "shots")
                }
            }
            guard let end = cue.end, let shot = Self.nearest(to: end + offset, in: context.shotChanges) else { continue }
            let fromCut = end - shot
            let fromTarget = end + offset - shot
            if Self.magnitude(fromTarget) > slack, Self.magnitude(fromCut) + slack < zone {
                let side = fromCut.isNegative ? "before" : "after"
                let target = offset > .zero ? "end \(context.describe(offset)) before it" : "end on it"
                sink.add(
                    "check.shot.end", .warning,
                    "ends \(context.describe(Self.magnitude(fromCut))) \(side) the shot change at \(QualityContext.clock(shot)): \(target), or \(context.describe(zone)) away",
                    cue: index, repair: "shots")
            }
        }
    }

    static func magnitude(_ time: MediaTime) -> MediaTime { time.isNegative ? -time : time }

    /// The shot change nearest `time` in a sorted list.
    static func nearest(to time: MediaTime, in shots: [MediaTime]) -> MediaTime? {
        var low = 0
        var high = shots.count
        while low < high {
            let middle = (low + high) / 2
            if shots[middle] < time { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { shots.indices.contains($0) }.map { shots[$0] }
        return candidates.min { magnitude($0 - time) < magnitude($1 - time) }
    }
}

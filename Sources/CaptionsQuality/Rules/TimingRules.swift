import CaptionsCore

/// Minimum and maximum time on screen: `check.duration.short`, `check.duration.long`.
struct DurationRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let minimum = context.time(context.limits.minDuration)
        let maximum = context.time(context.limits.maxDuration)
        guard minimum != nil || maximum != nil else { return }
        for (index, cue) in context.cues.enumerated() {
            guard let end = cue.end, !context.facts[index].isEmpty else { continue }
            let duration = end - cue.start
            if let minimum, duration + QualityContext.slack < minimum {
                sink.add(
                    "check.duration.short", .error,
                    "on screen \(context.describe(duration)), under the minimum \(context.describe(minimum))",
                    cue: index, repair: "duration")
            }
            if let maximum, maximum + QualityContext.slack < duration {
                sink.add(
                    "check.duration.long", .error,
                    "on screen \(context.describe(duration)), over the maximum \(context.describe(maximum))",
                    cue: index, repair: "duration")
            }
        }
    }
}

/// Cues out of time order and cues shown over one another: `check.cue.order`, `check.cue.overlap`
/// (judged in time order, so that a cue out of place is reported once, as out of order).
struct OrderRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        var latest: (start: MediaTime, index: Int)?
        for (index, cue) in context.cues.enumerated() {
            if let latest, cue.start < latest.start {
                sink.add(
                    "check.cue.order", .error,
                    "starts before cue \(latest.index + 1), which comes first in the file (\(QualityContext.clock(latest.start)))",
                    cue: index, repair: "order")
            }
            if latest.map({ cue.start >= $0.start }) ?? true { latest = (cue.start, index) }
        }
        var showing: (end: MediaTime, index: Int)?
        for index in context.timeOrder {
            let cue = context.cues[index]
            if let shown = showing, cue.start < shown.end,
                !(cue.start == context.cues[shown.index].start && context.shownTogether.contains(index))
            {
                sink.add(
                    "check.cue.overlap", .error,
                    "shown over cue \(shown.index + 1) for \(context.describe(min(shown.end, cue.end ?? shown.end) - cue.start))",
                    cue: index, repair: "gaps")
            }
            let end = cue.end ?? MediaTime(seconds: Int64(Int32.max))
            if showing.map({ end > $0.end }) ?? true { showing = (end, index) }
        }
    }
}

/// Gaps between cues consecutive in time: `check.gap.short` (under the minimum, touching
/// included) and `check.gap.closable` (too short to read as a pause: close it to the minimum).
struct GapRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let minimum = context.time(context.limits.minGap) ?? .zero
        let closable = context.time(context.limits.closeGapsUnder)
        guard minimum > .zero || closable != nil else { return }
        let cues = context.cues
        for (index, next) in zip(context.timeOrder, context.timeOrder.dropFirst()) {
            guard let end = cues[index].end, cues[next].start >= end else { continue }
            let gap = cues[next].start - end
            if minimum > .zero, gap + QualityContext.slack < minimum {
                sink.add(
                    "check.gap.short", .error,
                    "gap of \(context.describe(gap)) to cue \(next + 1), under the minimum \(context.describe(minimum))",
                    cue: index, repair: "gaps")
            } else if let closable, gap > minimum + QualityContext.slack, gap + QualityContext.slack < closable {
                sink.add(
                    "check.gap.closable", .warning,
                    "gap of \(context.describe(gap)) to cue \(next + 1): close it to \(context.describe(minimum)) or open it to \(context.describe(closable))",
                    cue: index, repair: "gaps")
            }
        }
    }
}

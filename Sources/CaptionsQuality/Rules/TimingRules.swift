import CaptionsCore

/// Minimum and maximum time on screen: `check.duration.short`, `check.duration.long`, and
/// `check.duration.open` for a cue without an end time where the profile sets no maximum.
struct DurationRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let minimum = context.nanoseconds(context.limits.minDuration)
        let maximum = context.nanoseconds(context.limits.maxDuration)
        let slack = context.slackNanoseconds
        // The limits read the same in every finding: described once.
        let minimumText = minimum.map { context.describe(nanoseconds: $0) } ?? ""
        let maximumText = maximum.map { context.describe(nanoseconds: $0) } ?? ""
        let facts = context.facts
        for index in facts.indices where !facts[index].isEmpty {
            guard facts[index].end != .max else {
                // No end time (TTML without `end` or `dur`, an SCC caption never erased): shown
                // until the end of the programme.
                if maximum != nil {
                    sink.add("check.duration.long", .error, cue: index, repair: "duration") { text in
                        text.append("has no end time (shown until the end of the programme), over the maximum ")
                        text.append(maximumText)
                    }
                } else {
                    sink.add("check.duration.open", .warning, "has no end time (shown until the end of the programme)", cue: index, repair: "duration")
                }
                continue
            }
            let duration = facts[index].end - facts[index].start
            if let minimum, duration + slack < minimum {
                sink.add("check.duration.short", .error, cue: index, repair: "duration") { text in
                    text.append("on screen ")
                    context.describe(nanoseconds: duration, into: &text)
                    text.append(", under the minimum ")
                    text.append(minimumText)
                }
            }
            if let maximum, maximum + slack < duration {
                sink.add("check.duration.long", .error, cue: index, repair: "duration") { text in
                    text.append("on screen ")
                    context.describe(nanoseconds: duration, into: &text)
                    text.append(", over the maximum ")
                    text.append(maximumText)
                }
            }
        }
    }
}

/// Cues out of time order and cues shown over one another: `check.cue.order`, `check.cue.overlap`
/// (judged in time order, so that a cue out of place is reported once, as out of order).
struct OrderRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        // Fields read by index: a copy of a cue's facts retains and releases its text.
        let facts = context.facts
        var latest: (start: Int64, index: Int)?
        for index in facts.indices {
            let start = facts[index].start
            if let latest, start < latest.start {
                sink.add(
                    "check.cue.order", .error,
                    "starts before cue \(latest.index + 1), which comes first in the file (\(QualityContext.clock(context.cues[latest.index].start)))",
                    cue: index, repair: "order")
            }
            if latest.map({ start >= $0.start }) ?? true { latest = (start, index) }
        }
        var showing: (end: Int64, index: Int)?
        for index in context.timeOrder {
            let (start, end) = (facts[index].start, facts[index].end)
            if let shown = showing, start < shown.end,
                !(start == facts[shown.index].start && context.shownTogether.contains(index))
            {
                let how = min(shown.end, end) == .max
                    ? ", which has no end time" : " for \(context.describe(nanoseconds: min(shown.end, end) - start))"
                sink.add("check.cue.overlap", .error, "shown over cue \(shown.index + 1)\(how)", cue: index, repair: "gaps")
            }
            if showing.map({ end > $0.end }) ?? true { showing = (end, index) }
        }
    }
}

/// Gaps between cues consecutive in time: `check.gap.short` (under the minimum, touching
/// included) and `check.gap.closable` (too short to read as a pause: close it to the minimum).
struct GapRule: QualityRule {
    func check(_ context: QualityContext, into sink: inout FindingSink) {
        let minimum = context.nanoseconds(context.limits.minGap) ?? 0
        let closable = context.nanoseconds(context.limits.closeGapsUnder)
        guard minimum > 0 || closable != nil else { return }
        let slack = context.slackNanoseconds
        let facts = context.facts
        let minimumText = context.describe(nanoseconds: minimum)
        let closableText = closable.map { context.describe(nanoseconds: $0) } ?? ""
        for (index, next) in zip(context.timeOrder, context.timeOrder.dropFirst()) {
            let end = facts[index].end
            guard end != .max, facts[next].start >= end else { continue }
            let gap = facts[next].start - end
            // "gap of 0.083s (2 frames) to cue 7", then what the finding says of it.
            func describeGap(_ text: inout MessageText, _ tail: String...) {
                text.append("gap of ")
                context.describe(nanoseconds: gap, into: &text)
                text.append(" to cue ")
                text.append(String(next + 1))
                for part in tail { text.append(part) }
            }
            if minimum > 0, gap + slack < minimum {
                sink.add("check.gap.short", .error, cue: index, repair: "gaps") { describeGap(&$0, ", under the minimum ", minimumText) }
            } else if let closable, gap > minimum + slack, gap + slack < closable {
                sink.add("check.gap.closable", .warning, cue: index, repair: "gaps") {
                    describeGap(&$0, ": close it to ", minimumText, " or open it to ", closableText)
                }
            }
        }
    }
}

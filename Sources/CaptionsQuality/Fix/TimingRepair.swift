import CaptionsCore

/// The timing repairs of `captions fix`, cue by cue in time order: snap edges to shot changes,
/// give each cue the time its text needs (minimum duration, reading speed) from free time after
/// it and then before it, shorten cues over the maximum when the text still reads in time, and
/// open or close gaps to the minimum. Each repair applies only where the matching check fails,
/// so a repaired file is left as it is.
struct TimingRepair {
    let context: QualityContext
    let profile: QualityProfile
    private(set) var cues: [Cue]
    private(set) var changes: [FixChange] = []
    private let slack: MediaTime
    private let minGap: MediaTime
    private let zone: MediaTime?
    private let offset: MediaTime

    init(context: QualityContext, profile: QualityProfile) {
        self.context = context
        self.profile = profile
        cues = context.cues
        slack = context.slack
        minGap = context.time(context.limits.minGap) ?? .zero
        zone = context.shotChanges.isEmpty ? nil : context.time(context.limits.shotChangeZone).flatMap { $0 > .zero ? $0 : nil }
        offset = context.time(context.limits.shotChangeOutOffset) ?? .zero
    }

    /// The most a cue's start is moved, earlier to give it time or to make way for the next cue,
    /// or later to make way for the one before: half a second (BBC: subtitles should not
    /// anticipate speech by more than 1.5 s; Netflix times to the audio within frames), in one
    /// step that gives it all the time it needs.
    static let maximumLead = MediaTime(milliseconds: 500)

    mutating func run() {
        if profile.allowsFix("duration") {
            for index in cues.indices where cues[index].end == nil && !context.facts[index].isEmpty { endOpen(index) }
        }
        for index in cues.indices
        where cues[index].end != nil && !context.facts[index].isEmpty && !context.shownTogether.contains(index) {
            if profile.allowsFix("shots") { snapToShots(index) }
            if profile.allowsFix("duration") || profile.allowsFix("readingSpeed") { giveTime(index) }
            if profile.allowsFix("duration") { trimLong(index) }
            if profile.allowsFix("gaps") { fixGap(after: index) }
        }
    }

    /// The time cue `index` needs: its minimum duration and the time its text takes to read.
    private func needed(_ index: Int) -> MediaTime {
        var needed = MediaTime.zero
        if profile.allowsFix("duration"), let minimum = context.time(context.limits.minDuration) { needed = minimum }
        if profile.allowsFix("readingSpeed"), let reading = context.readingTime(of: index), reading > needed { needed = reading }
        return needed
    }

    /// The earliest cue `index` may start and the latest it may end, keeping the minimum gap.
    private func room(_ index: Int) -> (earliest: MediaTime, latest: MediaTime?) {
        let earliest = index > 0 ? (cues[index - 1].end.map { $0 + minGap } ?? cues[index - 1].start) : .zero
        var latest = index + 1 < cues.count ? cues[index + 1].start - minGap : nil
        if let limit = context.latestTime { latest = min(latest ?? limit, limit) }
        return (max(earliest, .zero), latest)
    }

    /// Whether `time` is near a shot change without being where the profile wants an edge.
    private func nearShot(end time: MediaTime) -> Bool {
        guard let zone, let shot = ShotChangeRule.nearest(to: time + offset, in: context.shotChanges) else { return false }
        return ShotChangeRule.magnitude(time + offset - shot) > slack && ShotChangeRule.magnitude(time - shot) + slack < zone
    }

    /// Whether a cue from `start` to `end` stays within the maximum duration.
    private func withinMaximum(_ start: MediaTime, _ end: MediaTime) -> Bool {
        guard let maximum = context.time(context.limits.maxDuration) else { return true }
        return end - start <= maximum + slack
    }

    private mutating func record(_ code: Diagnostic.Code, _ index: Int, _ what: String) {
        changes.append(FixChange(code: code, message: "\(QualityFixer.name(cues[index])): \(what)", location: cues[index].location))
    }

    private mutating func setEnd(_ index: Int, _ end: MediaTime, _ code: Diagnostic.Code, _ why: String) {
        guard let old = cues[index].end, old != end else { return }
        cues[index].end = end
        record(code, index, "end \(QualityContext.clock(old)) → \(QualityContext.clock(end)) (\(why))")
    }

    private mutating func setStart(_ index: Int, _ start: MediaTime, _ code: Diagnostic.Code, _ why: String) {
        let old = cues[index].start
        guard old != start else { return }
        cues[index].start = start
        record(code, index, "start \(QualityContext.clock(old)) → \(QualityContext.clock(start)) (\(why))")
    }

    private mutating func snapToShots(_ index: Int) {
        guard let zone, let end = cues[index].end else { return }
        let (earliest, latest) = room(index)
        if let shot = ShotChangeRule.nearest(to: cues[index].start, in: context.shotChanges) {
            let distance = ShotChangeRule.magnitude(cues[index].start - shot)
            if distance > slack, distance + slack < zone, shot >= earliest, end - shot + slack >= needed(index) {
                setStart(index, shot, "fix.shot.start", "on the shot change")
            }
        }
        guard nearShot(end: end), let shot = ShotChangeRule.nearest(to: end + offset, in: context.shotChanges) else { return }
        let target = shot - offset
        let start = cues[index].start
        if target - start + slack >= needed(index), latest.map({ target <= $0 + slack }) ?? true, withinMaximum(start, target) {
            setEnd(index, target, "fix.shot.end", offset > .zero ? "\(context.describe(offset)) before the shot change" : "on the shot change")
        } else if end > shot, latest.map({ shot + zone <= $0 }) ?? true, withinMaximum(start, shot + zone) {
            setEnd(index, shot + zone, "fix.shot.end", "\(context.describe(zone)) after the shot change")
        }
    }

    private mutating func giveTime(_ index: Int) {
        guard let end = cues[index].end else { return }
        let needed = needed(index)
        let start = cues[index].start
        guard end - start + slack < needed else { return }
        let (earliest, latest) = room(index)
        var newEnd = start + needed
        if let maximum = context.time(context.limits.maxDuration), newEnd > start + maximum { newEnd = start + maximum }
        if let latest, newEnd > latest { newEnd = latest }
        if nearShot(end: newEnd), let shot = ShotChangeRule.nearest(to: newEnd + offset, in: context.shotChanges),
            shot - offset > newEnd, latest.map({ shot - offset <= $0 }) ?? true
        {
            newEnd = shot - offset
        }
        // Not by a millisecond or less: an output that keeps milliseconds (SRT) rounds the end,
        // and the next fix would move it again by the rounding.
        if newEnd > end + slack { setEnd(index, newEnd, "fix.duration.extended", "time to read") }
        let current = cues[index].end ?? end
        if current - start + slack < needed {
            // A caption may lead its speech a little, not by seconds; and only when that gives it
            // all the time it needs (a partial move would be moved again by the next fix).
            let newStart = max(earliest, current - needed)
            if newStart + slack < start, start - newStart <= Self.maximumLead, current - newStart + slack >= needed {
                setStart(index, newStart, "fix.duration.extended", "time to read, from the gap before")
            }
        }
    }

    /// A cue without an end time (shown until the end of the programme) ends where the next cue
    /// starts, keeping the minimum gap, and at the latest after the maximum duration; the last
    /// one without a maximum is left for a person.
    private mutating func endOpen(_ index: Int) {
        let start = cues[index].start
        let maximum = context.time(context.limits.maxDuration).map { start + $0 }
        let next = cues[(index + 1)...].first(where: { $0.start - minGap > start }).map { $0.start - minGap }
        guard var end = [maximum, next].compactMap({ $0 }).min() else { return }
        if let limit = context.latestTime { end = min(end, limit) }
        guard end > start else { return }
        cues[index].end = end
        record("fix.duration.shortened", index, "end → \(QualityContext.clock(end)) (it had none: shown until the end of the programme)")
    }

    private mutating func trimLong(_ index: Int) {
        guard let maximum = context.time(context.limits.maxDuration), let end = cues[index].end else { return }
        let start = cues[index].start
        guard end - start > maximum + slack else { return }
        if let reading = context.readingTime(of: index), reading > maximum + slack { return }
        setEnd(index, start + maximum, "fix.duration.shortened", "the maximum duration")
    }

    private mutating func fixGap(after index: Int) {
        guard index + 1 < cues.count, let end = cues[index].end, cues[index + 1].start >= cues[index].start,
            !context.shownTogether.contains(index + 1)
        else { return }
        let next = cues[index + 1].start
        let gap = next - end
        let start = cues[index].start
        if gap + slack < minGap || (gap.isNegative && minGap == .zero) {
            let newEnd = next - minGap
            let minimum = context.time(context.limits.minDuration) ?? .zero
            let code: Diagnostic.Code = gap.isNegative ? "fix.cue.overlap" : "fix.gap.opened"
            if newEnd > start, newEnd - start + slack >= minimum {
                setEnd(index, newEnd, code, "\(context.describe(minGap)) before the next cue")
            } else if newEnd - minimum >= room(index).earliest, newEnd - minimum >= .zero,
                start - (newEnd - minimum) <= Self.maximumLead
            {
                // Too short to end earlier where it is: move the whole cue earlier, into free time
                // (no further than a caption may lead its speech).
                setStart(index, newEnd - minimum, code, "moved earlier to keep \(context.describe(minGap)) before the next cue")
                setEnd(index, newEnd, code, "\(context.describe(minGap)) before the next cue")
            } else if let nextEnd = cues[index + 1].end, nextEnd - (end + minGap) + slack >= minimum,
                end + minGap - next <= Self.maximumLead
            {
                // Or start the next one a little later; a larger move is left for a person.
                setStart(index + 1, end + minGap, code, "\(context.describe(minGap)) after the cue before")
            }
        } else if let closable = context.time(context.limits.closeGapsUnder), gap > minGap + slack, gap + slack < closable,
            !nearShot(end: next - minGap), withinMaximum(start, next - minGap)
        {
            setEnd(index, next - minGap, "fix.gap.closed", "gap to the next cue closed to \(context.describe(minGap))")
        }
    }
}

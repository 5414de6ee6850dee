import CaptionsCore

/// One repair `captions fix` made.
public struct FixChange: Sendable, Hashable {
    /// A stable `fix.*` code.
    public var code: Diagnostic.Code
    /// What changed, for people: the cue, its times before and after.
    public var message: String
    /// Where the cue was in the source.
    public var location: SourceLocation?
}

/// What `captions fix` produced: the repaired document, the list of changes, and the check of the
/// result (what is left for a person).
public struct QualityFix: Sendable {
    /// The repaired document.
    public var document: TimedTextDocument
    /// Every change, in the order made.
    public var changes: [FixChange]
    /// The check of ``document``: what could not be repaired.
    public var remaining: QualityReport
}

/// Applies the repairs a profile allows (`fixes`): removes empty cues, puts cues in time order,
/// re-breaks lines (balanced, never between a title and a name) and splits cues whose text needs
/// more lines, snaps cue edges to shot changes, extends cues too short for their text into free
/// time, shortens cues over the maximum, opens and closes gaps to the minimum, and merges a cue
/// that reads too fast with the next when both fit. Repairs run until nothing changes, so fixing
/// a fixed file changes nothing.
public struct QualityFixer: Sendable {
    /// The checker whose profile, language, frame rate and shot changes the repairs follow.
    public var checker: QualityChecker

    /// A fixer for a checker's settings.
    public init(checker: QualityChecker) { self.checker = checker }

    /// The document repaired, what changed, and what is left.
    public func fix(_ document: TimedTextDocument) -> QualityFix {
        var fixed = document
        var changes: [FixChange] = []
        let profile = checker.profile
        // Every time where the output's format will put it (a frame, a hundredth), as its writer
        // does, so that what is repaired, and what is left, is what the output holds.
        if checker.timeStep > QualityContext.minimumSlack {
            var moved: [Int] = []
            for index in fixed.cues.indices {
                let cue = fixed.cues[index]
                fixed.cues[index].start = Self.onStep(cue.start, checker.timeStep)
                fixed.cues[index].end = cue.end.map { Self.onStep($0, checker.timeStep) }
                if fixed.cues[index].start != cue.start || fixed.cues[index].end != cue.end { moved.append(index) }
            }
            if let first = moved.first {
                changes.append(FixChange(
                    code: "fix.time.step",
                    message: "\(moved.count) cue\(moved.count == 1 ? "" : "s") put on the step the output writes times in (\(NumberFormatting.shortest((checker.timeStep.seconds * 1000).rounded() / 1000)) s), first \(Self.name(document.cues[first]))",
                    location: document.cues[first].location))
            }
        }
        for _ in 0..<4 {
            let before = changes.count
            if profile.allowsFix("empty") { removeEmpty(&fixed, &changes) }
            if profile.allowsFix("order") { reorder(&fixed, &changes) }
            if profile.allowsFix("lines") { rewrap(&fixed, &changes) }
            var timing = TimingRepair(context: checker.context(for: fixed), profile: profile)
            timing.run()
            fixed.cues = timing.cues
            changes += timing.changes
            if profile.allowsFix("readingSpeed") { mergeFastCues(&fixed, &changes) }
            if changes.count == before { break }
        }
        // Writing closes every tag: markup the reader found unbalanced comes out balanced.
        let unbalanced = fixed.diagnostics.filter { MarkupRule.isMarkup($0.code) }
        for diagnostic in unbalanced {
            changes.append(FixChange(code: "fix.markup.balanced", message: diagnostic.message, location: diagnostic.location))
        }
        fixed.diagnostics.removeAll { MarkupRule.isMarkup($0.code) }
        // The reader's warnings are about the input (a setting ignored, a stray line): the output
        // is written without what they ignored, so they are one change, not something left.
        // Its errors (a cue it could not read) stay left for a person.
        let ignored = fixed.diagnostics.filter { $0.severity == .warning }
        if let first = ignored.first {
            changes.append(FixChange(
                code: "fix.input.rewritten",
                message: "written without what the reader ignored (\(ignored.count) warning\(ignored.count == 1 ? "" : "s") on reading)",
                location: first.location))
            fixed.diagnostics.removeAll { $0.severity == .warning }
        }
        renumber(&fixed)
        return QualityFix(document: fixed, changes: changes, remaining: checker.check(fixed))
    }

    /// `time` on the nearest multiple of `step`.
    static func onStep(_ time: MediaTime, _ step: MediaTime) -> MediaTime {
        guard step > .zero, let steps = time.scaled(by: step.timescale, step.value)?.rounded(toTimescale: 1) else { return time }
        return MediaTime(value: steps * step.value, timescale: step.timescale) ?? time
    }

    /// Numbers cues 1, 2, 3… again when every identifier is a number (SRT's, or none), so that
    /// removed, reordered, split and merged cues leave no holes or disorder.
    private func renumber(_ document: inout TimedTextDocument) {
        guard document.cues.allSatisfy({ $0.id.isEmpty || $0.id.allSatisfy(\.isASCIIDigit) }),
            document.cues.contains(where: { !$0.id.isEmpty })
        else { return }
        for index in document.cues.indices { document.cues[index].id = String(index + 1) }
    }

    private func removeEmpty(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        document.cues.removeAll { cue in
            guard cue.plainText.allSatisfy(\.isWhitespace) else { return false }
            changes.append(FixChange(code: "fix.cue.removed", message: "\(Self.name(cue)): removed (no text)", location: cue.location))
            return true
        }
    }

    private func reorder(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        let sorted = document.cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        let moved = sorted.enumerated().filter { $0.offset != $0.element.offset }.count
        guard moved > 0 else { return }
        document.cues = sorted.map(\.element)
        changes.append(FixChange(code: "fix.cue.reordered", message: "\(moved) cues moved into time order", location: nil))
    }

    /// Re-breaks cues over the line limits; a cue whose text needs more lines is split in time in
    /// proportion to its text, when each part keeps the minimum duration.
    private func rewrap(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        let context = checker.context(for: document)
        guard let maxLength = context.limits.maxLineLength else { return }
        let balancer = LineBalancer(maxLength: maxLength, maxLines: context.limits.maxLines ?? 2)
        var result: [Cue] = []
        result.reserveCapacity(document.cues.count)
        for (index, cue) in document.cues.enumerated() {
            let facts = context.facts[index]
            let tooLong = facts.longestLine > maxLength
            let tooMany = context.limits.maxLines.map { facts.lineCount > $0 } ?? false
            guard tooLong || tooMany, let shape = PlainShape(cue), !shape.isDialogue else {
                result.append(cue)
                continue
            }
            let words = TextWords.of(shape.text)
            if let lines = balancer.lines(for: words) {
                var rewrapped = cue
                rewrapped.content = shape.rebuild(lines.joined(separator: "\n"))
                result.append(rewrapped)
                changes.append(FixChange(
                    code: "fix.lines.rewrapped", message: "\(Self.name(cue)): lines re-broken as \(lines.map(\.count))", location: cue.location))
                continue
            }
            guard let end = cue.end, !context.shownTogether.contains(index), let groups = balancer.groups(for: words, limit: 4) else {
                result.append(cue)
                continue
            }
            let weights = groups.map { Int64($0.reduce(0) { $0 + $1.count + 1 }) }
            let total = weights.reduce(0, +)
            let minimum = context.time(context.limits.minDuration) ?? .zero
            var pieces: [Cue] = []
            var done: Int64 = 0
            for (number, group) in groups.enumerated() {
                var piece = cue
                piece.start = cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
                done += weights[number]
                piece.end = number == groups.count - 1 ? end : cue.start + ((end - cue.start).scaled(by: done, total) ?? .zero)
                piece.content = shape.rebuild((balancer.lines(for: group) ?? []).joined(separator: "\n"))
                // A number stays a number (all are numbered again at the end); a name gets `-2`…
                if !cue.id.isEmpty, number > 0, !cue.id.allSatisfy(\.isASCIIDigit) { piece.id = "\(cue.id)-\(number + 1)" }
                pieces.append(piece)
            }
            guard pieces.allSatisfy({ ($0.end ?? $0.start) - $0.start + context.slack >= minimum }) else {
                result.append(cue)
                continue
            }
            result += pieces
            changes.append(FixChange(
                code: "fix.cue.split", message: "\(Self.name(cue)): split into \(pieces.count) cues to fit the line limits",
                location: cue.location))
        }
        document.cues = result
    }

    /// Merges a cue that still reads too fast with the next one when the two together fit the
    /// line limits, the maximum duration and the reading speed.
    private func mergeFastCues(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        let context = checker.context(for: document)
        guard let limit = context.limits.readingSpeed else { return }
        let cues = document.cues
        let balancer = LineBalancer(maxLength: context.limits.maxLineLength ?? .max, maxLines: context.limits.maxLines ?? .max)
        var result: [Cue] = []
        result.reserveCapacity(cues.count)
        var index = 0
        while index < cues.count {
            // One pass, each cue merged at most once (the fixer's next pass may merge again).
            if index + 1 < cues.count, let (merged, grows) = merged(index, in: context, limit: limit, balancer: balancer) {
                let how = grows ? "replaced by the next cue, which repeats its text and goes on," : "merged with the next cue"
                changes.append(FixChange(
                    code: "fix.cue.merged", message: "\(Self.name(cues[index])): \(how) to read in time",
                    location: cues[index].location))
                result.append(merged)
                index += 2
            } else {
                result.append(cues[index])
                index += 1
            }
        }
        if result.count != cues.count { document.cues = result }
    }

    /// Cue `index` merged with the next, when it reads too fast alone and the two together fit
    /// the line limits, the maximum duration and the reading speed. Where the next cue's words
    /// begin with all of this one's (paint-on and roll-up captions grow a word at a time: "I",
    /// then "I think"), the merged cue holds the next one's words, shown from this one's start
    /// (`grows`); putting both texts together would say "I I think".
    private func merged(
        _ index: Int, in context: QualityContext, limit: QualityProfile.ReadingSpeed, balancer: LineBalancer
    ) -> (cue: Cue, grows: Bool)? {
        let cues = context.cues
        guard !context.shownTogether.contains(index), !context.shownTogether.contains(index + 1),
            let speed = context.readingSpeed(of: index), speed.rate > limit.max,
            let first = PlainShape(cues[index]), let second = PlainShape(cues[index + 1]),
            first.matches(second), !first.isDialogue, !second.isDialogue,
            let end = cues[index + 1].end, cues[index + 1].start >= cues[index].start
        else { return nil }
        if let maximum = context.time(context.limits.maxDuration), end - cues[index].start > maximum + context.slack { return nil }
        let (firstWords, secondWords) = (TextWords.of(first.text), TextWords.of(second.text))
        let grows = secondWords.starts(with: firstWords)
        guard let lines = balancer.lines(for: grows ? secondWords : firstWords + secondWords) else { return nil }
        var merged = cues[index]
        merged.end = end
        merged.content = first.rebuild(lines.joined(separator: "\n"))
        let trial = QualityContext(
            profile: context.profile, language: nil, frameRate: context.frameRate, shotChanges: [], cues: [merged])
        guard let rate = trial.readingSpeedLimited(of: 0, by: limit), rate <= limit.max else { return nil }
        return (merged, grows)
    }

    /// `cue at 00:01:02.000`.
    static func name(_ cue: Cue) -> String { "cue at \(QualityContext.clock(cue.start))" }
}

/// A cue's text when it is plain, or plain inside one span (a voice, whole-cue italics), with the
/// way to put re-broken text back into the same span.
struct PlainShape {
    let text: String
    private let wrapper: Span?

    init?(_ cue: Cue) {
        var nodes = cue.content
        var wrapper: Span?
        if nodes.count == 1, case .span(let span) = nodes[0], span.kind != .ruby, span.kind != .rubyText {
            wrapper = span
            nodes = span.children
        }
        var text = ""
        for node in nodes {
            guard case .text(let part) = node else { return nil }
            text += part
        }
        self.text = text
        self.wrapper = wrapper
    }

    /// Lines that each start with a dash: two speakers in one cue, whose lines must stay apart.
    var isDialogue: Bool {
        let lines = text.split(separator: "\n")
        return lines.count > 1 && lines.allSatisfy { $0.hasPrefix("-") || $0.hasPrefix("–") || $0.hasPrefix("—") }
    }

    /// Whether two cues' text sits in the same kind of span (so that it can be merged).
    func matches(_ other: PlainShape) -> Bool {
        switch (wrapper, other.wrapper) {
        case (nil, nil): true
        case (let first?, let second?): first.kind == second.kind && first.classes == second.classes && first.annotation == second.annotation
        default: false
        }
    }

    /// The nodes for new text in the same span.
    func rebuild(_ text: String) -> [InlineNode] {
        guard var wrapper else { return [.text(text)] }
        wrapper.children = [.text(text)]
        return [.span(wrapper)]
    }
}

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
        var failed = FailedRepairs()
        return fix(document, remembering: &failed)
    }

    /// The document repaired, what changed, and what is left; repairs `failed` holds are not
    /// tried again, and those that fail are added (for another fix of the same file by this fixer).
    public func fix(_ document: TimedTextDocument, remembering failed: inout FailedRepairs) -> QualityFix {
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
            // One measure of the cues serves each step until a step changes them.
            var context = checker.context(for: fixed)
            if profile.allowsFix("lines"), rewrap(&fixed, &changes, &failed, context) { context = checker.context(for: fixed) }
            var timing = TimingRepair(context: context, profile: profile)
            timing.run()
            if !timing.changes.isEmpty {
                fixed.cues = timing.cues
                changes += timing.changes
                context = checker.context(for: fixed)
            }
            if profile.allowsFix("readingSpeed") { mergeFastCues(&fixed, &changes, &failed, context) }
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
        // That the file holds no cues is not one: the output holds none either (an empty file
        // was "1 change" at every fix).
        let empty = fixed.cues.isEmpty
        let ignored = fixed.diagnostics.filter { diagnostic in
            let code = diagnostic.code.rawValue
            let saysEmpty = code.hasSuffix(".empty") || code.hasSuffix(".captions.none") || code.hasSuffix(".tti.none")
            return diagnostic.severity == .warning && !(empty && saysEmpty)
        }
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
        guard document.cues.allSatisfy({ $0.id.isEmpty || $0.id.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            document.cues.contains(where: { !$0.id.isEmpty })
        else { return }
        for index in document.cues.indices { document.cues[index].id = String(index + 1) }
    }

    private func removeEmpty(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        document.cues.removeAll { cue in
            guard cue.plainText.allSatisfy({ $0.isWhitespace }) else { return false }
            changes.append(FixChange(code: "fix.cue.removed", message: "\(Self.name(cue)): removed (no text)", location: cue.location))
            return true
        }
    }

    private func reorder(_ document: inout TimedTextDocument, _ changes: inout [FixChange]) {
        let cues = document.cues
        guard cues.indices.dropFirst().contains(where: { cues[$0].start < cues[$0 - 1].start }) else { return }
        let sorted = document.cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        let moved = sorted.enumerated().filter { $0.offset != $0.element.offset }.count
        guard moved > 0 else { return }
        document.cues = sorted.map(\.element)
        changes.append(FixChange(code: "fix.cue.reordered", message: "\(moved) cues moved into time order", location: nil))
    }

    /// Re-breaks cues over the line limits; a cue whose text needs more lines is split in time in
    /// proportion to its text, when each part keeps the minimum duration. Whether any changed.
    private func rewrap(
        _ document: inout TimedTextDocument, _ changes: inout [FixChange], _ failed: inout FailedRepairs, _ context: QualityContext
    ) -> Bool {
        guard let maxLength = context.limits.maxLineLength else { return false }
        let balancer = LineBalancer(maxLength: maxLength, maxLines: context.limits.maxLines ?? 2)
        var edits = CueEdits(context.cues)
        for (index, cue) in context.cues.enumerated() {
            let facts = context.facts[index]
            let tooLong = facts.longestLine > maxLength
            let tooMany = context.limits.maxLines.map { facts.lineCount > $0 } ?? false
            guard tooLong || tooMany else {
                edits.keep()
                continue
            }
            let key = FailedRepairs.Key(cue)
            guard !failed.rewraps.contains(key), let shape = PlainShape(cue), !shape.isDialogue else {
                failed.rewraps.insert(key)
                edits.keep()
                continue
            }
            let words = TextWords.of(shape.text)
            if let lines = balancer.lines(for: words) {
                var rewrapped = cue
                rewrapped.content = shape.rebuild(lines.joined(separator: "\n"))
                edits.replace(1, with: [rewrapped])
                changes.append(FixChange(
                    code: "fix.lines.rewrapped", message: "\(Self.name(cue)): lines re-broken as \(lines.map(\.count))", location: cue.location))
                continue
            }
            guard !context.shownTogether.contains(index) else {
                edits.keep()
                continue
            }
            guard let end = cue.end, let groups = balancer.groups(for: words, limit: 4) else {
                failed.rewraps.insert(key)
                edits.keep()
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
                failed.rewraps.insert(key)
                edits.keep()
                continue
            }
            edits.replace(1, with: pieces)
            changes.append(FixChange(
                code: "fix.cue.split", message: "\(Self.name(cue)): split into \(pieces.count) cues to fit the line limits",
                location: cue.location))
        }
        guard let cues = edits.result else { return false }
        document.cues = cues
        return true
    }

    /// Merges a cue that still reads too fast with the next one when the two together fit the
    /// line limits, the maximum duration and the reading speed.
    private func mergeFastCues(
        _ document: inout TimedTextDocument, _ changes: inout [FixChange], _ failed: inout FailedRepairs, _ context: QualityContext
    ) {
        guard let limit = context.limits.readingSpeed else { return }
        let cues = context.cues
        let balancer = LineBalancer(maxLength: context.limits.maxLineLength ?? .max, maxLines: context.limits.maxLines ?? .max)
        var edits = CueEdits(cues)
        var index = 0
        while index < cues.count {
            // One pass, each cue merged at most once (the fixer's next pass may merge again).
            if index + 1 < cues.count, let (merged, grows) = merged(index, in: context, limit: limit, balancer: balancer, failed: &failed) {
                let how = grows ? "replaced by the next cue, which repeats its text and goes on," : "merged with the next cue"
                changes.append(FixChange(
                    code: "fix.cue.merged", message: "\(Self.name(cues[index])): \(how) to read in time",
                    location: cues[index].location))
                edits.replace(2, with: [merged])
                index += 2
            } else {
                edits.keep()
                index += 1
            }
        }
        if let merged = edits.result { document.cues = merged }
    }

    /// Cue `index` merged with the next, when it reads too fast alone and the two together fit
    /// the line limits, the maximum duration and the reading speed. Where the next cue's words
    /// begin with all of this one's (paint-on and roll-up captions grow a word at a time: "I",
    /// then "I think"), the merged cue holds the next one's words, shown from this one's start
    /// (`grows`); putting both texts together would say "I I think".
    private func merged(
        _ index: Int, in context: QualityContext, limit: QualityProfile.ReadingSpeed, balancer: LineBalancer,
        failed: inout FailedRepairs
    ) -> (cue: Cue, grows: Bool)? {
        let cues = context.cues
        // The cheap tests first: most cues that read too fast cannot be merged.
        guard let speed = context.readingSpeed(of: index), speed.rate > limit.max,
            !context.shownTogether.contains(index), !context.shownTogether.contains(index + 1),
            let end = cues[index + 1].end, cues[index + 1].start >= cues[index].start
        else { return nil }
        if let maximum = context.time(context.limits.maxDuration), end - cues[index].start > maximum + context.slack { return nil }
        // The rest depends only on the two cues' text and times.
        let pair = FailedRepairs.Pair(first: FailedRepairs.Key(cues[index]), second: FailedRepairs.Key(cues[index + 1]))
        guard !failed.merges.contains(pair) else { return nil }
        guard let (cue, grows) = merged(cues[index], cues[index + 1], in: context, limit: limit, balancer: balancer) else {
            failed.merges.insert(pair)
            return nil
        }
        return (cue, grows)
    }

    /// `first` merged with `second`, when the two together fit the line limits and the reading speed.
    private func merged(
        _ first: Cue, _ second: Cue, in context: QualityContext, limit: QualityProfile.ReadingSpeed, balancer: LineBalancer
    ) -> (cue: Cue, grows: Bool)? {
        guard let end = second.end, let firstShape = PlainShape(first), let secondShape = PlainShape(second),
            firstShape.matches(secondShape), !firstShape.isDialogue, !secondShape.isDialogue
        else { return nil }
        let (firstWords, secondWords) = (TextWords.of(firstShape.text), TextWords.of(secondShape.text))
        let grows = secondWords.starts(with: firstWords)
        guard let lines = balancer.lines(for: grows ? secondWords : firstWords + secondWords) else { return nil }
        var merged = first
        merged.end = end
        merged.content = firstShape.rebuild(lines.joined(separator: "\n"))
        guard let rate = QualityContext.readingSpeed(of: merged, by: limit), rate <= limit.max else { return nil }
        return (merged, grows)
    }

    /// `cue at 00:01:02.000`.
    static func name(_ cue: Cue) -> String { "cue at \(QualityContext.clock(cue.start))" }
}

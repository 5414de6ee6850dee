import CaptionsCore

/// What every rule sees: the cues with their measured text, the profile's limits for the
/// document's language turned into times at the frame rate in use, and the shot changes.
public struct QualityContext: Sendable {
    /// The profile.
    public let profile: QualityProfile
    /// Its limits for the document's language.
    public let limits: QualityProfile.Limits
    /// The frame rate frame counts are measured in.
    public let frameRate: FrameRate
    /// Shot changes, sorted (empty when none are known).
    public let shotChanges: [MediaTime]
    /// The cues, in document order.
    public let cues: [Cue]
    /// Each cue's text measured once.
    let facts: [CueFacts]
    /// What the reader noticed.
    let readerDiagnostics: [Diagnostic]
    /// The cue indices in time order (by start; file order among equal starts).
    let timeOrder: [Int]
    /// Cues shown together with another placed elsewhere (same start, different position: two
    /// speakers at the top and bottom of the picture). They are not overlaps, and `fix` leaves
    /// their timing alone, since moving one would part them.
    let shownTogether: Set<Int>

    /// Formats quantise times to the millisecond (SRT, WebVTT), the hundredth (ASS) or a frame
    /// (SCC, EBU STL); a limit is met when it is met within the file's time step (at least 1 ms),
    /// so that 20 frames written as 00:00:00,833 meet "5/6 s", and a two-frame gap at 23.976
    /// (83.4 ms) written in ASS as 0.08 s or 0.09 s is neither short nor closable.
    let slack: MediaTime
    /// The latest time the output can hold (``QualityChecker/latestTime``).
    let latestTime: MediaTime?
    /// ``slack`` in nanoseconds.
    let slackNanoseconds: Int64
    /// The least slack: a millisecond.
    public static let minimumSlack = MediaTime(milliseconds: 1)

    /// A profile duration in nanoseconds at the frame rate in use.
    func nanoseconds(_ duration: ProfileDuration?) -> Int64? { time(duration).map(CueFacts.nanoseconds) }

    init(
        profile: QualityProfile, language: String?, frameRate: FrameRate, shotChanges: [MediaTime], cues: [Cue],
        readerDiagnostics: [Diagnostic] = [], timeStep: MediaTime = minimumSlack, formatLineLength: Int? = nil,
        latestTime: MediaTime? = nil
    ) {
        self.latestTime = latestTime
        slack = max(timeStep, Self.minimumSlack)
        slackNanoseconds = CueFacts.nanoseconds(slack)
        self.readerDiagnostics = readerDiagnostics
        self.profile = profile
        var limits = profile.limits(forLanguage: language)
        if let formatLineLength { limits.maxLineLength = min(limits.maxLineLength ?? .max, formatLineLength) }
        self.limits = limits
        self.frameRate = frameRate
        self.shotChanges = shotChanges.sorted()
        self.cues = cues
        let counting = limits.readingSpeed
        // Measuring the text is most of a check: on two cores, two halves at once.
        let pieces = ParallelWork.ranges(of: cues.count, minimum: 20_000)
        facts = ParallelWork.map(pieces.count) { piece in pieces[piece].map { CueFacts(cues[$0], counting: counting) } }.flatMap { $0 }
        var ordered = true
        for index in cues.indices.dropFirst() where cues[index].start < cues[index - 1].start {
            ordered = false
            break
        }
        timeOrder = ordered ? Array(cues.indices) : cues.indices.sorted { (cues[$0].start, $0) < (cues[$1].start, $1) }
        var together = Set<Int>()
        var groupStart = 0
        let order = timeOrder
        for position in order.indices {
            let next = position + 1
            guard next == order.count || cues[order[next]].start != cues[order[position]].start else { continue }
            let group = order[groupStart...position]
            if group.count > 1, Set(group.map { cues[$0].settings }).count > 1 { together.formUnion(group) }
            groupStart = next
        }
        shownTogether = together
    }

    /// A profile duration at the frame rate in use.
    public func time(_ duration: ProfileDuration?) -> MediaTime? { duration?.time(at: frameRate) }

    /// A span as people read it: `0.250s (6 frames)`.
    func describe(_ time: MediaTime) -> String { describe(nanoseconds: CueFacts.nanoseconds(time)) }

    /// A span in nanoseconds as people read it.
    func describe(nanoseconds: Int64) -> String {
        var text = MessageText()
        describe(nanoseconds: nanoseconds, into: &text)
        return text.take()
    }

    /// Appends a span in nanoseconds as people read it to `text`.
    func describe(nanoseconds: Int64, into text: inout MessageText) {
        let frames = Int64((Double(nanoseconds) / 1e9 * Double(frameRate.numerator) / Double(frameRate.denominator)).rounded())
        text.appendSeconds(milliseconds: Int64((Double(nanoseconds) / 1e6).rounded()))
        text.append(" (")
        text.append(frames)
        text.append(frames == 1 ? " frame)" : " frames)")
    }

    /// `HH:MM:SS.mmm`.
    static func clock(_ time: MediaTime) -> String {
        ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ".")
    }

    /// The text limit on reading speed for a cue: the rate it reads at and whether it is over.
    func readingSpeed(of index: Int) -> (rate: Double, limit: QualityProfile.ReadingSpeed)? {
        guard let limit = limits.readingSpeed, facts[index].end != .max else { return nil }
        let seconds = Double(facts[index].end - facts[index].start) / 1e9
        guard seconds > 0 else { return nil }
        let amount = limit.unit == .characters ? Double(facts[index].readingCharacters) : Double(facts[index].words) * 60
        return (amount / seconds, limit)
    }

    /// The rate `cue` reads at, counted by `limit`'s rules (for a trial cue measured with the
    /// language's limits already chosen).
    static func readingSpeed(of cue: Cue, by limit: QualityProfile.ReadingSpeed) -> Double? {
        let measured = CueFacts(cue, counting: limit)
        guard measured.end != .max, measured.end > measured.start else { return nil }
        let amount = limit.unit == .characters ? Double(measured.readingCharacters) : Double(measured.words) * 60
        return amount / (Double(measured.end - measured.start) / 1e9)
    }

    /// The shortest time a cue's text needs at the profile's reading speed (exact to the millisecond, rounded up).
    func readingTime(of index: Int) -> MediaTime? {
        guard let limit = limits.readingSpeed, limit.max > 0 else { return nil }
        let amount = limit.unit == .characters ? Double(facts[index].readingCharacters) : Double(facts[index].words) * 60
        return MediaTime(milliseconds: Int64((amount / limit.max * 1000).rounded(.up)))
    }
}

/// Collects findings, giving each the profile's severity for its code and saying whether `fix`
/// repairs it.
struct FindingSink {
    let context: QualityContext
    private(set) var findings: [QualityFinding] = []
    /// The last code's severity and repair, as the profile has them (a rule gives one code many
    /// times in a row; the profile's tables are looked up by string).
    private var last: (code: Diagnostic.Code, fallback: Diagnostic.Severity, repair: String?, severity: Diagnostic.Severity, fixable: Bool)?
    /// The message being written.
    private var text = MessageText()

    init(context: QualityContext) {
        self.context = context
    }

    /// A finding about cue `index`; `repair` names the `fix` repair kind that handles it, if any.
    mutating func add(
        _ code: Diagnostic.Code, _ severity: Diagnostic.Severity, _ message: String, cue index: Int, repair: String?,
        at location: SourceLocation? = nil
    ) {
        add(code, severity, cue: index, repair: repair, at: location) { $0.append(message) }
    }

    /// A finding about cue `index` whose message `message` appends to the text (rules that find
    /// something in every cue of a long file write it in place, without a string of its own).
    mutating func add(
        _ code: Diagnostic.Code, _ severity: Diagnostic.Severity, cue index: Int, repair: String?,
        at location: SourceLocation? = nil, message: (inout MessageText) -> Void
    ) {
        let (start, end, cueLocation) = (context.cues[index].start, context.cues[index].end, context.cues[index].location)
        text.append("cue ")
        text.append(index + 1)
        text.append(" (")
        text.appendClock(start)
        text.append("): ")
        message(&text)
        if last == nil || last!.code != code || last!.fallback != severity || last!.repair != repair {
            last = (
                code, severity, repair, context.profile.severity(of: code, default: severity),
                repair.map { context.profile.allowsFix($0) } ?? false
            )
        }
        let diagnostic = Diagnostic(last!.severity, code, text.take(), at: location ?? cueLocation)
        findings.append(QualityFinding(diagnostic, cueIndex: index, start: start, end: end, fixable: last!.fixable))
    }

    /// A finding the reader made, passed on with its location.
    mutating func add(_ diagnostic: Diagnostic) {
        findings.append(QualityFinding(diagnostic, cueIndex: nil, start: nil, end: nil, fixable: false))
    }
}

/// One check over a document's cues: a small type with its codes, run by ``QualityChecker``.
protocol QualityRule: Sendable {
    /// Adds what the rule finds in `context` to `sink`.
    func check(_ context: QualityContext, into sink: inout FindingSink)
}

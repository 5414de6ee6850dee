/// Drops from a document what a target format cannot carry, and says what was dropped.
///
/// This is the one place where conversion loses information. Each kind of loss becomes one
/// warning with a count and the location of its first occurrence, coded `convert.lost.KIND`.
public struct CapabilityReducer: Sendable {
    /// What the target format carries.
    public var capabilities: FormatCapabilities
    /// The target format's name, for messages.
    public var formatName: String

    /// A reducer for one target format.
    public init(capabilities: FormatCapabilities, formatName: String) {
        self.capabilities = capabilities
        self.formatName = formatName
    }

    /// How long the last cue lasts when it has no end and no cue follows it.
    static let lastOpenCueDuration = MediaTime(seconds: 5)

    /// Reduces the document in place to the capabilities; returns one diagnostic per kind of loss.
    public func reduce(_ reduced: inout TimedTextDocument) -> [Diagnostic] {
        var tally = LossTally()
        if !capabilities.contains(.regions), let first = reduced.regions.first {
            tally.add(.regions, count: reduced.regions.count, at: first.location)
            reduced.regions = []
        }
        if !capabilities.contains(.styleSheets), let first = reduced.styleSheets.first {
            tally.add(.styleSheets, count: reduced.styleSheets.count, at: first.location)
            reduced.styleSheets = []
        }
        if !capabilities.contains(.comments), let first = reduced.comments.first {
            tally.add(.comments, count: reduced.comments.count, at: first.location)
            reduced.comments = []
        }
        if capabilities.contains(.comments), !capabilities.contains(.freeComments) {
            for index in reduced.comments.indices {
                let safe = reduced.comments[index].textForNoteBlock
                guard safe != reduced.comments[index].text else { continue }
                tally.add(.commentText, at: reduced.comments[index].location)
                reduced.comments[index].text = safe
            }
        }
        if !capabilities.contains(.header) {
            // `Kind:` and `Language:` lines are the document's kind and language, carried apart.
            let otherLines = reduced.headerLines.contains { line in
                !["kind", "language"].contains(line.split(separator: ":").first.map { $0.lowercased() } ?? "")
            }
            let keepsTitle = capabilities.contains(.title)
            if otherLines || (!keepsTitle && !reduced.title.isEmpty) { tally.add(.header, count: 1, at: .start) }
            if !keepsTitle { reduced.title = "" }
            reduced.headerLines = []
        }
        if !capabilities.contains(.documentLanguage), reduced.language != nil {
            tally.add(.documentLanguage, at: .start)
        }
        let count = reduced.cues.count
        let ranges = ParallelWork.ranges(of: count, minimum: 20_000)
        // Where cues without an end end, worked out before the pieces change their cues.
        let needsEnds = !capabilities.contains(.openEnds) && reduced.cues.contains { $0.end == nil }
        let laterStarts = needsEnds ? Self.nextLaterStarts(reduced.cues) : []
        let tallies = reduced.cues.withUnsafeMutableBufferPointer { cues in
            nonisolated(unsafe) let cues = cues
            return ParallelWork.map(ranges.count) { piece in
                var pieceTally = LossTally()
                for index in ranges[piece] {
                    reduceCue(&cues[index], number: index + 1, nextStart: needsEnds ? laterStarts[index] : nil, tally: &pieceTally)
                }
                return pieceTally
            }
        }
        for pieceTally in tallies { tally.merge(pieceTally) }
        if !capabilities.contains(.emptyCues) { removeEmptyCues(from: &reduced, tally: &tally) }
        return tally.diagnostics(formatName: formatName)
    }

    /// For each cue, the start of the next cue in the document that starts later than it: cues
    /// that start together stay on screen together. (TTML paragraphs without times all start at 0;
    /// ending each where the next one starts made every one but the last last no time.)
    static func nextLaterStarts(_ cues: [Cue]) -> [MediaTime?] {
        var result = [MediaTime?](repeating: nil, count: cues.count)
        for index in cues.indices.reversed().dropFirst() {
            let next = cues[index + 1].start
            result[index] = next > cues[index].start ? next : result[index + 1]
        }
        return result
    }

    /// How many different speakers the voice spans of `nodes` name (stops counting at two).
    static func speakerCount(_ nodes: [InlineNode]) -> Int {
        var first: String?
        var pending: [ArraySlice<InlineNode>] = [nodes[...]]
        while var level = pending.popLast() {
            while let node = level.popFirst() {
                guard case .span(let span) = node else { continue }
                if span.kind == .voice {
                    let name = span.annotation ?? ""
                    if let first, first != name { return 2 }
                    first = name
                }
                pending.append(level)
                level = span.children[...]
            }
        }
        return first == nil ? 0 : 1
    }

    /// Removes the cues without visible text (only spaces, tabs and line breaks, or nothing) and
    /// those that last no time (a TTML reader shows neither).
    private func removeEmptyCues(from document: inout TimedTextDocument, tally: inout LossTally) {
        func isEmpty(_ cue: Cue) -> Bool {
            cue.plainText.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        }
        func isInstant(_ cue: Cue) -> Bool { cue.end.map { $0 <= cue.start } ?? false }
        for (loss, matches) in [(LossTally.Loss.emptyCues, isEmpty), (.instantCues, isInstant)] {
            guard let first = document.cues.firstIndex(where: matches) else { continue }
            let count = document.cues.count
            tally.add(loss, count: 0, at: document.cues[first].location)
            document.cues.removeAll(where: matches)
            tally.add(loss, count: count - document.cues.count, at: nil)
        }
    }

    private func reduceCue(_ cue: inout Cue, number: Int, nextStart: MediaTime?, tally: inout LossTally) {
        let location = cue.location
        // A number is a sequence number (SRT's, or a WebVTT file's numbered like one): renumbering is no loss.
        if !capabilities.contains(.cueIdentifiers), !cue.id.isEmpty, cue.id != String(number),
            !cue.id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            tally.add(.cueIdentifiers, at: location)
        }
        if cue.end == nil, !capabilities.contains(.openEnds) {
            tally.add(.openEnds, at: location)
            cue.end = max(cue.start, nextStart ?? cue.start + Self.lastOpenCueDuration)
        }
        if !capabilities.contains(.regions), cue.settings.region != nil {
            cue.settings.region = nil
        }
        if cue.settings.vertical != .horizontal, !capabilities.contains(.verticalText),
            !capabilities.isDisjoint(with: [.placement, .numpadPlacement])
        {
            // A line and position across vertical text say nothing about horizontal text.
            tally.add(.verticalText, at: location)
            let region = cue.settings.region
            cue.settings = CueSettings()
            cue.settings.region = region
        }
        if !capabilities.contains(.placement) {
            if capabilities.contains(.numpadPlacement) {
                let snapped = NumpadPosition.nearest(to: cue.settings).settings
                if snapped != cue.settings { tally.add(.placementApproximated, at: location) }
                cue.settings = snapped
            } else if !cue.settings.isDefault {
                tally.add(.placement, at: location)
                cue.settings = CueSettings()
            }
        }
        if capabilities.contains(.voices), !capabilities.contains(.speakersInCue), Self.speakerCount(cue.content) > 1 {
            // A format with one speaker a cue (ASS's Name) names it after the first.
            tally.add(.speakersInCue, at: location)
        }
        if !capabilities.contains(.voices), let speaker = cue.speaker {
            // A speaker held outside the text (TTML's ttm:agent): lost like a voice span, and said so.
            if !speaker.isEmpty, Cue.firstVoice(in: cue.content) == nil { tally.add(.voices, at: location) }
            cue.speaker = nil
        }
        if !capabilities.contains(.controlCharacters), let speaker = cue.speaker,
            let normalized = CueTextSanitizer.normalizedName(speaker)
        {
            tally.add(.names, at: location)
            cue.speaker = normalized
        }
        if needsReduction(cue.content) { cue.content = reduce(cue.content, at: location, tally: &tally) }
        let issues = sanitizer.issues(in: cue.content)
        if !issues.isEmpty {
            cue.content = sanitizer.sanitized(cue.content, fixing: issues)
            if issues.contains(.blankLines) { tally.add(.blankLines, at: location) }
            if issues.contains(.controlCharacters) { tally.add(.controlCharacters, at: location) }
            if issues.contains(.carriageReturns) { tally.add(.carriageReturns, at: location) }
            if issues.contains(.literalMarkup) { tally.add(.literalMarkup, at: location) }
            if issues.contains(.trailingSpaces) { tally.add(.trailingSpaces, at: location) }
        }
    }

    private var sanitizer: CueTextSanitizer { CueTextSanitizer(capabilities: capabilities) }

    /// Whether any node holds something the format cannot carry (checked before rebuilding the tree).
    private func needsReduction(_ nodes: [InlineNode]) -> Bool {
        nodes.contains { node in
            switch node {
            case .text: false
            case .timestamp: !capabilities.contains(.timestamps)
            case .span(let span):
                !capabilities.contains(.controlCharacters) && span.annotation.flatMap(CueTextSanitizer.normalizedName) != nil
                    || !capabilities.contains(.classes) && !span.classes.isEmpty
                    || !capabilities.contains(.colors) && span.style != nil
                    || !carriesKind(of: span) || needsReduction(span.children)
            }
        }
    }

    private func reduce(_ nodes: [InlineNode], at location: SourceLocation?, tally: inout LossTally) -> [InlineNode] {
        var result: [InlineNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text:
                result.append(node)
            case .timestamp:
                if capabilities.contains(.timestamps) { result.append(node) } else { tally.add(.timestamps, at: location) }
            case .span(var span):
                span.children = reduce(span.children, at: location, tally: &tally)
                reduceAttributes(of: &span, at: location, tally: &tally)
                result.append(contentsOf: reduceKind(of: span, at: location, tally: &tally))
            }
        }
        return result
    }

    private func reduceAttributes(of span: inout Span, at location: SourceLocation?, tally: inout LossTally) {
        if !capabilities.contains(.controlCharacters), let annotation = span.annotation,
            let normalized = CueTextSanitizer.normalizedName(annotation)
        {
            tally.add(.names, at: location)
            span.annotation = normalized
        }
        if !capabilities.contains(.classes), !span.classes.isEmpty {
            var kept: [String] = []
            for name in span.classes {
                if capabilities.contains(.colors), span.kind == .class, span.style?.color == nil,
                    let color = RGBAColor.webVTTClass(name)
                {
                    span.style = TextStyle(color: color, backgroundColor: span.style?.backgroundColor)
                } else {
                    kept.append(name)
                }
            }
            if !kept.isEmpty { tally.add(.classes, at: location) }
            span.classes = []
        }
        if !capabilities.contains(.colors), span.style != nil {
            tally.add(.colors, at: location)
            span.style = nil
        }
    }

    /// Whether the format carries spans of this kind (a class span also when it carries a colour).
    private func carriesKind(of span: Span) -> Bool {
        switch span.kind {
        case .italic, .bold, .underline: capabilities.contains(.basicStyles)
        case .voice: capabilities.contains(.voices)
        case .language: capabilities.contains(.languages)
        case .class: capabilities.contains(.classes) || span.style != nil
        case .ruby, .rubyText: capabilities.contains(.ruby)
        }
    }

    /// The span itself, or its children when the format cannot carry its kind.
    private func reduceKind(of span: Span, at location: SourceLocation?, tally: inout LossTally) -> [InlineNode] {
        if carriesKind(of: span) { return [.span(span)] }
        switch span.kind {
        case .ruby:
            let base = span.children.filter {
                if case .span(let child) = $0, child.kind == .rubyText { return false }
                return true
            }
            if base.count != span.children.count { tally.add(.ruby, at: location) }
            return base
        case .rubyText:
            tally.add(.ruby, at: location)
            return []
        case .italic, .bold, .underline: tally.add(.basicStyles, at: location)
        case .voice: tally.add(.voices, at: location)
        case .language: tally.add(.languages, at: location)
        case .class: break
        }
        return span.children
    }
}

/// Counts losses by kind, remembering where each kind first happened.
private struct LossTally {
    enum Loss: String, CaseIterable {
        case regions, styleSheets, comments, commentText, header, speakersInCue, cueIdentifiers, openEnds, placement, placementApproximated, verticalText, documentLanguage
        case voices, classes, basicStyles, colors, ruby, timestamps, languages, blankLines
        case controlCharacters, carriageReturns, literalMarkup, trailingSpaces, names, emptyCues, instantCues

        /// Changes nobody would miss are notes; losses are warnings.
        var severity: Diagnostic.Severity {
            switch self {
            case .carriageReturns, .trailingSpaces, .names, .documentLanguage: .note
            default: .warning
            }
        }

        /// What the format cannot carry, and what happened to it.
        var description: (what: String, outcome: String) {
            switch self {
            case .regions: ("regions", "dropped")
            case .styleSheets: ("STYLE blocks", "dropped")
            case .comments: ("comments (NOTE blocks)", "dropped")
            case .commentText: ("comments with empty lines or '-->'", "written without the empty lines, with an invisible U+200B inside '-->'")
            case .header: ("header text", "dropped")
            case .cueIdentifiers: ("cue identifiers", "replaced by numbers")
            case .openEnds: ("cues without an end time", "now end where a later cue starts (the last ones after 5 s)")
            case .placement: ("cue positions", "dropped")
            case .placementApproximated: ("exact cue positions", "moved to the nearest of nine screen positions")
            case .verticalText: ("vertical text", "written horizontally, at the default place")
            case .documentLanguage: ("the file's language", "not written (checks of the output take it from --language)")
            case .voices: ("voice spans (speaker names)", "dropped; --speaker-prefix writes names into the text")
            case .speakersInCue: ("more than one speaker in a cue", "named after the first speaker only; --speaker-prefix writes every name into the text")
            case .classes: ("class names", "dropped")
            case .basicStyles: ("italic, bold or underline", "dropped")
            case .colors: ("text colours", "dropped")
            case .ruby: ("ruby annotations", "dropped")
            case .timestamps: ("karaoke timestamps", "dropped")
            case .languages: ("language spans", "dropped")
            case .blankLines: ("empty lines in cue text", "removed, the lines around them kept (an empty line ends a cue in this format, or cannot be written)")
            case .controlCharacters: ("control characters (U+0000–U+001F but tab and line feed, U+FFFE, U+FFFF)", "removed")
            case .carriageReturns: ("carriage returns inside cue text", "written as line breaks")
            case .literalMarkup: (
                    "text that reads as a tag or a timing line (<i>, {\\an8}, 0:06 -> 0:09)",
                    "written with an invisible U+200B in it so that it stays text")
            case .trailingSpaces: ("spaces at the end of a line", "removed")
            case .emptyCues: ("cues without text", "dropped")
            case .instantCues: ("cues that end when (or before) they start", "dropped")
            case .names: ("line breaks, runs of spaces or control characters in speaker names", "written as single spaces")
            }
        }
    }

    private var counts: [Loss: (count: Int, first: SourceLocation?)] = [:]

    mutating func add(_ loss: Loss, count: Int = 1, at location: SourceLocation?) {
        let previous = counts[loss]
        counts[loss] = ((previous?.count ?? 0) + count, previous == nil ? location : previous?.first)
    }

    /// Adds the losses of a later piece of the document: counts add up, first places stay.
    mutating func merge(_ other: LossTally) {
        for (loss, entry) in other.counts {
            let previous = counts[loss]
            counts[loss] = ((previous?.count ?? 0) + entry.count, previous == nil ? entry.first : previous?.first)
        }
    }

    func diagnostics(formatName: String) -> [Diagnostic] {
        Loss.allCases.compactMap { loss in
            guard let entry = counts[loss] else { return nil }
            let (what, outcome) = loss.description
            return Diagnostic(
                loss.severity, Diagnostic.Code(rawValue: "convert.lost.\(loss.rawValue)"),
                "\(formatName) cannot carry \(what): \(entry.count) \(outcome)", at: entry.first)
        }
    }
}

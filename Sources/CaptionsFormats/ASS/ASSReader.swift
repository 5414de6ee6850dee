import CaptionsCore

/// Reads Advanced SubStation Alpha (`.ass`) and SubStation Alpha (`.ssa`): the `[Events]`
/// section's `Dialogue` lines, with the columns its `Format` line names. Each cue takes its
/// style's italic, bold, underline, colour and alignment, its text's overrides
/// (``ASSTextParser``), and its `Name` as the speaker. `Comment` lines are not shown and are left
/// out; so are layers, effects and margins (reported once).
public struct ASSReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Parses an ASS or SSA file. One whose `[Events]` section has a `Format` line and no
    /// `Dialogue` line is a script without cues (how ASS writes one: ours and Aegisub's), read with
    /// a warning; throws `ass.cues.none` when there is no such section either, and `ass.header.missing`
    /// for `Dialogue` lines outside any section (a piece of a script without its header).
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "ass")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "ass")
        var section = ""
        var styleColumns: [String] = []
        var eventColumns = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        var styles: [String: Style] = [:]
        // `\n`: a line break in SSA; in ASS only under WrapStyle 2, a space otherwise (as libass).
        var wrapStyle = ""
        var isSSA = false
        var dropped: Set<String> = []
        var firstDrop: SourceLocation?
        var drawings: (count: Int, first: SourceLocation?) = (0, nil)
        var carried: SourceLocation?
        // The first Dialogue line read before any events Format line (with ASS's usual columns).
        var assumedColumns: SourceLocation?
        // The first time written H:MM:SS:cc.
        var colonFraction: SourceLocation?
        var eventsFormat: SourceLocation?
        // A Dialogue line in no `[Events]` section: a piece of a script cut from its header.
        var headless: SourceLocation?
        for (index, rawLine) in text.lines.enumerated() {
            let line = rawLine.trimmedSpaces
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.dropFirst().dropLast().lowercased()
                continue
            }
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(";") else { continue }
            let key = line[..<colon].trimmedSpaces.lowercased()
            let value = line[line.index(after: colon)...].trimmedSpaces
            switch (section, key) {
            case ("script info", "wrapstyle"):
                wrapStyle = String(value)
            case ("script info", "scripttype"):
                isSSA = !value.lowercased().hasSuffix("+")
            case ("script info", "title"):
                document.title = String(value)
            case (_, "format") where section.hasSuffix("styles"):
                if section == "v4 styles" { isSSA = true }
                styleColumns = value.split(separator: ",").map { $0.trimmedSpaces.lowercased() }
            case (_, "style") where section.hasSuffix("styles"):
                let fields = Self.fields(value, count: styleColumns.count)
                let style = Style(columns: styleColumns, fields: fields, legacyAlignment: section == "v4 styles")
                styles[style.name] = style
            case ("events", "format"):
                eventsFormat = eventsFormat ?? TextLines.location(index)
                eventColumns = value.split(separator: ",").map { $0.trimmedSpaces.lowercased() }
            case ("", "dialogue"):
                headless = headless ?? TextLines.location(index)
            case ("events", "dialogue"):
                if eventsFormat == nil, assumedColumns == nil { assumedColumns = TextLines.location(index) }
                let fields = Self.fields(value, count: eventColumns.count)
                func field(_ name: String) -> Substring? { eventColumns.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0] : nil } }
                let location = TextLines.location(index)
                let times = (field("start").flatMap(Self.time), field("end").flatMap(Self.time))
                guard let (start, startColon, startCarried) = times.0, let (end, endColon, endCarried) = times.1 else {
                    document.diagnostics.append(Diagnostic(
                        .warning, "ass.time.malformed", "a Dialogue line whose times are not H:MM:SS.cc; skipped", at: location))
                    continue
                }
                if startColon || endColon { colonFraction = colonFraction ?? location }
                if startCarried || endCarried { carried = carried ?? location }
                let style = field("style").flatMap { styles[String($0.trimmingPrefix("*"))] } ?? styles["Default"] ?? Style()
                var parser = ASSTextParser(base: style.state, softBreaks: isSSA || wrapStyle == "2")
                let content = parser.parse(field("text") ?? "")
                if parser.drewShapes {
                    drawings.count += 1
                    drawings.first = drawings.first ?? location
                    // A line that only draws (a box behind a sign, a logo) has nothing to read.
                    if content.allSatisfy({ $0.plainText.allSatisfy(\.isWhitespace) }) { continue }
                }
                if !parser.dropped.isEmpty, firstDrop == nil { firstDrop = location }
                dropped.formUnion(parser.dropped)
                let position = parser.position ?? style.position
                if end < start { document.diagnostics.append(TextLines.endBeforeStart(codePrefix: "ass", at: location)) }
                var cue = Cue(start: start, end: max(start, end), settings: position.settings, content: content, location: location)
                if let name = field("name")?.trimmedSpaces, !name.isEmpty { cue.speaker = String(name) }
                document.cues.append(cue)
            default:
                continue
            }
        }
        if document.cues.isEmpty {
            if let headless {
                throw CaptionsError(
                    "ass.header.missing",
                    "Dialogue lines without the script's [Script Info] and [Events] sections: a piece of an ASS/SSA script, whose columns only its [Events] Format line names",
                    at: headless)
            }
            guard let eventsFormat else {
                throw CaptionsError("ass.cues.none", "no Dialogue line found in an [Events] section", at: .start)
            }
            document.diagnostics.append(Diagnostic(.warning, "ass.empty", "the [Events] section holds no Dialogue line: no cues", at: eventsFormat))
        }
        if let first = drawings.first {
            document.diagnostics.append(Diagnostic(
                .warning, "ass.drawing.dropped",
                "\(drawings.count) Dialogue line\(drawings.count == 1 ? "" : "s") drawing shapes (\\p1…\\p0): the drawings left out "
                    + "(vector shapes, not text), and the lines with no text but them", at: first))
        }
        if let assumedColumns {
            document.diagnostics.append(Diagnostic(
                .note, "ass.format.assumed",
                "Dialogue lines before any [Events] Format line read with ASS's usual columns (Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text)",
                at: assumedColumns))
        }
        if let carried {
            document.diagnostics.append(Diagnostic(
                .warning, "ass.time.carried",
                "times with minutes or seconds past 59 read with them carried over (0:01:75.00 as 0:02:15.00), as libass and FFmpeg read them",
                at: carried))
        }
        if let colonFraction {
            document.diagnostics.append(Diagnostic(
                .note, "ass.time.colon", "times written H:MM:SS:cc read as H:MM:SS.cc (centiseconds after a colon)",
                at: colonFraction))
        }
        if let firstDrop {
            // Where the text is, and whether it is seen at all, matter more than its font: a
            // position or a transparency dropped is a warning, as SRT's `srt.tag.override` is.
            let seen: Set<String> = ["pos", "move", "org", "clip", "iclip", "alpha", "1a", "2a", "3a", "4a", "fad", "fade"]
            document.diagnostics.append(Diagnostic(
                dropped.isDisjoint(with: seen) ? .note : .warning, "ass.override.dropped",
                "override tags with no equivalent left out: \(dropped.sorted().map { "\\" + $0 }.joined(separator: ", "))",
                at: firstDrop))
        }
        document.cues.sort { $0.start < $1.start }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// Whether a file's first line opens an ASS/SSA script, or a piece of one: a section header
    /// (`[Script Info]`, a styles section, `[Events]`), a `Dialogue` line or an events `Format` line.
    static func recognises(_ firstLine: Substring) -> Bool {
        let line = firstLine.lowercased()
        return ["[script info]", "[v4+ styles]", "[v4 styles]", "[events]", "dialogue:", "format:"].contains { line.hasPrefix($0) }
    }

    /// The first `count - 1` comma-separated fields, and the rest of the line as the last (text may
    /// hold commas).
    static func fields(_ value: Substring, count: Int) -> [Substring] {
        value.split(separator: ",", maxSplits: max(count - 1, 0), omittingEmptySubsequences: false)
    }

    /// `H:MM:SS.cc` (centiseconds; more or fewer fraction digits are read as decimals), and
    /// whether the fraction came after a colon instead (`H:MM:SS:cc`, which some writers use and
    /// ExoPlayer reads; libass skips the line). Minutes or seconds past 59 carry over, as libass,
    /// FFmpeg and pysubs2 read them (`0:01:75.00` is 2:15), and `carried` says so.
    static func time(_ text: Substring) -> (MediaTime, colon: Bool, carried: Bool)? {
        if let time = TextLines.clockTime(text, strictWidths: false) { return (time, false, false) }
        if let time = TextLines.clockTime(text, strictWidths: false, carrying: true) { return (time, false, true) }
        let text = text.trimmedSpaces
        guard text.count(where: { $0 == ":" }) == 3, let last = text.lastIndex(of: ":"), !text[last...].contains("."),
            let time = TextLines.clockTime(text[..<last] + "." + text[text.index(after: last)...], strictWidths: false)
        else { return nil }
        return (time, true, false)
    }

    /// What a cue takes from its style.
    struct Style {
        var name = "Default"
        var state = ASSTextParser.State()
        var position = NumpadPosition.bottomCenter

        init() {}

        init(columns: [String], fields: [Substring], legacyAlignment: Bool) {
            func field(_ name: String) -> Substring? {
                columns.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0].trimmedSpaces : nil }
            }
            name = String(field("name") ?? "Default")
            // -1 is true in ASS; SSA files also write 1.
            func isOn(_ name: String) -> Bool { field(name).flatMap { Int($0) }.map { $0 != 0 } ?? false }
            state.italic = isOn("italic")
            state.bold = isOn("bold")
            state.underline = isOn("underline")
            if let colour = field("primarycolour").flatMap(ASSColor.parse), colour != RGBAColor(red: 255, green: 255, blue: 255) {
                state.color = colour
            }
            if let alignment = field("alignment").flatMap({ Int($0) }) {
                position = (legacyAlignment ? ASSTextParser.legacyPosition(alignment) : NumpadPosition(rawValue: alignment)) ?? .bottomCenter
            }
        }
    }
}

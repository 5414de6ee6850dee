import CaptionsCore

/// Writes WebVTT: header, regions, style sheets, comments in place, cues with every non-default
/// setting, and cue text with voices, classes, ruby, languages and karaoke timestamps. A cue whose
/// speaker is known (from TTML `ttm:agent`, say) but has no voice span is written inside `<v Name>`.
///
/// Output is canonical: blocks separated by one blank line, LF line ends, times as
/// `HH:MM:SS.mmm` rounded to the nearest millisecond (ties away from zero), every span closed.
/// A canonical file read and written again is byte-identical. Colours that are not WebVTT's
/// default colour classes get a `::cue(.color-rrggbb)` rule in a generated `STYLE` block.
public struct WebVTTWriter: TimedTextWriter {
    /// Everything except open-ended cues and blank lines inside cue text.
    public let capabilities = FormatCapabilities.all.subtracting([.openEnds, .blankLinesInText, .controlCharacters, .freeComments])

    /// A writer.
    public init() {}

    /// Reports cue identifiers WebVTT cannot hold as they are (``identifier(_:)``): read back,
    /// such an identifier was lost, and its cue with it when it held `-->`.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        // By index, without copying cues (this runs over every cue of every conversion).
        let changed = document.cues.indices.filter { Self.needsRewriting(document.cues[$0].id) }
        guard let first = changed.first.map({ document.cues[$0] }) else { return [] }
        let count = changed.count == 1 ? "1 cue identifier holds" : "\(changed.count) cue identifiers hold"
        return [Diagnostic(
            .warning, "webvtt.id.changed",
            "\(count) a line break or '-->', which a WebVTT identifier cannot: line breaks written as spaces, '-->' with an invisible U+200B after '--'",
            at: first.location)]
    }

    /// `id` as a WebVTT cue identifier: one line, without `-->`.
    static func identifier(_ id: String) -> String {
        guard needsRewriting(id) else { return id }
        return String(id.map { $0.isNewline ? " " : $0 }).withWebVTTArrowsBroken
    }

    /// Whether `id` holds a line break or `-->`. Bytes first (this runs for every cue): only a line
    /// feed, a carriage return, a '>' or a non-ASCII scalar (U+0085, U+2028, U+2029) can need the
    /// slower look.
    private static func needsRewriting(_ id: String) -> Bool {
        id.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: ">") || $0 >= 0xC2 })
            && (id.contains(where: { $0.isNewline }) || id.containsWebVTTArrow)
    }

    /// Writes the document as WebVTT bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var out = ByteWriter()
        out.write("WEBVTT")
        if !document.title.isEmpty {
            // The header is one line of text: line breaks and other control characters become spaces
            // (a NUL, say, would read back as U+FFFD).
            let scalars = document.title.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }
            out.write(" " + String(String.UnicodeScalarView(scalars)))
        }
        out.write(WebVTTSyntax.lineFeed)
        for line in document.headerLines { out.write(line + "\n") }
        if let language = document.language, !language.isEmpty,
            !document.headerLines.contains(where: { $0.lowercased().hasPrefix("language:") })
        {
            // The document's language from another format (TTML's xml:lang), as the header field
            // the reader takes it from.
            let tag = language.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
            out.write("Language: " + String(String.UnicodeScalarView(tag)) + "\n")
        }
        // A region without an identifier is one no cue can be placed in (a REGION block with none
        // or only invalid settings): written, it was a bare REGION line that readers ignore.
        for region in document.regions where !region.id.isEmpty { writeRegion(region, to: &out) }
        for sheet in document.styleSheets { out.write("\nSTYLE\n" + sheet.text + "\n") }
        let colorRules = customColorRules(document.cues)
        if !colorRules.isEmpty { out.write("\nSTYLE\n" + colorRules.joined(separator: "\n") + "\n") }
        let comments = Dictionary(grouping: document.comments) { min(max($0.beforeCue, 0), document.cues.count) }
        for comment in comments[0] ?? [] { writeComment(comment, to: &out) }
        out.flush(to: emit)
        let cues = document.cues
        ParallelSerialization.write(count: cues.count, state: {}, emit: emit) { index, out, _ in
            if index > 0, !comments.isEmpty { for comment in comments[index] ?? [] { writeComment(comment, to: &out) } }
            writeCue(cues[index], to: &out)
        }
        if !document.cues.isEmpty { for comment in comments[document.cues.count] ?? [] { writeComment(comment, to: &out) } }
        out.flush(to: emit)
    }

    private func writeRegion(_ region: Region, to out: inout ByteWriter) {
        out.write("\nREGION\n")
        var settings: [String] = []
        if !region.id.isEmpty { settings.append("id:" + region.id) }
        if region.width != 100 { settings.append("width:" + percent(region.width)) }
        if region.lines != 3 { settings.append("lines:" + NumberFormatting.shortest(region.lines)) }
        if region.regionAnchorX != 0 || region.regionAnchorY != 100 {
            settings.append("regionanchor:" + percent(region.regionAnchorX) + "," + percent(region.regionAnchorY))
        }
        if region.viewportAnchorX != 0 || region.viewportAnchorY != 100 {
            settings.append("viewportanchor:" + percent(region.viewportAnchorX) + "," + percent(region.viewportAnchorY))
        }
        if region.scroll == .up { settings.append("scroll:up") }
        out.write(settings.joined(separator: "\n") + "\n")
    }

    private func writeComment(_ comment: Comment, to out: inout ByteWriter) {
        let text = comment.textForNoteBlock
        if text.isEmpty {
            out.write("\nNOTE\n")
        } else {
            out.write(text.contains("\n") ? "\nNOTE\n" + text + "\n" : "\nNOTE " + text + "\n")
        }
    }

    private func writeCue(_ cue: Cue, to out: inout ByteWriter) {
        out.write(WebVTTSyntax.lineFeed)
        if !cue.id.isEmpty {
            out.write(Self.identifier(cue.id))
            out.write(WebVTTSyntax.lineFeed)
        }
        out.writeClock(cue.start, fractionSeparator: UInt8(ascii: "."))
        out.write(" --> ")
        out.writeClock(cue.end ?? cue.start, fractionSeparator: UInt8(ascii: "."))
        if !cue.settings.isDefault { out.write(settingsText(cue.settings)) }
        out.write(WebVTTSyntax.lineFeed)
        if let speaker = cue.speaker, !speaker.isEmpty, Cue.firstVoice(in: cue.content) == nil {
            WebVTTCueTextSerializer.append([.span(Span(.voice, annotation: speaker, children: cue.content))], to: &out)
        } else {
            WebVTTCueTextSerializer.append(cue.content, to: &out)
        }
        out.write(WebVTTSyntax.lineFeed)
    }

    private func settingsText(_ settings: CueSettings) -> String {
        var text = ""
        if let region = settings.region { text += " region:" + region }
        if settings.vertical != .horizontal { text += " vertical:" + settings.vertical.rawValue }
        if case .value(let line) = settings.line {
            text += " line:" + (settings.snapToLines ? NumberFormatting.shortest(line) : percent(line))
            if settings.lineAlign != .start { text += "," + settings.lineAlign.rawValue }
        }
        if let position = settings.position {
            text += " position:" + percent(position)
            if settings.positionAlign != .auto { text += "," + settings.positionAlign.rawValue }
        }
        if settings.size != 100 { text += " size:" + percent(settings.size) }
        if settings.align != .center { text += " align:" + settings.align.rawValue }
        return text
    }

    private func percent(_ number: Double) -> String {
        NumberFormatting.shortest(number) + "%"
    }

    /// `::cue(.color-rrggbb) { color: #rrggbb; }` for each colour without a default class, in
    /// order of first use (the cues are searched on every core).
    private func customColorRules(_ cues: [Cue]) -> [String] {
        func collect(_ nodes: [InlineNode], into colors: inout [RGBAColor]) {
            for case .span(let span) in nodes {
                if let color = span.style?.color, color.webVTTClassName == nil, !colors.contains(color) {
                    colors.append(color)
                }
                collect(span.children, into: &colors)
            }
        }
        let ranges = ParallelWork.ranges(of: cues.count, minimum: 20_000)
        let found = ParallelWork.map(ranges.count) { piece in
            var colors: [RGBAColor] = []
            for index in ranges[piece] { collect(cues[index].content, into: &colors) }
            return colors
        }
        var colors: [RGBAColor] = []
        for color in found.joined() where !colors.contains(color) { colors.append(color) }
        return colors.map { color in
            "::cue(.\(WebVTTCueTextSerializer.colorClass(color))) { color: \(color); }"
        }
    }
}

import CaptionsCore

/// Reads Spruce STL (DVD Studio Pro's text `.stl`): `HH:MM:SS:FF , HH:MM:SS:FF , text` lines,
/// `|` between rows, `//` comments and `$Name = value` settings (skipped), 25 frames a second
/// unless `$TimeCodeRate` or `--fps` says otherwise. `^I` `^B` `^U` toggle italics, bold, underline.
struct SpruceSTLReader: TimedTextReader {
    var frameRate: Double?

    /// Whether bytes look like Spruce STL: a comment, a setting, or a timed line first.
    static func recognises(_ bytes: [UInt8]) -> Bool {
        let text = TextLines(Array(bytes.prefix(2048)), codePrefix: "stl")
        guard let first = text.lines.first(where: { !$0.trimmedSpaces.isEmpty })?.trimmedSpaces else { return false }
        return first.hasPrefix("//") || first.hasPrefix("$") || timing(first) != nil
    }

    func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "stl")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "spruce-stl")
        var rate = frameRate
        for (index, raw) in text.lines.enumerated() {
            let line = raw.trimmedSpaces
            if line.isEmpty || line.hasPrefix("//") { continue }
            if line.hasPrefix("$") {
                let parts = line.dropFirst().split(separator: "=", maxSplits: 1).map(\.trimmedSpaces)
                if parts.count == 2, parts[0].lowercased() == "timecoderate", let value = Double(parts[1]), frameRate == nil { rate = value }
                continue
            }
            guard let (startLabel, endLabel, body) = Self.timing(line) else {
                document.diagnostics.append(Diagnostic(
                    .warning, "stl.line.malformed", "not a 'HH:MM:SS:FF , HH:MM:SS:FF , text' line; skipped", at: TextLines.location(index)))
                continue
            }
            let timecode = SMPTETimecode(frameRate: rate ?? 25)
            guard let start = timecode.frame(parsing: startLabel)?.frame, let end = timecode.frame(parsing: endLabel)?.frame else { continue }
            var builder = InlineTreeBuilder(joinsAdjacentText: true)
            var rest = body.split(separator: "|", omittingEmptySubsequences: false).map(\.trimmedSpaces).joined(separator: "\n")[...]
            while let caret = rest.firstIndex(of: "^") {
                builder.appendText(String(rest[..<caret]))
                let code = rest[caret...].dropFirst().first
                let kind: Span.Kind? = code == "I" || code == "i" ? .italic : code == "B" || code == "b" ? .bold : code == "U" || code == "u" ? .underline : nil
                if let kind {
                    if builder.isOpen(kind) { _ = builder.close(kind) } else { builder.open(Span(kind)) }
                    rest = rest[caret...].dropFirst(2)
                } else {
                    builder.appendText("^")
                    rest = rest[caret...].dropFirst()
                }
            }
            builder.appendText(String(rest))
            if end < start { document.diagnostics.append(TextLines.endBeforeStart(codePrefix: "stl", at: TextLines.location(index))) }
            document.cues.append(Cue(
                start: timecode.time(frame: start), end: timecode.time(frame: max(start, end)), content: builder.finish(),
                location: TextLines.location(index)))
        }
        guard !document.cues.isEmpty else {
            throw CaptionsError("stl.cues.none", "no subtitle found: a Spruce STL line reads 00:00:01:00 , 00:00:03:00 , text", at: .start)
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// The two timecodes and the text of a timed line.
    static func timing(_ line: Substring) -> (Substring, Substring, Substring)? {
        let parts = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let start = parts[0].trimmedSpaces, end = parts[1].trimmedSpaces
        let probe = SMPTETimecode(frameRate: 25)
        guard probe.frame(parsing: start) != nil || SMPTETimecode(frameRate: 30).frame(parsing: start) != nil, end.count == 11 else { return nil }
        var body = parts[2]
        if body.first == " " { body = body.dropFirst() }
        return (start, end, body)
    }
}

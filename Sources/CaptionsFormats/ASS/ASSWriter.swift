import CaptionsCore

/// Writes Advanced SubStation Alpha: a `Default` style (white, bottom centre, for a 1920 × 1080
/// script), one `Dialogue` line a cue with its speaker as `Name`, `{\i1}`, `{\b1}`, `{\u1}` and
/// `{\c&H…&}` for styles, `{\anN}` for placement off the bottom centre, `\N` for line breaks.
public struct ASSWriter: TimedTextWriter {
    /// Styles, colours, the nine keypad positions, speakers.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .numpadPlacement, .emptyCues, .voices, .blankLinesInText]

    /// A writer.
    public init() {}

    /// Moves every time to the nearest centisecond (ASS's unit), a cue that would vanish lasting
    /// one, and reports text that ASS would read as codes (written as text by ``literal(_:)``).
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        func cues(_ count: Int) -> String { "\(count) cue\(count == 1 ? "" : "s")" }
        let fit = SMPTETimecode(frameRate: 100).fitToFrames(&document, withinADay: false)
        var diagnostics: [Diagnostic] = []
        if fit.moved > 0 {
            diagnostics.append(Diagnostic(
                .note, "ass.time.centiseconds", "\(cues(fit.moved)) moved to the nearest centisecond (ASS times are centiseconds)",
                at: fit.firstMoved))
        }
        if fit.lengthened > 0 {
            diagnostics.append(Diagnostic(
                .warning, "ass.time.tooShort",
                "\(cues(fit.lengthened)) shorter than a centisecond lengthened to one"
                    + (fit.delayed > 0 ? " (\(cues(fit.delayed)) after them starting when they end)" : ""),
                at: fit.firstShort))
        }
        if let first = document.cues.firstIndex(where: { Self.nameField(for: $0).changed }) {
            let count = document.cues.count { Self.nameField(for: $0).changed }
            diagnostics.append(Diagnostic(
                .warning, "ass.name.comma",
                "\(cues(count)) with a speaker name holding a comma or a line break written without it (ASS's Name field cannot hold one)",
                at: document.cues[first].location))
        }
        if let literal = LiteralText.diagnostic(
            for: document, formatName: "ASS", codes: "{…}, \\N, \\n, \\h",
            how: "braces written as parentheses, an invisible U+200B after such a backslash", literal: Self.literal)
        {
            diagnostics.append(literal)
        }
        return diagnostics
    }

    /// Writes the document as ASS bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var out = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 1920
            PlayResY: 1080
            WrapStyle: 0

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
            Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
            MarginV, Encoding
            Style: Default,Arial,54,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,1,2,60,60,50,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        for cue in document.cues {
            out += "Dialogue: 0,\(Self.clock(cue.start)),\(Self.clock(cue.end ?? cue.start)),Default,\(Self.nameField(for: cue).text),0,0,0,,"
            let position = NumpadPosition.nearest(to: cue.settings)
            if position != .bottomCenter { out += "{\\an\(position.rawValue)}" }
            Self.writeNodes(cue.content, to: &out)
            out += "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    /// The cue's speaker as the `Name` field holds it: a comma would end the field and a line break
    /// the line, so each (with the spaces around it) becomes one space; and whether one did.
    static func nameField(for cue: Cue) -> (text: String, changed: Bool) {
        let name = cue.speaker ?? Cue.firstVoice(in: cue.content) ?? ""
        guard name.contains(where: { $0 == "," || $0.isNewline }) else { return (name, false) }
        let parts = name.split(whereSeparator: { $0 == "," || $0.isNewline }).map { $0.trimmingASCIIWhitespace() }
        return (parts.filter { !$0.isEmpty }.joined(separator: " "), true)
    }

    /// Text as ASS shows it: a brace would open an override block (written as a parenthesis),
    /// `\N`, `\n` and `\h` would be a break or a hard space (an invisible U+200B after the
    /// backslash keeps them text), and a line break is `\N`; and whether anything but line breaks
    /// had to change.
    static func literal(_ text: String) -> (text: String, changed: Bool) {
        let (separated, changed) = LiteralText.separatingBackslashCodes(text)
        guard changed || separated.contains(where: { $0 == "\n" || $0 == "{" || $0 == "}" }) else { return (separated, false) }
        var out = ""
        var braces = false
        for character in separated {
            switch character {
            case "\n": out += "\\N"
            case "{", "}":
                out += character == "{" ? "(" : ")"
                braces = true
            default: out.append(character)
            }
        }
        return (out, changed || braces)
    }

    /// The text as runs of one look each, with an override block only where the look changes
    /// and a return to the style's own look at the end. Overrides are a state in ASS, not a
    /// nesting: written as runs, a line read back and written again is the same line (nested
    /// spans came back in another order, and a colour split at every change of weight).
    private static func writeNodes(_ nodes: [InlineNode], to out: inout String) {
        var current = TextLook()
        for (text, look) in TextLook.runs(of: nodes) {
            out += current.tags(to: look)
            current = look
            out += literal(text).text
        }
        out += current.tags(to: TextLook())
    }

    static func hex(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// `H:MM:SS.cc`, rounded to the nearest centisecond.
    static func clock(_ time: MediaTime) -> String {
        let clock = ClockTime(roundingToMilliseconds: max(time, .zero))
        var centiseconds = Int64(clock.hours) * 360_000 + Int64(clock.minutes) * 6000 + Int64(clock.seconds) * 100
        centiseconds += Int64((clock.milliseconds + 5) / 10)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(centiseconds / 360_000):\(two(centiseconds / 6000 % 60)):\(two(centiseconds / 100 % 60)).\(two(centiseconds % 100))"
    }
}

extension TextLook {
    /// The ASS override block that changes `self` into `other` (empty when nothing changes).
    fileprivate func tags(to other: TextLook) -> String {
        var tags = ""
        if italic != other.italic { tags += other.italic ? "\\i1" : "\\i0" }
        if bold != other.bold { tags += other.bold ? "\\b1" : "\\b0" }
        if underline != other.underline { tags += other.underline ? "\\u1" : "\\u0" }
        if color != other.color {
            tags += other.color.map { "\\c&H\(ASSWriter.hex($0.blue))\(ASSWriter.hex($0.green))\(ASSWriter.hex($0.red))&" } ?? "\\c"
        }
        return tags.isEmpty ? "" : "{\(tags)}"
    }
}

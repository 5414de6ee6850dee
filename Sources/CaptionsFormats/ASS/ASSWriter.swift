import CaptionsCore

/// Writes Advanced SubStation Alpha: a `Default` style (white, bottom centre, for a 1920 × 1080
/// script), one `Dialogue` line a cue with its speaker as `Name`, `{\i1}`, `{\b1}`, `{\u1}` and
/// `{\c&H…&}` for styles, `{\anN}` for placement off the bottom centre, `\N` for line breaks.
public struct ASSWriter: TimedTextWriter {
    /// Styles, colours, the nine keypad positions, speakers.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .numpadPlacement, .emptyCues, .voices]

    /// A writer.
    public init() {}

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
            let name = String((cue.speaker ?? Cue.firstVoice(in: cue.content) ?? "").map { $0 == "," || $0 == "\n" ? " " : $0 })
            out += "Dialogue: 0,\(Self.clock(cue.start)),\(Self.clock(cue.end ?? cue.start)),Default,\(name),0,0,0,,"
            let position = NumpadPosition.nearest(to: cue.settings)
            if position != .bottomCenter { out += "{\\an\(position.rawValue)}" }
            Self.writeNodes(cue.content, to: &out)
            out += "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    private static func writeNodes(_ nodes: [InlineNode], to out: inout String) {
        for node in nodes {
            switch node {
            case .text(let text):
                // A brace would open an override block; line breaks are \N.
                for character in text {
                    switch character {
                    case "\n": out += "\\N"
                    case "{": out += "("
                    case "}": out += ")"
                    default: out.append(character)
                    }
                }
            case .timestamp:
                break
            case .span(let span):
                let tag: (open: String, close: String)?
                switch span.kind {
                case .italic: tag = ("{\\i1}", "{\\i0}")
                case .bold: tag = ("{\\b1}", "{\\b0}")
                case .underline: tag = ("{\\u1}", "{\\u0}")
                default:
                    tag = span.style?.color.map { color in
                        ("{\\c&H\(hex(color.blue))\(hex(color.green))\(hex(color.red))&}", "{\\c}")
                    }
                }
                if let tag { out += tag.open }
                writeNodes(span.children, to: &out)
                if let tag { out += tag.close }
            }
        }
    }

    private static func hex(_ value: UInt8) -> String {
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

import CaptionsCore

/// Writes YouTube's `.sbv`: `H:MM:SS.mmm,H:MM:SS.mmm`, the text, a blank line. Plain text only:
/// styles, placement and speakers are reported as lost by the capability reducer; a `[br]` in the
/// text (a line break to readers) is written with an invisible U+200B after its `[`.
public struct SBVWriter: TimedTextWriter {
    /// Plain text, and cues of no duration.
    public let capabilities: FormatCapabilities = [.emptyCues]

    /// A writer.
    public init() {}

    /// Reports the cues whose text holds a `[br]`.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        LiteralText.diagnostic(
            for: document, formatName: "SBV", codes: "[br] is a line break", how: "an invisible U+200B after its [",
            literal: Self.literal
        ).map { [$0] } ?? []
    }

    /// `text` with every `[br]` (any case) kept literal; and whether there was one.
    static func literal(_ text: String) -> (text: String, changed: Bool) {
        var (out, changed) = ("", false)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            out += rest[...open]
            rest = rest[rest.index(after: open)...]
            if rest.prefix(3).lowercased() == "br]" {
                out.append("\u{200B}")
                changed = true
            }
        }
        return (out + rest, changed)
    }

    /// Writes the document as SBV bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var out = ""
        for (index, cue) in document.cues.enumerated() {
            if index > 0 { out += "\n" }
            out += Self.clock(cue.start) + "," + Self.clock(cue.end ?? cue.start) + "\n"
            // A blank line would end the cue; the reducer has removed them already.
            out += Self.literal(cue.plainText).text + "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    /// `H:MM:SS.mmm`, hours as wide as they need.
    static func clock(_ time: MediaTime) -> String {
        let clock = ClockTime(roundingToMilliseconds: max(time, .zero))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = clock.milliseconds < 10 ? "00\(clock.milliseconds)" : clock.milliseconds < 100 ? "0\(clock.milliseconds)" : "\(clock.milliseconds)"
        return "\(clock.hours):\(two(clock.minutes)):\(two(clock.seconds)).\(milliseconds)"
    }
}

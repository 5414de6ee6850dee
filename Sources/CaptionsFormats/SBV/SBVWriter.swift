import CaptionsCore

/// Writes YouTube's `.sbv`: `H:MM:SS.mmm,H:MM:SS.mmm`, the text, a blank line. Plain text only:
/// styles, placement and speakers are reported as lost by the capability reducer.
public struct SBVWriter: TimedTextWriter {
    /// Plain text, and cues of no duration.
    public let capabilities: FormatCapabilities = [.emptyCues]

    /// A writer.
    public init() {}

    /// Writes the document as SBV bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var out = ""
        for (index, cue) in document.cues.enumerated() {
            if index > 0 { out += "\n" }
            out += Self.clock(cue.start) + "," + Self.clock(cue.end ?? cue.start) + "\n"
            // A blank line would end the cue; the reducer has removed them already.
            out += cue.plainText + "\n"
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

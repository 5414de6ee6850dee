import CaptionsCore

/// Writes standard SubRip: indices from 1, `HH:MM:SS,mmm` times rounded to the nearest
/// millisecond (ties away from zero), `<i>`, `<b>`, `<u>`, `<font color>` and `{\anN}` for
/// placement off the bottom centre, a blank line after every cue, LF or CRLF line ends.
public struct SRTWriter: TimedTextWriter {
    /// How lines end.
    public enum LineEnding: Sendable {
        /// `\n`.
        case lf
        /// `\r\n`, what some Windows players expect.
        case crlf
    }

    /// Italic, bold, underline, colours and the nine keypad positions.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .numpadPlacement]
    /// How lines end.
    public var lineEnding: LineEnding

    /// A writer with a line ending.
    public init(lineEnding: LineEnding = .lf) { self.lineEnding = lineEnding }

    /// The document as SRT bytes.
    public func write(_ document: TimedTextDocument) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: document.cues.count * 100 + 4096)
        let newline = lineEnding == .crlf ? "\r\n" : "\n"
        for (index, cue) in document.cues.enumerated() {
            if index > 0 { out.write(newline) }
            out.write(String(index + 1) + newline)
            out.writeClock(cue.start, fractionSeparator: UInt8(ascii: ","))
            out.write(" --> ")
            out.writeClock(cue.end ?? cue.start, fractionSeparator: UInt8(ascii: ","))
            out.write(newline)
            let position = NumpadPosition.nearest(to: cue.settings)
            if position != .bottomCenter { out.write("{\\an\(position.rawValue)}") }
            writeNodes(cue.content, newline: newline, to: &out)
            out.write(newline)
        }
        return out.bytes
    }

    private func writeNodes(_ nodes: [InlineNode], newline: String, to out: inout ByteWriter) {
        for node in nodes {
            switch node {
            case .text(let text):
                out.write(lineEnding == .crlf ? text.replacing("\n", with: "\r\n") : text)
            case .timestamp:
                break
            case .span(let span):
                let tag: (open: String, close: String)?
                switch span.kind {
                case .italic: tag = ("<i>", "</i>")
                case .bold: tag = ("<b>", "</b>")
                case .underline: tag = ("<u>", "</u>")
                default: tag = span.style?.color.map { ("<font color=\"\($0)\">", "</font>") }
                }
                if let tag { out.write(tag.open) }
                writeNodes(span.children, newline: newline, to: &out)
                if let tag { out.write(tag.close) }
            }
        }
    }
}

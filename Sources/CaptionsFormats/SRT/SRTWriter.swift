import CaptionsCore

/// Writes standard SubRip: indices from 1, `HH:MM:SS,mmm` times rounded to the nearest
/// millisecond (ties away from zero), `<i>`, `<b>`, `<u>`, `<font color>` and `{\anN}` for
/// placement off the bottom centre, a blank line after every cue, LF or CRLF line ends. Spaces at
/// the end of a line are not written (readers, ours included, drop them).
public struct SRTWriter: TimedTextWriter {
    /// How lines end.
    public enum LineEnding: Sendable {
        /// `\n`.
        case lf
        /// `\r\n`, what some Windows players expect.
        case crlf
    }

    /// Italic, bold, underline, colours and the nine keypad positions.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .numpadPlacement, .emptyCues]
    /// How lines end.
    public var lineEnding: LineEnding

    /// A writer with a line ending.
    public init(lineEnding: LineEnding = .lf) { self.lineEnding = lineEnding }

    /// Reports text that SRT players read as SubStation's codes (written as text by
    /// ``literal(_:)``).
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        LiteralText.diagnostic(
            for: document, formatName: "SRT", codes: "\\N, \\n, \\h, MicroDVD's {y:i}",
            how: "an invisible U+200B after such a backslash or brace",
            literal: Self.literal
        ).map { [$0] } ?? []
    }

    /// Text as SRT players show it: `\N`, `\n` and `\h` would be a break or a hard space (VLC,
    /// FFmpeg and our reader read them so), and MicroDVD's `{y:i}` would be dropped; an invisible
    /// U+200B after the backslash or the brace keeps them text; and whether anything had to change.
    static func literal(_ text: String) -> (text: String, changed: Bool) {
        let codes = LiteralText.separatingBackslashCodes(text)
        let braces = LiteralText.separatingMicroDVDCodes(codes.text)
        return (braces.text, codes.changed || braces.changed)
    }

    /// Writes the document as SRT bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        let newline = lineEnding == .crlf ? "\r\n" : "\n"
        let cues = document.cues
        ParallelSerialization.write(count: cues.count, state: { ByteWriter() }, emit: emit) { index, out, text in
            write(cues[index], number: index + 1, newline: newline, to: &out, scratch: &text)
        }
    }

    /// Writes one cue: its number, times, keypad position and text.
    private func write(_ cue: Cue, number: Int, newline: String, to out: inout ByteWriter, scratch text: inout ByteWriter) {
        if number > 1 { out.write(newline) }
        out.writeDecimal(number)
        out.write(newline)
        out.writeClock(cue.start, fractionSeparator: UInt8(ascii: ","))
        out.write(" --> ")
        out.writeClock(cue.end ?? cue.start, fractionSeparator: UInt8(ascii: ","))
        out.write(newline)
        let position = NumpadPosition.nearest(to: cue.settings)
        if position != .bottomCenter { out.write("{\\an\(position.rawValue)}") }
        writeNodes(cue.content, to: &text)
        text.withBytes { writeTrimmingLineEnds($0, newline: newline, to: &out) }
        text.clear()
        out.write(newline)
    }

    /// Writes cue text line by line: trailing spaces and tabs dropped, LF replaced by `newline`.
    private func writeTrimmingLineEnds(_ text: UnsafeBufferPointer<UInt8>, newline: String, to out: inout ByteWriter) {
        var lineStart = 0
        while true {
            let lineEnd = Self.lineFeed.firstIndex(in: text, from: lineStart) ?? text.count
            var end = lineEnd
            while end > lineStart, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
            out.write(UnsafeBufferPointer(rebasing: text[lineStart..<end]))
            guard lineEnd < text.count else { return }
            out.write(newline)
            lineStart = lineEnd + 1
        }
    }

    private static let lineFeed = ByteScan(0x0A, 0x0A, 0x0A)

    private func writeNodes(_ nodes: [InlineNode], to out: inout ByteWriter) {
        for node in nodes {
            switch node {
            case .text(let text):
                out.write(Self.literal(text).text)
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
                writeNodes(span.children, to: &out)
                if let tag { out.write(tag.close) }
            }
        }
    }
}

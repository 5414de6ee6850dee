import CaptionsCore

/// Writes MicroDVD: a `{1}{1}fps` header, then `{start}{end}text` with times rounded to the
/// nearest frame and `|` between lines; plain text (styles are reported lost). Text that readers
/// would take for codes stays text, reported by ``fit(_:)``: a `|` is written `¦`, and a line
/// that starts with `{` or `/` starts with an invisible U+200B.
public struct MicroDVDWriter: TimedTextWriter {
    /// Frames per second of the video the file goes with.
    public var frameRate: Double

    /// Plain text (styles only for whole lines), cues of no duration.
    public let capabilities: FormatCapabilities = [.emptyCues]

    /// A writer for video at `frameRate` (23.976 when not given).
    public init(frameRate: Double? = nil) { self.frameRate = frameRate ?? MicroDVDReader.defaultFrameRate }

    /// Reports the cues whose text ``literal(_:)`` changes.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        LiteralText.diagnostic(
            for: document, formatName: "MicroDVD", codes: "| between lines, {y:i} and / at a line's start",
            how: "| written as ¦, an invisible U+200B before such a { or /", literal: Self.literal
        ).map { [$0] } ?? []
    }

    /// The lines of `text` joined by `|`, each kept literal; and whether anything but the line
    /// breaks changed.
    static func literal(_ text: String) -> (text: String, changed: Bool) {
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let opensWithCode = line.first == "{" || line.first == "/"
            if opensWithCode || line.contains("|") { changed = true }
            return (opensWithCode ? "\u{200B}" : "") + line.replacing("|", with: "¦")
        }
        return (lines.joined(separator: "|"), changed)
    }

    /// Writes the document as MicroDVD bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        let rate = (frameRate * 1000).rounded() / 1000
        var out = "{1}{1}\(rate == rate.rounded() ? String(Int(rate)) : String(rate))\n"
        for cue in document.cues {
            let start = frame(cue.start), end = max(start, frame(cue.end ?? cue.start))
            out += "{\(start)}{\(end)}" + Self.literal(cue.plainText).text + "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    private func frame(_ time: MediaTime) -> Int64 { Int64((time.seconds * frameRate).rounded()) }
}

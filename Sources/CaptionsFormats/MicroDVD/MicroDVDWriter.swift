import CaptionsCore

/// Writes MicroDVD: a `{1}{1}fps` header, then `{start}{end}text` with times rounded to the
/// nearest frame and `|` between lines. Styles are MicroDVD's line codes: a line whose letters
/// are all italic, bold or underlined, or of one colour, starts with `{y:i,b,u}` and
/// `{c:$BBGGRR}`; a line whose look changes part-way is written plain, reported by ``fit(_:)``.
/// Text that readers would take for codes stays text, reported too: a `|` is written `¦`, and a
/// line that starts with `{` or `/` starts with an invisible U+200B.
public struct MicroDVDWriter: TimedTextWriter {
    /// Frames per second of the video the file goes with.
    public var frameRate: Double

    /// Styles and colours (of whole lines), cues of no duration.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .emptyCues, .blankLinesInText]

    /// A writer for video at `frameRate` (23.976 when not given).
    public init(frameRate: Double? = nil) { self.frameRate = frameRate ?? MicroDVDReader.defaultFrameRate }

    /// Reports the cues whose text ``literal(_:)`` changes, and the cues shorter than a frame,
    /// which are written a frame long (`{75}{75}` would never be shown).
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        var diagnostics = LiteralText.diagnostic(
            for: document, formatName: "MicroDVD", codes: "| between lines, {y:i} and / at a line's start",
            how: "| written as ¦, an invisible U+200B before such a { or /", literal: Self.literal
        ).map { [$0] } ?? []
        let mixed = document.cues.filter { cue in Self.lines(of: cue.content).contains { $0.look == nil } }
        if let first = mixed.first {
            diagnostics.append(Diagnostic(
                .warning, "microdvd.style.partLine",
                "\(mixed.count) cue\(mixed.count == 1 ? "" : "s") with a line whose look changes part-way written plain: "
                    + "MicroDVD styles whole lines", at: first.location))
        }
        let short = document.cues.filter { cue in cue.end.map { $0 > cue.start && frame($0) <= frame(cue.start) } ?? false }
        if let first = short.first {
            let rate = NumberFormatting.shortest((frameRate * 1000).rounded() / 1000)
            diagnostics.append(Diagnostic(
                .warning, "microdvd.time.tooShort",
                "\(short.count) cue\(short.count == 1 ? "" : "s") shorter than a frame at \(rate) frames a second lengthened to one frame",
                at: first.location))
        }
        return diagnostics
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
            let start = frame(cue.start)
            // A cue of some duration lasts a frame at least (start and end on one frame is never shown).
            let end = cue.end.map { $0 > cue.start ? max(start + 1, frame($0)) : start } ?? start
            let lines = Self.lines(of: cue.content).map { line in Self.codes(line.look ?? TextLook()) + Self.literal(line.text).text }
            out += "{\(start)}{\(end)}" + lines.joined(separator: "|") + "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    /// The lines of `content`, each with the look all its letters and digits share (plain when
    /// it has none; nil when they differ).
    static func lines(of content: [InlineNode]) -> [(text: String, look: TextLook?)] {
        var lines: [(text: String, looks: Set<TextLook>)] = [("", [])]
        for (text, look) in TextLook.runs(of: content) {
            for (index, piece) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { lines.append(("", [])) }
                lines[lines.count - 1].text += piece
                if piece.contains(where: { $0.isLetter || $0.isNumber }) { lines[lines.count - 1].looks.insert(look) }
            }
        }
        return lines.map { ($0.text, $0.looks.count <= 1 ? $0.looks.first ?? TextLook() : nil) }
    }

    /// The codes that start a line of `look`: `{y:i,b,u}`, `{c:$BBGGRR}`.
    static func codes(_ look: TextLook) -> String {
        let flags = [(look.italic, "i"), (look.bold, "b"), (look.underline, "u")].filter(\.0).map(\.1)
        var codes = flags.isEmpty ? "" : "{y:\(flags.joined(separator: ","))}"
        if let color = look.color { codes += "{c:$\(ASSWriter.hex(color.blue))\(ASSWriter.hex(color.green))\(ASSWriter.hex(color.red))}" }
        return codes
    }

    private func frame(_ time: MediaTime) -> Int64 { Int64((time.seconds * frameRate).rounded()) }
}

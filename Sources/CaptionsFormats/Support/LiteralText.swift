import CaptionsCore

/// Cue text that a plain-text format would read as its own codes (ASS's `{…}` and `\N`,
/// MicroDVD's `|` and `{y:i}`, SBV's `[br]`): each writer has its rule for keeping such text
/// text, and this says, in one warning, which cues it changed.
enum LiteralText {
    /// `text` with an invisible U+200B after every backslash that starts `\N`, `\n` or `\h`
    /// (SubStation's line breaks and hard space, which ASS and SRT players read), so that they
    /// stay text; and whether one was put in.
    static func separatingBackslashCodes(_ text: String) -> (text: String, changed: Bool) {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return (text, false) }
        var out = ""
        var (afterBackslash, changed) = (false, false)
        for character in text {
            if afterBackslash, character == "N" || character == "n" || character == "h" {
                out.append("\u{200B}")
                changed = true
            }
            afterBackslash = character == "\\"
            out.append(character)
        }
        return (out, changed)
    }

    /// `text` with an invisible U+200B after each `{` that starts one of MicroDVD's control codes
    /// (`{y:i}`, which SRT readers drop), so that it stays text; and whether anything changed.
    static func separatingMicroDVDCodes(_ text: String) -> (text: String, changed: Bool) {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return (text, false) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 3)
        var changed = false
        // The first `}` after the current place, searched again only once passed (each byte is
        // searched once: text of many `{` and no `}` stays linear).
        var close = -1
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            guard byte == UInt8(ascii: "{") else { continue }
            if close <= index { close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "}")) ?? bytes.count }
            guard close < bytes.count, SRTCueTextParser.isMicroDVDCode(bytes[(index + 1)..<close]) else { continue }
            out += Array("\u{200B}".utf8)
            changed = true
        }
        return (changed ? String(decoding: out, as: UTF8.self) : text, changed)
    }

    /// One `convert.lost.literalMarkup` warning at the first cue whose plain text `literal`
    /// changes, naming what `formatName` would read (`codes`) and how it was written (`how`).
    static func diagnostic(
        for document: TimedTextDocument, formatName: String, codes: String, how: String,
        literal: (String) -> (text: String, changed: Bool)
    ) -> Diagnostic? {
        let changed = document.cues.filter { literal($0.plainText).changed }
        guard let first = changed.first else { return nil }
        let count = changed.count == 1 ? "1 cue holds" : "\(changed.count) cues hold"
        return Diagnostic(
            .warning, "convert.lost.literalMarkup", "\(count) text \(formatName) reads as codes (\(codes)): \(how)",
            at: first.location)
    }
}

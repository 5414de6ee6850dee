import CaptionsCore

/// Cue text that a plain-text format would read as its own codes (ASS's `{…}` and `\N`,
/// MicroDVD's `|` and `{y:i}`, SBV's `[br]`): each writer has its rule for keeping such text
/// text, and this says, in one warning, which cues it changed.
enum LiteralText {
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

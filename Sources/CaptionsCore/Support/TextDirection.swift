/// The base direction of a paragraph by the Unicode bidirectional algorithm's rules P2 and P3:
/// the first strong character decides. WebVTT and SRT players apply it to each cue; formats with
/// an explicit direction (TTML's `tts:direction`, which defaults to left to right) need it said.
public enum TextDirection: Sendable {
    /// Whether the first strong character of `text` is right to left (Hebrew, Arabic, Syriac,
    /// Thaana, N'Ko… or a right-to-left mark); false when it is left to right or there is none.
    public static func isRightToLeft(_ text: some StringProtocol) -> Bool {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x41 { continue }  // ASCII digits, spaces and punctuation are weak or neutral
            if value == 0x200F || value == 0x061C { return true }  // RLM, ALM
            if value == 0x200E { return false }  // LRM
            if isRightToLeftLetter(value) { return true }
            if scalar.properties.isAlphabetic { return false }
        }
        return false
    }

    /// Letters of the right-to-left blocks (numbers and marks inside them are not strong, but a
    /// paragraph that starts with an Arabic digit is rare enough to read as Arabic).
    private static func isRightToLeftLetter(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}

/// What a writer's format can carry; ``CapabilityReducer`` drops the rest and reports it.
public struct FormatCapabilities: OptionSet, Sendable, Hashable {
    /// The bit set.
    public let rawValue: Int

    /// Wraps a bit set.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Regions (WebVTT `REGION`, TTML regions).
    public static let regions = FormatCapabilities(rawValue: 1 << 0)
    /// CSS style sheets.
    public static let styleSheets = FormatCapabilities(rawValue: 1 << 1)
    /// Comments (`NOTE`).
    public static let comments = FormatCapabilities(rawValue: 1 << 2)
    /// Every WebVTT cue setting.
    public static let placement = FormatCapabilities(rawValue: 1 << 3)
    /// Only the nine positions of a numeric keypad (SRT `{\anN}`).
    public static let numpadPlacement = FormatCapabilities(rawValue: 1 << 4)
    /// Voice spans naming speakers.
    public static let voices = FormatCapabilities(rawValue: 1 << 5)
    /// Class spans and classes on spans.
    public static let classes = FormatCapabilities(rawValue: 1 << 6)
    /// Italic, bold and underline.
    public static let basicStyles = FormatCapabilities(rawValue: 1 << 7)
    /// Text colours.
    public static let colors = FormatCapabilities(rawValue: 1 << 8)
    /// Ruby annotations.
    public static let ruby = FormatCapabilities(rawValue: 1 << 9)
    /// Karaoke timestamps inside cue text.
    public static let timestamps = FormatCapabilities(rawValue: 1 << 10)
    /// Language spans.
    public static let languages = FormatCapabilities(rawValue: 1 << 11)
    /// Cues without an end time.
    public static let openEnds = FormatCapabilities(rawValue: 1 << 12)
    /// Free-form cue identifiers.
    public static let cueIdentifiers = FormatCapabilities(rawValue: 1 << 13)
    /// Header text and header lines.
    public static let header = FormatCapabilities(rawValue: 1 << 14)

    /// Blank lines inside cue text (in WebVTT and SRT a blank line ends the cue).
    public static let blankLinesInText = FormatCapabilities(rawValue: 1 << 15)

    /// Control characters in text and names (C0 controls other than tab and line feed, carriage
    /// returns that are not line breaks, U+FFFE, U+FFFF), and names with line breaks.
    public static let controlCharacters = FormatCapabilities(rawValue: 1 << 16)
    /// Text that looks like markup (`<i>`, `{\an8}`) kept as text: the writer escapes it.
    public static let literalMarkup = FormatCapabilities(rawValue: 1 << 17)
    /// Spaces and tabs at the end of a line of text.
    public static let trailingSpaces = FormatCapabilities(rawValue: 1 << 18)

    /// Cues without visible text or without duration (a TTML reader shows, and reads, no cue for
    /// an empty paragraph or one that ends when it begins).
    public static let emptyCues = FormatCapabilities(rawValue: 1 << 19)

    /// Comments of any text: empty lines and `-->` (which end a WebVTT NOTE block or make it a
    /// cue; see ``Comment/textForNoteBlock``).
    public static let freeComments = FormatCapabilities(rawValue: 1 << 20)

    /// Several speakers in one cue, each on its own voice span (WebVTT `<v>`, TTML `ttm:agent` on
    /// a span); without it a format names one speaker a cue (ASS's `Name`).
    public static let speakersInCue = FormatCapabilities(rawValue: 1 << 21)

    /// Vertical text (WebVTT's `vertical`, TTML's `tts:writingMode`); a format that places cues
    /// without it writes them horizontally.
    public static let verticalText = FormatCapabilities(rawValue: 1 << 22)

    /// The document's language (WebVTT's `Language:` header, TTML's `xml:lang`, EBU STL's
    /// language code).
    public static let documentLanguage = FormatCapabilities(rawValue: 1 << 23)

    /// The document's title (WebVTT's text after `WEBVTT`, TTML's `ttm:title`), without the
    /// other header lines ``header`` covers.
    public static let title = FormatCapabilities(rawValue: 1 << 24)

    /// Everything the model holds.
    public static let all = FormatCapabilities(rawValue: (1 << 25) - 1)
}

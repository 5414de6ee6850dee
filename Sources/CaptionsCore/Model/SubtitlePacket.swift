/// One cue of a subtitle stream inside a media file, as the container holds it.
///
/// CaptionsMedia reads these from `.mkv`, `.mp4` and other containers; CaptionsFormats turns
/// them into a ``TimedTextDocument`` by their markup.
public struct SubtitlePacket: Sendable, Hashable {
    /// The markup the text is written in.
    public enum Markup: String, Sendable, Hashable {
        /// SRT cue text (`<i>`, `<font>`, `{\anN}`).
        case subrip
        /// WebVTT cue text.
        case webvtt
        /// An ASS/SSA `Dialogue` event: `ReadOrder,Layer,Style,Name,…,Effect,Text`.
        case ass
        /// Plain text (also `mov_text` once its length prefix is removed).
        case plain
    }

    /// When the cue appears.
    public var start: MediaTime
    /// When it disappears, when the container says.
    public var end: MediaTime?
    /// The cue text in its markup.
    public var text: String
    /// The markup.
    public var markup: Markup
    /// WebVTT cue settings carried beside the text, if any.
    public var settings: String?
    /// WebVTT cue identifier carried beside the text, if any.
    public var identifier: String?

    /// A packet.
    public init(
        start: MediaTime, end: MediaTime?, text: String, markup: Markup, settings: String? = nil, identifier: String? = nil
    ) {
        self.start = start
        self.end = end
        self.text = text
        self.markup = markup
        self.settings = settings
        self.identifier = identifier
    }
}

/// A node of a cue's text tree.
public enum InlineNode: Sendable, Hashable {
    /// Text; line breaks are LF.
    case text(String)
    /// A karaoke timestamp: the text after it is "future" until this time.
    case timestamp(MediaTime)
    /// A span with children.
    indirect case span(Span)

    /// The text without markup.
    public var plainText: String {
        switch self {
        case .text(let text): text
        case .timestamp: ""
        case .span(let span): span.children.map(\.plainText).joined()
        }
    }
}

/// An inline span: WebVTT's `c`, `i`, `b`, `u`, `ruby`, `rt`, `v` and `lang`, or a styled span.
public struct Span: Sendable, Hashable {
    /// What the span is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A class span (`<c>`), also used for styled spans from other formats.
        case `class` = "c"
        /// Italic.
        case italic = "i"
        /// Bold.
        case bold = "b"
        /// Underline.
        case underline = "u"
        /// Ruby container.
        case ruby
        /// Ruby text, inside ``ruby``.
        case rubyText = "rt"
        /// A voice: ``Span/annotation`` names the speaker.
        case voice = "v"
        /// A language: ``Span/annotation`` is a BCP 47 tag.
        case language = "lang"
    }

    /// What the span is.
    public var kind: Kind
    /// CSS classes, in order, without empty names.
    public var classes: [String]
    /// The voice name or language tag; `nil` for other kinds.
    public var annotation: String?
    /// A resolved style from formats that carry one (SRT `<font color>`, TTML).
    public var style: TextStyle?
    /// The children.
    public var children: [InlineNode]

    /// A span of a kind.
    public init(
        _ kind: Kind, classes: [String] = [], annotation: String? = nil, style: TextStyle? = nil,
        children: [InlineNode] = []
    ) {
        self.kind = kind
        self.classes = classes
        self.annotation = annotation
        self.style = style
        self.children = children
    }
}

/// Resolved presentation a span carries beyond its kind.
public struct TextStyle: Sendable, Hashable {
    /// Text colour.
    public var color: RGBAColor?
    /// Background colour.
    public var backgroundColor: RGBAColor?

    /// A style with the given colours.
    public init(color: RGBAColor? = nil, backgroundColor: RGBAColor? = nil) {
        self.color = color
        self.backgroundColor = backgroundColor
    }
}

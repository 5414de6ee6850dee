/// A node of a cue's text tree.
///
/// Readers never build a tree deeper than ``maximumDepth`` spans, so that code walking the tree
/// recursively (writers, transforms) cannot be driven into a stack overflow by hostile input;
/// tags nested deeper are dropped and reported.
public enum InlineNode: Sendable, Hashable {
    /// The deepest span nesting a reader builds (real captions rarely nest more than 3 deep).
    public static let maximumDepth = 32

    /// Text; line breaks are LF.
    case text(String)
    /// A karaoke timestamp: the text after it is "future" until this time.
    case timestamp(MediaTime)
    /// A span with children.
    indirect case span(Span)

    /// The text without markup.
    public var plainText: String {
        switch self {
        case .text(let text): return text
        case .timestamp: return ""
        case .span(let span):
            var result = ""
            Self.appendPlainText(of: span.children, to: &result)
            return result
        }
    }

    /// Appends the text of `nodes` without markup (one string grown in place, not one per span).
    public static func appendPlainText(of nodes: [InlineNode], to result: inout String) {
        for node in nodes {
            switch node {
            case .text(let text): result += text
            case .timestamp: break
            case .span(let span): appendPlainText(of: span.children, to: &result)
            }
        }
    }

    /// `nodes` with spans deeper than ``maximumDepth`` replaced by their children, and how many
    /// spans were removed. For readers whose nesting is bounded but can exceed the cap (TTML
    /// elements each become up to four spans).
    public static func limitingDepth(_ nodes: [InlineNode], to limit: Int = maximumDepth) -> ([InlineNode], removed: Int) {
        var removed = 0
        func limited(_ nodes: [InlineNode], depth: Int) -> [InlineNode] {
            var result: [InlineNode] = []
            result.reserveCapacity(nodes.count)
            for node in nodes {
                guard case .span(var span) = node else {
                    result.append(node)
                    continue
                }
                if depth < limit {
                    span.children = limited(span.children, depth: depth + 1)
                    result.append(.span(span))
                } else {
                    removed += 1
                    result.append(contentsOf: limited(span.children, depth: depth))
                }
            }
            return result
        }
        let result = limited(nodes, depth: 0)
        return (result, removed)
    }

    /// How deeply spans nest in `nodes` (0 for text only).
    public static func depth(of nodes: [InlineNode]) -> Int {
        var deepest = 0
        for case .span(let span) in nodes { deepest = max(deepest, 1 + depth(of: span.children)) }
        return deepest
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

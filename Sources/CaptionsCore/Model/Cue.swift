/// One timed piece of text.
public struct Cue: Sendable, Hashable {
    // Stored so that a cue packs into 96 bytes: large files hold hundreds of thousands of cues.

    /// The identifier (WebVTT cue id or SRT index as written); may be empty.
    public var id: String
    /// When the cue appears.
    public var start: MediaTime
    /// When it disappears; `nil` means "until the end of the media".
    public var end: MediaTime?
    /// Where the cue starts in the source.
    public var location: SourceLocation?
    /// Non-default settings, held out of line: most cues have none.
    @usableFromInline var placement: Placement?
    /// Who speaks, when known (from a WebVTT voice span, TTML `ttm:agent`, …).
    public var speaker: String?
    /// The text as a tree of inline nodes.
    public var content: [InlineNode]

    /// Placement and alignment, in WebVTT's terms.
    public var settings: CueSettings {
        get { placement?.settings ?? CueSettings() }
        set { placement = newValue.isDefault ? nil : Placement(newValue) }
    }

    /// A cue; settings default to automatic placement. (Inlinable so that readers build cues in
    /// place: called across modules, it copied and destroyed a temporary cue every time.)
    @inlinable public init(
        id: String = "", start: MediaTime, end: MediaTime?, settings: CueSettings = CueSettings(),
        speaker: String? = nil, content: [InlineNode], location: SourceLocation? = nil
    ) {
        let placement = settings.isDefault ? nil : Placement(settings)
        self.id = id
        self.start = start
        self.end = end
        self.location = location
        self.placement = placement
        self.speaker = speaker
        self.content = content
    }

    /// Settings that are not the defaults, shared between copies of a cue.
    @usableFromInline final class Placement: Sendable, Hashable {
        @usableFromInline let settings: CueSettings

        @usableFromInline init(_ settings: CueSettings) { self.settings = settings }

        @usableFromInline static func == (lhs: Placement, rhs: Placement) -> Bool { lhs.settings == rhs.settings }
        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(settings) }
    }

    /// The cue's text without markup, line breaks kept as LF.
    public var plainText: String {
        var text = ""
        InlineNode.appendPlainText(of: content, to: &text)
        return text
    }

    /// The first voice span's annotation, the speaker as WebVTT writes it.
    /// Depth first, without recursion: the tree may come from code that did not cap its depth.
    public static func firstVoice(in nodes: [InlineNode]) -> String? {
        var pending: [ArraySlice<InlineNode>] = [nodes[...]]
        while var level = pending.popLast() {
            while let node = level.popFirst() {
                guard case .span(let span) = node else { continue }
                if span.kind == .voice { return span.annotation ?? "" }
                pending.append(level)
                level = span.children[...]
            }
        }
        return nil
    }
}

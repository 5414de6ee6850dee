import CaptionsCore

/// Builds an ``InlineNode`` tree from a flat stream of text, open and close events; shared by the
/// WebVTT and SRT cue text parsers.
///
/// Spans nest at most ``InlineNode/maximumDepth`` deep: a start tag deeper than that is dropped
/// (its text goes into the innermost kept span), counted in ``droppedForDepth``, and the matching
/// end tag is dropped with it. Joined text is gathered in one buffer, so that text split by many
/// dropped tags is joined in linear time.
struct InlineTreeBuilder {
    /// Whether text appended after text joins it (SRT and the other formats without WebVTT's DOM)
    /// or stays a separate node (WebVTT's DOM). Joining builders also keep no span that says
    /// nothing (a class span without class or style, such as an SRT `<font size="8">` whose
    /// attributes were all dropped): its content joins its parent's, so that a cue reads as plain
    /// text when nothing but its words was kept, as it does once written back.
    var joinsAdjacentText: Bool
    /// Start tags dropped because they would have nested deeper than ``InlineNode/maximumDepth``.
    private(set) var droppedForDepth = 0
    /// The spans still open when ``finish()`` closed them, outermost first: a start tag without
    /// its end tag, which `captions check` reports as unbalanced markup.
    private(set) var closedAtEnd: [Span.Kind] = []
    private var root: [InlineNode] = []
    private var open: [Span] = []
    /// Text not yet appended as a node (only when ``joinsAdjacentText``).
    private var pendingText = ""
    /// Dropped start tags not yet closed, by kind.
    private var droppedOpen: [Span.Kind: Int] = [:]

    init(joinsAdjacentText: Bool) { self.joinsAdjacentText = joinsAdjacentText }

    /// The kind of the innermost open span.
    var currentKind: Span.Kind? { open.last?.kind }

    /// Whether a span of `kind` is open anywhere.
    func isOpen(_ kind: Span.Kind) -> Bool { open.contains { $0.kind == kind } }

    mutating func append(_ node: InlineNode) {
        flushText()
        appendNode(node)
    }

    private mutating func appendNode(_ node: InlineNode) {
        if open.isEmpty { Self.add(node, to: &root, joining: joinsAdjacentText) } else {
            Self.add(node, to: &open[open.count - 1].children, joining: joinsAdjacentText)
        }
    }

    /// Appends `node` to `nodes`; text after text joins it when `joining`.
    private static func add(_ node: InlineNode, to nodes: inout [InlineNode], joining: Bool) {
        if joining, case .text(let text) = node, case .text(let before)? = nodes.last {
            nodes[nodes.count - 1] = .text(before + text)
        } else {
            nodes.append(node)
        }
    }

    mutating func appendText(_ text: String) {
        guard !text.isEmpty else { return }
        guard joinsAdjacentText else {
            appendNode(.text(text))
            return
        }
        pendingText += text
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        appendNode(.text(pendingText))
        pendingText = ""
    }

    /// Opens `span`, unless that would nest deeper than ``InlineNode/maximumDepth``.
    mutating func open(_ span: Span) {
        guard open.count < InlineNode.maximumDepth else {
            droppedForDepth += 1
            droppedOpen[span.kind, default: 0] += 1
            return
        }
        flushText()
        open.append(span)
    }

    /// Whether an end tag of `kind` belongs to a start tag dropped for depth; if so, it is used up.
    mutating func consumeDroppedClose(_ kind: Span.Kind) -> Bool {
        guard let count = droppedOpen[kind], count > 0 else { return false }
        droppedOpen[kind] = count - 1
        return true
    }

    /// Closes the innermost open span.
    mutating func closeCurrent() {
        flushText()
        guard let span = open.popLast() else { return }
        if joinsAdjacentText, span.kind == .class, span.classes.isEmpty, span.annotation == nil,
            span.style?.color == nil, span.style?.backgroundColor == nil {
            for child in span.children { appendNode(child) }
        } else {
            appendNode(.span(span))
        }
    }

    /// Closes spans up to and including the innermost one of `kind`; false when none is open.
    mutating func close(_ kind: Span.Kind) -> Bool {
        if consumeDroppedClose(kind) { return true }
        guard isOpen(kind) else { return false }
        while let current = currentKind {
            closeCurrent()
            if current == kind { break }
        }
        return true
    }

    /// Closes every open span and returns the tree.
    mutating func finish() -> [InlineNode] {
        flushText()
        closedAtEnd = open.map(\.kind)
        while !open.isEmpty { closeCurrent() }
        return root
    }
}

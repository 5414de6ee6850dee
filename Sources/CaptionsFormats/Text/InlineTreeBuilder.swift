import CaptionsCore

/// Builds an ``InlineNode`` tree from a flat stream of text, open and close events; shared by the
/// WebVTT and SRT cue text parsers.
struct InlineTreeBuilder {
    /// Whether text appended after text joins it (SRT) or stays a separate node (WebVTT's DOM).
    var joinsAdjacentText: Bool
    private var root: [InlineNode] = []
    private var open: [Span] = []

    init(joinsAdjacentText: Bool) { self.joinsAdjacentText = joinsAdjacentText }

    /// The kind of the innermost open span.
    var currentKind: Span.Kind? { open.last?.kind }

    /// Whether a span of `kind` is open anywhere.
    func isOpen(_ kind: Span.Kind) -> Bool { open.contains { $0.kind == kind } }

    mutating func append(_ node: InlineNode) {
        if open.isEmpty { root.append(node) } else { open[open.count - 1].children.append(node) }
    }

    mutating func appendText(_ text: String) {
        guard !text.isEmpty else { return }
        guard joinsAdjacentText else {
            append(.text(text))
            return
        }
        if open.isEmpty {
            if case .text(let previous) = root.last { root[root.count - 1] = .text(previous + text) } else { root.append(.text(text)) }
        } else {
            let top = open.count - 1
            if case .text(let previous) = open[top].children.last {
                open[top].children[open[top].children.count - 1] = .text(previous + text)
            } else {
                open[top].children.append(.text(text))
            }
        }
    }

    mutating func open(_ span: Span) { open.append(span) }

    /// Closes the innermost open span.
    mutating func closeCurrent() {
        guard let span = open.popLast() else { return }
        append(.span(span))
    }

    /// Closes spans up to and including the innermost one of `kind`; false when none is open.
    mutating func close(_ kind: Span.Kind) -> Bool {
        guard isOpen(kind) else { return false }
        while let current = currentKind {
            closeCurrent()
            if current == kind { break }
        }
        return true
    }

    /// Closes every open span and returns the tree.
    mutating func finish() -> [InlineNode] {
        while !open.isEmpty { closeCurrent() }
        return root
    }
}

import CaptionsCore

/// The look of a run of text in formats whose styles are a state rather than a nesting (ASS
/// override tags, MicroDVD line codes): italic, bold, underline and a colour.
struct TextLook: Hashable {
    var italic = false, bold = false, underline = false
    var color: RGBAColor?

    /// `nodes` as runs of text of one look each, in order (empty text left out): a span sets its
    /// look for its children, and its end goes back to what the enclosing text had.
    static func runs(of nodes: [InlineNode]) -> [(text: String, look: TextLook)] {
        var runs: [(text: String, look: TextLook)] = []
        func visit(_ nodes: [InlineNode], _ look: TextLook) {
            for node in nodes {
                switch node {
                case .text(let text):
                    if !text.isEmpty { runs.append((text, look)) }
                case .timestamp:
                    break
                case .span(let span):
                    var inner = look
                    switch span.kind {
                    case .italic: inner.italic = true
                    case .bold: inner.bold = true
                    case .underline: inner.underline = true
                    default: if let color = span.style?.color { inner.color = color }
                    }
                    visit(span.children, inner)
                }
            }
        }
        visit(nodes, TextLook())
        return runs
    }
}

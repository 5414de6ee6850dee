import CaptionsCore

/// A cue's text when it is plain, or plain inside one span (a voice, whole-cue italics), with the
/// way to put re-broken text back into the same span.
struct PlainShape {
    let text: String
    private let wrapper: Span?

    init?(_ cue: Cue) {
        var nodes = cue.content
        var wrapper: Span?
        if nodes.count == 1, case .span(let span) = nodes[0], span.kind != .ruby, span.kind != .rubyText {
            wrapper = span
            nodes = span.children
        }
        var text = ""
        for node in nodes {
            guard case .text(let part) = node else { return nil }
            text += part
        }
        self.text = text
        self.wrapper = wrapper
    }

    /// Lines that each start with a dash: two speakers in one cue, whose lines must stay apart.
    var isDialogue: Bool {
        // Lines split as `split(separator: "\n")` splits them (empty lines are not lines), in
        // UTF-8: "-", "–" (E2 80 93) or "—" (E2 80 94) first on each.
        var lines = 0
        var rest = text.utf8[...]
        while let first = rest.first {
            guard first != 0x0A else {
                rest = rest.dropFirst()
                continue
            }
            lines += 1
            guard first == 0x2D || rest.starts(with: [0xE2, 0x80, 0x93]) || rest.starts(with: [0xE2, 0x80, 0x94]) else { return false }
            rest = rest.drop { $0 != 0x0A }
        }
        return lines > 1
    }

    /// Whether two cues' text sits in the same kind of span (so that it can be merged).
    func matches(_ other: PlainShape) -> Bool {
        switch (wrapper, other.wrapper) {
        case (nil, nil): true
        case (let first?, let second?): first.kind == second.kind && first.classes == second.classes && first.annotation == second.annotation
        default: false
        }
    }

    /// The nodes for new text in the same span.
    func rebuild(_ text: String) -> [InlineNode] {
        guard var wrapper else { return [.text(text)] }
        wrapper.children = [.text(text)]
        return [.span(wrapper)]
    }
}

import CaptionsCore

/// Names of things left out, for one note: each name once, and where the first was.
struct SAMILeftOut {
    private(set) var names: Set<String> = []
    private(set) var first: SourceLocation?
    private(set) var count = 0

    mutating func add(_ name: String, at location: SourceLocation) {
        names.insert(name)
        count += 1
        if first == nil { first = location }
    }

    /// The names, sorted, comma-separated.
    var list: String { names.sorted().joined(separator: ", ") }
}

/// What reading paragraphs noticed, reported once per kind by the reader.
struct SAMINotes {
    /// Tags and attributes with no equivalent.
    var tags = SAMILeftOut()
    /// CSS properties and values with no equivalent.
    var styles = SAMILeftOut()
    /// End tags that close nothing.
    var unmatched = SAMILeftOut()
    /// Tags nested too deep, dropped (their text kept).
    var deep = SAMILeftOut()
}

/// One paragraph of a SYNC, read: its language class, text, alignment and where it is.
struct SAMIParagraphText {
    var className: String?
    var content: [InlineNode]
    var align: CueSettings.Align?
    /// Nothing but white space and `&nbsp;`: the paragraph clears the screen.
    var isBlank: Bool
    var location: SourceLocation
}

/// One `<P>` (or text directly in a SYNC) as it is read: its attributes, and its inline content as
/// a flat list of text, line breaks and spans opening and closing, turned into a tree when it ends.
///
/// White space collapses as HTML collapses it: every run of spaces, tabs and line ends is one
/// space, and none is kept at the start or end of a line (around `<BR>`); `&nbsp;` is kept. Tags
/// nest through an explicit stack, never recursion, and at most ``InlineNode/maximumDepth`` spans deep.
struct SAMIParagraph {
    private enum Item {
        case text(String)
        case lineBreak
        /// The spans one element opens, outermost first.
        case open([Span])
        /// The end of the innermost element that opened spans.
        case close
    }

    private let className: String?
    private let id: String?
    private let styleAttribute: String?
    private let alignAttribute: String?
    private let enclosingAlign: CueSettings.Align?
    private let location: SourceLocation
    /// The first alignment a `<DIV>` inside the paragraph gives.
    private var innerAlign: CueSettings.Align?
    private var items: [Item] = []
    /// Open elements: name, and whether it opened spans.
    private var elements: [(name: String, hasSpans: Bool)] = []
    /// Elements dropped for depth, by name, not yet closed.
    private var droppedElements: [String: Int] = [:]

    /// The deepest elements nest inside a paragraph (spans are capped again, at
    /// ``InlineNode/maximumDepth``, when the tree is built).
    static let maximumElements = InlineNode.maximumDepth * 4

    /// A paragraph from its `<P>` tag (`nil`: text found directly in a SYNC).
    init(_ tag: SAMITag?, enclosingAlign: CueSettings.Align?, at location: SourceLocation) {
        // The first class of `class="A B"` (SAMI gives one: the language).
        className = tag?.attribute("class")?.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init)
        id = tag?.attribute("id").map { $0.trimmingHTMLSpaces.lowercased() }
        styleAttribute = tag?.attribute("style")
        alignAttribute = tag?.attribute("align")
        self.enclosingAlign = enclosingAlign
        self.location = location
    }

    /// Whether an element called `name` is open in the paragraph.
    func isOpen(_ name: String) -> Bool { elements.contains { $0.name == name } }

    /// Adds text (references decoded), each run of HTML white space as one space.
    mutating func appendText(_ text: String) {
        var collapsed = ""
        var inSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}" {
                if !inSpace { collapsed.unicodeScalars.append(" ") }
                inSpace = true
            } else {
                collapsed.unicodeScalars.append(scalar)
                inSpace = false
            }
        }
        if !collapsed.isEmpty { items.append(.text(collapsed)) }
    }

    /// Applies a start tag found inside the paragraph.
    mutating func start(_ tag: SAMITag, sheet: SAMIStyleSheet, at location: SourceLocation, notes: inout SAMINotes) {
        switch tag.name {
        case "br":
            items.append(.lineBreak)
            return
        case "img", "hr", "wbr", "meta", "link", "input", "area", "col", "embed", "source", "track", "param", "basefont":
            notes.tags.add("<\(tag.name)>", at: location)
            return
        default:
            break
        }
        guard elements.count < Self.maximumElements else {
            droppedElements[tag.name, default: 0] += 1
            notes.deep.add(tag.name, at: location)
            return
        }
        var spans: [Span] = []
        switch tag.name {
        case "i", "em": spans = [Span(.italic)]
        case "b", "strong": spans = [Span(.bold)]
        case "u", "ins": spans = [Span(.underline)]
        case "font":
            for (name, value) in tag.attributes {
                if name == "color", let color = RGBAColor(parsing: value) {
                    spans = [Span(.class, style: TextStyle(color: color))]
                } else {
                    notes.tags.add("<font \(name)>", at: location)
                }
            }
        case "span", "div":
            var declarations = sheet.declarations(
                element: tag.name, className: tag.attribute("class")?.lowercased(), id: tag.attribute("id")?.lowercased())
            declarations.merge(tag.attribute("style").map { SAMIStyleSheet.declarations($0[...]) } ?? [:]) { _, new in new }
            let style = Self.style(declarations, keepsWhite: true, at: location, notes: &notes)
            spans = style.spans
            if tag.name == "div" {
                innerAlign = innerAlign ?? style.align ?? tag.attribute("align").flatMap(Self.align)
            } else if declarations["text-align"] != nil {
                // CSS: text-align does nothing on an inline element.
                notes.styles.add("text-align on <span>", at: location)
            }
        default:
            notes.tags.add("<\(tag.name)>", at: location)
        }
        elements.append((tag.name, !spans.isEmpty))
        if !spans.isEmpty { items.append(.open(spans)) }
    }

    /// Applies an end tag found inside the paragraph: closes the innermost open element of that
    /// name and every element inside it.
    mutating func end(_ name: String, at location: SourceLocation, notes: inout SAMINotes) {
        if name == "br" {
            // HTML reads </br> as <br>.
            items.append(.lineBreak)
            return
        }
        if let dropped = droppedElements[name], dropped > 0 {
            droppedElements[name] = dropped - 1
            return
        }
        guard let index = elements.lastIndex(where: { $0.name == name }) else {
            notes.unmatched.add("</\(name)>", at: location)
            return
        }
        while elements.count > index {
            if elements.removeLast().hasSpans { items.append(.close) }
        }
    }

    /// The paragraph's text tree, alignment, and whether it is blank. Its own style (rules for `P`,
    /// its class and id, then its `style` attribute) wraps the text; its alignment is, first found:
    /// its `style`, its `align`, a `<DIV>` inside or around it, the style sheet.
    consuming func finish(sheet: SAMIStyleSheet, notes: inout SAMINotes) -> SAMIParagraphText {
        let rules = sheet.declarations(element: "p", className: className, id: id)
        let inline = styleAttribute.map { SAMIStyleSheet.declarations($0[...]) } ?? [:]
        let style = Self.style(rules.merging(inline) { _, new in new }, keepsWhite: inline["color"] != nil, at: location, notes: &notes)
        let align = inline["text-align"].flatMap(Self.align) ?? alignAttribute.flatMap(Self.align) ?? innerAlign ?? enclosingAlign
            ?? rules["text-align"].flatMap(Self.align)
        let isBlank = collapseWhiteSpace()
        guard !isBlank else { return SAMIParagraphText(className: className, content: [], align: align, isBlank: true, location: location) }

        var builder = InlineTreeBuilder(joinsAdjacentText: true)
        for span in style.spans { builder.open(span) }
        // Spans open when text comes, so that an element holding nothing makes no span.
        enum Open {
            case pending([Span])
            case opened([(kind: Span.Kind, kept: Bool)])
        }
        var stack: [Open] = []
        var firstPending = 0
        func openPending() {
            for index in firstPending..<stack.count {
                guard case .pending(let spans) = stack[index] else { continue }
                stack[index] = .opened(spans.map { span in
                    let dropped = builder.droppedForDepth
                    builder.open(span)
                    return (span.kind, builder.droppedForDepth == dropped)
                })
            }
            firstPending = stack.count
        }
        for item in items {
            switch item {
            case .text(let text):
                guard !text.isEmpty else { continue }
                openPending()
                builder.appendText(text)
            case .lineBreak:
                openPending()
                builder.appendText("\n")
            case .open(let spans):
                stack.append(.pending(spans))
            case .close:
                guard let top = stack.popLast() else { continue }
                firstPending = min(firstPending, stack.count)
                guard case .opened(let spans) = top else { continue }
                for span in spans.reversed() {
                    if span.kept { builder.closeCurrent() } else { _ = builder.consumeDroppedClose(span.kind) }
                }
            }
        }
        let content = builder.finish()
        if builder.droppedForDepth > 0 { notes.deep.add("span", at: location) }
        return SAMIParagraphText(className: className, content: content, align: align, isBlank: false, location: location)
    }

    /// Drops the spaces HTML does not show (at the start and end of every line, after another
    /// space) and a line break that ends the paragraph; true when nothing visible is left.
    private mutating func collapseWhiteSpace() -> Bool {
        var atLineStart = true
        var afterSpace = false
        var lastText: Int?
        var lastBreak: Int?
        var isBlank = true
        func trimLastText() {
            guard let index = lastText, case .text(var text) = items[index], text.hasSuffix(" ") else { return }
            text.removeLast()
            items[index] = .text(text)
        }
        for index in items.indices {
            switch items[index] {
            case .text(var text):
                if atLineStart || afterSpace, text.hasPrefix(" ") { text.removeFirst() }
                guard !text.isEmpty else {
                    items[index] = .text("")
                    continue
                }
                items[index] = .text(text)
                atLineStart = false
                afterSpace = text.hasSuffix(" ")
                lastText = index
                lastBreak = nil
                if isBlank, text.unicodeScalars.contains(where: { $0 != " " && $0 != "\u{A0}" }) { isBlank = false }
            case .lineBreak:
                trimLastText()
                atLineStart = true
                afterSpace = false
                lastText = nil
                lastBreak = index
            case .open, .close:
                continue
            }
        }
        trimLastText()
        // HTML shows no empty line for a <BR> that ends a paragraph.
        if let lastBreak { items[lastBreak] = .text("") }
        return isBlank
    }

    /// What CSS declarations make of text: spans (colour outermost, then bold, italic, underline)
    /// and an alignment. White is the usual colour of captions: unless `keepsWhite`, it makes no span.
    static func style(
        _ declarations: [String: String], keepsWhite: Bool, at location: SourceLocation, notes: inout SAMINotes
    ) -> (spans: [Span], align: CueSettings.Align?) {
        var color: RGBAColor?
        var kinds: Set<Span.Kind> = []
        var align: CueSettings.Align?
        for (name, rawValue) in declarations.sorted(by: { $0.key < $1.key }) {
            let value = rawValue.lowercased()
            switch name {
            case "color":
                if let parsed = RGBAColor(parsing: value) {
                    if keepsWhite || parsed != RGBAColor(red: 255, green: 255, blue: 255) { color = parsed }
                } else {
                    notes.styles.add("color: \(rawValue)", at: location)
                }
            case "font-style" where value == "italic" || value == "oblique": kinds.insert(.italic)
            case "font-weight" where value == "bold" || value == "bolder" || (Int(value) ?? 0) >= 600: kinds.insert(.bold)
            case "text-decoration" where value.contains("underline"): kinds.insert(.underline)
            case "font-weight":
                continue  // normal, lighter, or a light weight
            case "font-style" where value == "normal":
                continue
            case "text-decoration" where value == "none":
                continue
            case "text-align":
                align = Self.align(value)
                if align == nil { notes.styles.add("text-align: \(rawValue)", at: location) }
            case "lang", "name", "samitype", "sami_type", "sami-type":
                continue  // what a language class says about itself
            default:
                notes.styles.add(name, at: location)
            }
        }
        var spans: [Span] = []
        if let color { spans.append(Span(.class, style: TextStyle(color: color))) }
        for kind in [Span.Kind.bold, .italic, .underline] where kinds.contains(kind) { spans.append(Span(kind)) }
        return (spans, align)
    }

    /// `left`, `right`, `center` (or `centre`), `start`, `end` as a cue alignment.
    static func align(_ value: String) -> CueSettings.Align? {
        switch value.trimmingHTMLSpaces.lowercased() {
        case "left": .left
        case "right": .right
        case "center", "centre", "middle": .center
        case "start": .start
        case "end": .end
        default: nil
        }
    }
}

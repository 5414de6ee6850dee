import CaptionsCore

/// Resolves a TTML tree: styles, regions and agents from the head, timing over the body, then
/// cues (in `TTMLResolver+Cues.swift`).
struct TTMLResolver {
    let root: XMLElement
    var timing: TTMLTiming
    var diagnostics: [Diagnostic] = []
    var cues: [Cue] = []
    var styles: [String: XMLElement] = [:]
    var regions: [String: TimedElement] = [:]
    var hasRegions = false
    /// Paragraphs left out because an ancestor names another region (reported once).
    var prunedByAncestorRegion = 0
    var reportedDepth = false
    /// Paragraphs with text in no region the document defines (reported once, with the count).
    var unshown = Unshown()
    var agents: [String: String] = [:]
    /// The document's `ttm:title` and its `ttm:desc` texts as comments, with their lines.
    var title = ""
    var descriptions: [Comment] = []

    init(root: XMLElement) {
        self.root = root
        var problems: [(Diagnostic.Code, String)] = []
        timing = TTMLTiming(root: root) { problems.append(($0, $1)) }
        diagnostics = problems.map { Diagnostic(.warning, $0.0, $0.1, at: root.location) }
    }

    mutating func resolve() {
        let documentTime = TimedElement(element: root, parent: nil, begin: .zero, end: nil)
        for head in root.elements where head.name == "head" { readHead(head, document: documentTime) }
        reportStyling(root)
        guard let body = root.elements.first(where: { $0.name == "body" }) else { return }
        reportImages(body)
        let timedBody = timed(body, parent: documentTime, reference: .zero)
        documentTime.children.append(timedBody)
        for paragraph in paragraphs(in: timedBody) {
            addCues(for: paragraph)
            // The paragraph is in cues now: let its subtree go, so the trees shrink as the cues grow.
            paragraph.element.children.removeAll()
            paragraph.children.removeAll()
        }
        if let report = unshown.diagnostic { diagnostics.append(report) }
        cues.sort { $0.start < $1.start }
        withExtendedLifetime(documentTime) {}
    }

    /// Paragraphs that TTML's region association shows nowhere: with regions defined, a paragraph
    /// in none of them (no `region` on it, its ancestors or its spans, or only names the layout
    /// does not define) is presented by no conforming player. ttconv leaves them out, and so do we,
    /// but never silently: a file of such paragraphs used to read as no cues with exit 0.
    struct Unshown {
        var count = 0
        var first: SourceLocation?
        /// Region names they use that the layout does not define.
        var undefinedRegions: Set<String> = []

        /// The warning that counts them, `nil` when there are none.
        var diagnostic: Diagnostic? {
            guard count > 0 else { return nil }
            let names = undefinedRegions.sorted()
            let which = count == 1 ? "1 paragraph with text is" : "\(count) paragraphs with text are"
            let why = names.isEmpty
                ? "in no region, although the document defines regions"
                : "in no region the document defines (\(names.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")) not in its layout)"
            return Diagnostic(
                .warning, names.isEmpty ? "ttml.region.none" : "ttml.region.undefined",
                "\(which) \(why): TTML's region association shows them in no conforming player; left out, as ttconv "
                    + "does. Name a defined region on them or on <body> to keep them", at: first)
        }
    }

    /// Reports image captions (`smpte:backgroundImage`, IMSC 1.1 `<image>`), which are not read:
    /// a file of them would otherwise read as no cues without a word.
    private mutating func reportImages(_ body: XMLElement) {
        var (count, first): (Int, SourceLocation?) = (0, nil)
        func scan(_ element: XMLElement) {
            if element.name == "image" || element.attributes.contains(where: { $0.name == "backgroundImage" }) {
                count += 1
                first = first ?? element.location
            }
            for child in element.elements { scan(child) }
        }
        scan(body)
        guard count > 0 else { return }
        diagnostics.append(Diagnostic(
            .warning, "ttml.image.unsupported",
            "\(count) image caption\(count == 1 ? "" : "s") (smpte:backgroundImage or <image>) not read: only text is",
            at: first))
    }

    // MARK: Head

    private mutating func readHead(_ head: XMLElement, document: TimedElement) {
        for section in head.elements {
            switch section.name {
            case "styling":
                for style in section.elements where style.name == "style" {
                    if let id = style.attribute("id", namespace: TTMLNamespace.xml) { styles[id] = style }
                }
            case "layout":
                for region in section.elements where region.name == "region" {
                    // A region no element can name (xml:id is required) is left out, as ttconv
                    // does; were it counted, it would hide every paragraph from the default region.
                    guard let id = region.attribute("id", namespace: TTMLNamespace.xml) else {
                        diagnostics.append(Diagnostic(
                            .warning, "ttml.region.noID", "a region without xml:id cannot be used; ignored", at: region.location))
                        continue
                    }
                    hasRegions = true
                    regions[id] = timed(region, parent: document, reference: .zero)
                }
            case "metadata":
                for agent in section.elements where agent.name == "agent" && agent.namespace == TTMLNamespace.metadata {
                    guard let id = agent.attribute("id", namespace: TTMLNamespace.xml) else { continue }
                    let name = agent.elements.first { $0.name == "name" }.map(Self.text(of:))?.trimmingASCIIWhitespace()
                    agents[id] = name.map(String.init) ?? id
                }
                for element in section.elements { readMetadataText(element) }
            case "title", "desc":
                readMetadataText(section)
            default:
                break
            }
        }
    }

    /// A `ttm:title` (the document's title) or `ttm:desc` (a description, read as a comment).
    private mutating func readMetadataText(_ element: XMLElement) {
        guard element.namespace == TTMLNamespace.metadata else { return }
        let text = String(Self.text(of: element).trimmingASCIIWhitespace())
        guard !text.isEmpty else { return }
        if element.name == "title", title.isEmpty { title = text }
        if element.name == "desc" {
            descriptions.append(Comment(text: text, beforeCue: 0, location: SourceLocation(line: element.line, column: 1)))
        }
    }

    /// TTML styling attributes the reader turns into the model.
    static let usedStyles: Set<String> = [
        "display", "color", "fontStyle", "fontWeight", "textDecoration", "textAlign", "origin", "extent", "displayAlign",
        "writingMode", "ruby",
    ]
    /// TTML styling attributes that exist but have no equivalent in the model (reported as notes).
    static let ignoredStyles: Set<String> = [
        "backgroundColor", "direction", "fontFamily", "fontSize", "lineHeight", "opacity", "overflow", "padding",
        "showBackground", "textOutline", "unicodeBidi", "visibility", "wrapOption", "zIndex", "fontVariant", "linePadding",
        "multiRowAlign", "textCombine", "textEmphasis", "textShadow", "rubyAlign", "rubyPosition", "rubyReserve",
        "shear", "fillLineGap", "luminanceGain", "position", "disparity", "backgroundImage",
    ]

    /// Styles that change what is seen, written as text anyone sees, each a warning: hidden text
    /// (a quiz's answer) and struck-out text (a correction, a price no longer asked).
    private static let seenChanges: [String: String] = [
        "ttml.style.hidden":
            "text hidden at some time (tts:visibility hidden, tts:opacity 0, a transparent tts:color) is written as text shown for the whole of its time: the target cannot hide it",
        "ttml.style.lineThrough": "struck-out text (tts:textDecoration lineThrough) has no equivalent here: kept as plain text",
    ]

    /// The code of the change to what is seen that `attribute` makes (``seenChanges``), if any.
    private static func seenChange(_ attribute: (namespace: String, name: String, value: String)) -> String? {
        switch attribute.name {
        case "visibility" where attribute.value.contains("hidden"): "ttml.style.hidden"
        case "opacity" where Double(attribute.value.filter { !$0.isWhitespace }).map({ $0 <= 0 }) == true: "ttml.style.hidden"
        case "color" where RGBAColor(parsing: attribute.value)?.alpha == 0: "ttml.style.hidden"
        case "textDecoration" where attribute.value.contains("lineThrough"): "ttml.style.lineThrough"
        default: nil
        }
    }

    /// Reports styling attributes that are dropped (`ttml.style.ignored`, once per attribute) or
    /// not TTML at all (`ttml.style.unknown`), and the ``seenChanges``, with the line of their
    /// first use.
    private mutating func reportStyling(_ element: XMLElement) {
        var first: [String: (line: Int, count: Int)] = [:]
        func scan(_ element: XMLElement) {
            for attribute in element.attributes where attribute.namespace == TTMLNamespace.styling {
                let dropped = Self.usedStyles.contains(attribute.name) ? nil : attribute.name
                for key in [Self.seenChange(attribute), dropped].compactMap({ $0 }) {
                    let entry = first[key]
                    first[key] = (entry?.line ?? element.line, (entry?.count ?? 0) + 1)
                }
            }
            for child in element.elements { scan(child) }
        }
        scan(element)
        for (name, entry) in first.sorted(by: { ($0.value.line, $0.key) < ($1.value.line, $1.key) }) {
            if let message = Self.seenChanges[name] {
                diagnostics.append(Diagnostic(
                    .warning, Diagnostic.Code(rawValue: name), "\(message) (\(entry.count) use(s))", at: SourceLocation(line: entry.line, column: 1)))
                continue
            }
            let known = Self.ignoredStyles.contains(name)
            diagnostics.append(Diagnostic(
                known ? .note : .warning, known ? "ttml.style.ignored" : "ttml.style.unknown",
                known ? "tts:\(name) has no equivalent here and is not kept (\(entry.count) use(s))"
                    : "tts:\(name) is not a TTML style attribute; ignored (\(entry.count) use(s))",
                at: SourceLocation(line: entry.line, column: 1)))
        }
    }

    // MARK: Timing

    private mutating func time(_ attribute: String, of element: XMLElement) -> MediaTime? {
        guard let text = element.attribute(attribute) else { return nil }
        do {
            return try timing.parse(text)
        } catch {
            diagnostics.append(Diagnostic(.warning, error.code, "\(attribute): \(error.message); ignored", at: element.location))
            return nil
        }
    }

    /// Resolves `element`'s interval inside `parent`, with `reference` the time its `begin` counts
    /// from (the parent's begin in a `par`, the previous sibling's end in a `seq`), then its children.
    private mutating func timed(_ element: XMLElement, parent: TimedElement, reference: MediaTime) -> TimedElement {
        let begin = reference + (time("begin", of: element) ?? .zero)
        var end: MediaTime? = time("end", of: element).map { reference + $0 }
        if let duration = time("dur", of: element) { end = min(end ?? begin + duration, begin + duration) }
        let isSeq = element.attribute("timeContainer") == "seq"
        let contentChildren = element.elements.filter(Self.isTimedContent)
        if isSeq, end == nil {
            // A seq without an end lasts until its last child ends.
            end = Self.sequenceEnd(of: contentChildren, from: begin, resolver: &self)
        }
        let clippedBegin = max(begin, parent.begin)
        var clippedEnd = [end ?? parent.end, parent.end].compactMap { $0 }.min()
        if let last = clippedEnd, last < clippedBegin { clippedEnd = clippedBegin }
        let node = TimedElement(element: element, parent: parent, begin: clippedBegin, end: clippedEnd)
        var childReference: MediaTime? = begin
        for child in contentChildren {
            guard let reference = childReference else { break }
            let timedChild = timed(child, parent: node, reference: reference)
            if child.name == "set" { node.sets.append(timedChild) } else { node.children.append(timedChild) }
            if isSeq, child.name != "set" { childReference = Self.end(of: child, timed: timedChild, resolver: &self) }
        }
        return node
    }

    /// TTML elements that take part in timing and presentation; metadata and foreign elements do not.
    static func isTimedContent(_ element: XMLElement) -> Bool {
        guard element.namespace == TTMLNamespace.ttml else { return false }
        switch element.name {
        case "div", "p", "span", "br", "set": return true
        default: return false
        }
    }

    /// Where the next child of a seq begins: this child's end (an element without an end of its
    /// own and with no children has the implicit duration 0; one with children lasts indefinitely).
    static func end(of child: XMLElement, timed: TimedElement, resolver: inout TTMLResolver) -> MediaTime? {
        let explicit = child.attribute("end") != nil || child.attribute("dur") != nil
        if explicit || child.attribute("timeContainer") == "seq" { return timed.end }
        return child.elements.isEmpty ? timed.begin : nil
    }

    /// The end of a seq container's last child, or nil (indefinite) when one never ends.
    static func sequenceEnd(of children: [XMLElement], from begin: MediaTime, resolver: inout TTMLResolver) -> MediaTime? {
        var time: MediaTime? = begin
        for child in children where child.name != "set" {
            guard let start = time else { return nil }
            let childBegin = start + (resolver.time("begin", of: child) ?? .zero)
            var childEnd = resolver.time("end", of: child).map { start + $0 }
            if let duration = resolver.time("dur", of: child) { childEnd = min(childEnd ?? childBegin + duration, childBegin + duration) }
            if childEnd == nil, child.attribute("timeContainer") == "seq" {
                childEnd = sequenceEnd(of: child.elements.filter(isTimedContent), from: childBegin, resolver: &resolver)
            } else if childEnd == nil, child.elements.isEmpty {
                childEnd = childBegin
            }
            time = childEnd
        }
        return time
    }

    private func paragraphs(in node: TimedElement) -> [TimedElement] {
        node.element.name == "p" ? [node] : node.children.flatMap { paragraphs(in: $0) }
    }
}

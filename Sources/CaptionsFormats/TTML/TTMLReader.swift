import CaptionsCore

/// Reads TTML (IMSC1 text, DFXP, SMPTE-TT, EBU-TT-D) into cues the way a player shows them.
///
/// Timing follows TTML: `par` and `seq` time containers, `begin`, `end` and `dur` on every
/// level, clipped by the parent, in any time base and time expression (``TTMLTiming``). What a
/// paragraph shows can change inside it (timed spans, `set` animations of `tts:display`, a timed
/// region), so each `p` becomes one cue per stretch of time in which its visible content stays the
/// same; stretches with no visible text (a `display` of `none`, an empty paragraph, content outside
/// every region) give no cue. Italic, bold, underline and colours become spans, `<br/>` a line
/// break, `ttm:agent` the speaker, `xml:lang` on the root the language.
public struct TTMLReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Parses a TTML document; throws for XML that is not well-formed or not TTML.
    public func read(_ input: [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let root = try XMLTree.parse(input, codePrefix: "ttml")
        guard root.name == "tt", root.namespace == TTMLNamespace.ttml else {
            throw CaptionsError("ttml.root.missing", "not TTML: the root element is not tt in the TTML namespace", at: root.location)
        }
        var resolver = TTMLResolver(root: root)
        resolver.resolve()
        var document = TimedTextDocument(cues: resolver.cues, diagnostics: resolver.diagnostics, sourceFormat: "ttml")
        document.language = root.attribute("lang", namespace: TTMLNamespace.xml).flatMap { $0.isEmpty ? nil : $0 }
        return document
    }
}

/// An element with its resolved active interval (absolute media time; a nil end is "indefinite").
private final class TimedElement {
    let element: XMLElement
    let parent: TimedElement?
    let begin: MediaTime
    let end: MediaTime?
    var children: [TimedElement] = []

    init(element: XMLElement, parent: TimedElement?, begin: MediaTime, end: MediaTime?) {
        self.element = element
        self.parent = parent
        self.begin = begin
        self.end = end
    }

    func isActive(at time: MediaTime) -> Bool {
        begin <= time && end.map { time < $0 } ?? true
    }
}

private struct TTMLResolver {
    let root: XMLElement
    var timing: TTMLTiming
    var diagnostics: [Diagnostic] = []
    var cues: [Cue] = []
    private var styles: [String: XMLElement] = [:]
    private var regions: [String: TimedElement] = [:]
    private var hasRegions = false
    private var agents: [String: String] = [:]

    init(root: XMLElement) {
        self.root = root
        var problems: [(Diagnostic.Code, String)] = []
        timing = TTMLTiming(root: root) { problems.append(($0, $1)) }
        diagnostics = problems.map { Diagnostic(.warning, $0.0, $0.1, at: root.location) }
    }

    mutating func resolve() {
        let documentTime = TimedElement(element: root, parent: nil, begin: .zero, end: nil)
        for head in root.elements where head.name == "head" { readHead(head, document: documentTime) }
        guard let body = root.elements.first(where: { $0.name == "body" }) else { return }
        let timedBody = timed(body, parent: documentTime, reference: .zero)
        for paragraph in paragraphs(in: timedBody) { addCues(for: paragraph) }
        cues.sort { $0.start < $1.start }
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
                    hasRegions = true
                    guard let id = region.attribute("id", namespace: TTMLNamespace.xml) else { continue }
                    regions[id] = timed(region, parent: document, reference: .zero)
                }
            case "metadata":
                for agent in section.elements where agent.name == "agent" && agent.namespace == TTMLNamespace.metadata {
                    guard let id = agent.attribute("id", namespace: TTMLNamespace.xml) else { continue }
                    let name = agent.elements.first { $0.name == "name" }.map(Self.text(of:))?.trimmingASCIIWhitespace()
                    agents[id] = name.map(String.init) ?? id
                }
            default:
                break
            }
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
        // Without an explicit end: a seq lasts until its last child ends, anything else as long as its parent.
        let provisionalEnd = end ?? parent.end
        let clippedBegin = max(begin, parent.begin)
        var clippedEnd = [provisionalEnd, parent.end].compactMap { $0 }.min()
        if let end = clippedEnd, end < clippedBegin { clippedEnd = clippedBegin }
        let node = TimedElement(element: element, parent: parent, begin: clippedBegin, end: clippedEnd)
        var previousEnd: MediaTime? = begin
        for child in element.elements where child.name != "set" || true {
            let childReference: MediaTime
            if isSeq {
                guard let previous = previousEnd else { break }
                childReference = previous
            } else {
                childReference = begin
            }
            let timedChild = timed(child, parent: node, reference: childReference)
            node.children.append(timedChild)
            if isSeq {
                let explicit = child.attribute("end") != nil || child.attribute("dur") != nil
                previousEnd = explicit ? timedChild.end : (child.elements.isEmpty ? timedChild.begin : nil)
            }
        }
        if isSeq, end == nil {
            let lastEnd = previousEnd
            let sequenceEnd = [lastEnd, parent.end].compactMap { $0 }.min()
            return TimedElement(element: element, parent: parent, begin: clippedBegin, end: sequenceEnd).adopting(node.children)
        }
        return node
    }

    private func paragraphs(in node: TimedElement) -> [TimedElement] {
        node.element.name == "p" ? [node] : node.children.flatMap { paragraphs(in: $0) }
    }

    // MARK: Cues

    private mutating func addCues(for paragraph: TimedElement) {
        guard let paragraphEnd = paragraph.end ?? Optional(paragraph.begin + MediaTime(seconds: 86_400 * 365)),
            paragraph.begin < paragraphEnd
        else { return }
        var times: Set<MediaTime> = [paragraph.begin, paragraphEnd]
        collectTimes(paragraph, into: &times)
        var ancestor = paragraph.parent
        while let current = ancestor {
            for set in current.children where set.element.name == "set" {
                times.insert(set.begin)
                if let end = set.end { times.insert(end) }
            }
            ancestor = current.parent
        }
        if let region = region(of: paragraph).flatMap({ regions[$0] }) {
            times.insert(region.begin)
            if let end = region.end { times.insert(end) }
            collectTimes(region, into: &times)
        }
        let boundaries = times.filter { $0 >= paragraph.begin && $0 <= paragraphEnd }.sorted()
        var previous: Cue?
        for (start, stop) in zip(boundaries, boundaries.dropFirst()) where start < stop {
            guard isShown(paragraph, at: start) else {
                flush(&previous)
                continue
            }
            let content = Self.trimmed(inline(paragraph, at: start, preserve: space(of: paragraph) == "preserve"))
            guard content.contains(where: Self.hasVisibleText) else {
                flush(&previous)
                continue
            }
            if var open = previous, open.content == content, open.end == start {
                open.end = stop
                previous = open
            } else {
                flush(&previous)
                let endTime: MediaTime? = paragraph.end == nil && stop == paragraphEnd ? nil : stop
                previous = Cue(
                    id: paragraph.element.attribute("id", namespace: TTMLNamespace.xml) ?? "", start: start, end: endTime,
                    speaker: speaker(of: paragraph), content: content, location: paragraph.element.location)
            }
        }
        flush(&previous)
    }

    private mutating func flush(_ cue: inout Cue?) {
        if let finished = cue { cues.append(finished) }
        cue = nil
    }

    private func collectTimes(_ node: TimedElement, into times: inout Set<MediaTime>) {
        for child in node.children {
            times.insert(child.begin)
            if let end = child.end { times.insert(end) }
            collectTimes(child, into: &times)
        }
    }

    /// Whether the element and every ancestor are active and displayed at `time`, in a region that is.
    private func isShown(_ node: TimedElement, at time: MediaTime) -> Bool {
        var current: TimedElement? = node
        while let element = current, element.parent != nil {
            guard element.isActive(at: time), display(of: element, at: time) != "none" else { return false }
            current = element.parent
        }
        if hasRegions {
            guard let id = region(of: node), let region = regions[id], region.isActive(at: time),
                display(of: region, at: time) != "none"
            else { return false }
        }
        return true
    }

    /// `tts:display` at `time`: an active `set` wins, then the inline attribute, then referenced styles.
    private func display(of node: TimedElement, at time: MediaTime) -> String? {
        for set in node.children.reversed() where set.element.name == "set" && set.isActive(at: time) {
            if let value = set.element.attribute("display", namespace: TTMLNamespace.styling) { return value }
        }
        return styleValue("display", of: node.element)
    }

    /// A styling attribute from the element itself, else from the styles it references (later ones win).
    private func styleValue(_ name: String, of element: XMLElement, depth: Int = 0) -> String? {
        if let inline = element.attribute(name, namespace: TTMLNamespace.styling) { return inline }
        guard depth < 16, let references = element.attribute("style") else { return nil }
        for id in references.split(separator: " ").reversed() {
            if let style = styles[String(id)], let value = styleValue(name, of: style, depth: depth + 1) { return value }
        }
        return nil
    }

    private func region(of node: TimedElement) -> String? {
        var current: TimedElement? = node
        while let element = current {
            if let region = element.element.attribute("region") { return region }
            current = element.parent
        }
        return nil
    }

    private func speaker(of node: TimedElement) -> String? {
        var current: TimedElement? = node
        while let element = current {
            if let agent = element.element.attribute("agent", namespace: TTMLNamespace.metadata) {
                let first = agent.split(separator: " ").first.map(String.init) ?? agent
                return agents[first] ?? first
            }
            current = element.parent
        }
        return nil
    }

    private func space(of node: TimedElement) -> String? {
        var current: TimedElement? = node
        while let element = current {
            if let value = element.element.attribute("space", namespace: TTMLNamespace.xml) { return value }
            current = element.parent
        }
        return nil
    }

    /// The paragraph's content active at `time`, as inline nodes.
    private func inline(_ node: TimedElement, at time: MediaTime, preserve: Bool) -> [InlineNode] {
        var nodes: [InlineNode] = []
        var timedChildren = node.children.makeIterator()
        for child in node.element.children {
            switch child {
            case .text(let text):
                let value = preserve ? text : Self.collapse(text)
                if !value.isEmpty { nodes.append(.text(value)) }
            case .element(let element):
                guard let timedChild = timedChildren.next() else { continue }
                guard timedChild.isActive(at: time), display(of: timedChild, at: time) != "none" else { continue }
                switch element.name {
                case "br": nodes.append(.text("\n"))
                case "span":
                    let childPreserve = element.attribute("space", namespace: TTMLNamespace.xml).map { $0 == "preserve" } ?? preserve
                    let children = inline(timedChild, at: time, preserve: childPreserve)
                    nodes.append(contentsOf: styled(children, element))
                default:
                    break
                }
            }
        }
        return nodes
    }

    /// Wraps `children` in spans for the element's italic, bold, underline and colour.
    private func styled(_ children: [InlineNode], _ element: XMLElement) -> [InlineNode] {
        var nodes = children
        if let color = styleValue("color", of: element).flatMap(RGBAColor.init(parsing:)) {
            nodes = [.span(Span(.class, style: TextStyle(color: color), children: nodes))]
        }
        if styleValue("textDecoration", of: element)?.contains("underline") == true { nodes = [.span(Span(.underline, children: nodes))] }
        if styleValue("fontWeight", of: element) == "bold" { nodes = [.span(Span(.bold, children: nodes))] }
        if styleValue("fontStyle", of: element) == "italic" { nodes = [.span(Span(.italic, children: nodes))] }
        return nodes
    }

    /// XML default whitespace handling: runs of space, tab, CR and LF become one space.
    private static func collapse(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        return result
    }

    /// Removes the spaces that collapsing leaves at the start and end of each line.
    private static func trimmed(_ nodes: [InlineNode]) -> [InlineNode] {
        nodes.map { node in
            guard case .text(let text) = node else { return node }
            return .text(text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0 == " " ? "" : String($0) }.joined(separator: "\n"))
        }
    }

    private static func hasVisibleText(_ node: InlineNode) -> Bool {
        switch node {
        case .text(let text): text.unicodeScalars.contains { !" \t\n\r".unicodeScalars.contains($0) }
        case .timestamp: false
        case .span(let span): span.children.contains(where: hasVisibleText)
        }
    }

    private static func text(of element: XMLElement) -> String {
        element.children.map { child in
            switch child {
            case .text(let text): text
            case .element(let inner): text(of: inner)
            }
        }.joined()
    }
}

extension TimedElement {
    fileprivate func adopting(_ children: [TimedElement]) -> TimedElement {
        self.children = children
        return self
    }
}

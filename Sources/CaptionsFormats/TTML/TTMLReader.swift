import CaptionsCore

/// Reads TTML (IMSC1 text, DFXP, SMPTE-TT, EBU-TT-D) into cues the way a player shows them.
///
/// Timing follows TTML: `par` and `seq` time containers, `begin`, `end` and `dur` on every
/// level, clipped by the parent, in any time base and time expression (``TTMLTiming``). What a
/// paragraph shows can change inside it (timed spans, `set` animations of `tts:display`, a timed
/// region), so each `p` becomes one cue per stretch of time in which its visible content stays the
/// same; stretches with no visible text (a `display` of `none`, an empty paragraph, content outside
/// every region) give no cue. Italic, bold, underline and colours become spans, `<br/>` a line
/// break, `ttm:agent` the speaker, `xml:lang` on the root the language and on a span a language span.
public struct TTMLReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Parses a TTML document; throws for XML that is not well-formed or not TTML.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        var tooDeep: SourceLocation?
        let mislabelled = XMLTree.mislabelledAsWide(input)
        var root = try XMLTree.parse(input, codePrefix: "ttml", tooDeep: &tooDeep, encoding: mislabelled ? "UTF-8" : nil)
        _ = consume input  // the bytes are not needed once the tree is built
        var unqualified = false
        if root.name == "tt", root.namespace.isEmpty {
            // `<tt>` with no namespace at all (hand-written files, some libraries' output) is meant
            // as TTML; ttconv reads it too.
            root = root.placingUnqualifiedElements(in: TTMLNamespace.ttml)
            unqualified = true
        }
        guard root.name == "tt", root.namespace == TTMLNamespace.ttml else {
            throw CaptionsError(
                "ttml.root.missing",
                "not TTML: the root element is \(root.name) in \(root.namespace.isEmpty ? "no namespace" : root.namespace), "
                    + "not tt in the TTML namespace (\(TTMLNamespace.ttml))", at: root.location)
        }
        var resolver = TTMLResolver(root: root)
        if mislabelled {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.encoding.mislabelled",
                "the XML declaration says UTF-16 or UTF-32 but the file is in single bytes; read as UTF-8", at: .start))
        }
        if unqualified {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.namespace.missing",
                "the tt element has no namespace; read as TTML (add xmlns=\"\(TTMLNamespace.ttml)\")", at: root.location))
        }
        if let tooDeep {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.nesting.tooDeep",
                "elements nested deeper than \(XMLTree.maximumDepth) levels are left out; their text is kept", at: tooDeep))
        }
        resolver.resolve()
        var document = TimedTextDocument(cues: resolver.cues, diagnostics: resolver.diagnostics, sourceFormat: "ttml")
        // Apple's iTunes Timed Text: TTML timed in SMPTE frames, with its own parameter namespace.
        if root.attribute("timeBase", namespace: TTMLNamespace.parameter) == "smpte",
            root.attributes.contains(where: { $0.namespace == "http://www.w3.org/ns/ttml/profile/imsc1#parameter" || $0.namespace.contains("itunes") })
                || root.attribute("dropMode", namespace: TTMLNamespace.parameter) != nil
        {
            document.sourceFormat = "itt"
            let rate = root.attribute("frameRate", namespace: TTMLNamespace.parameter) ?? "30"
            document.diagnostics.append(Diagnostic(
                .note, "ttml.profile.itt", "read as iTunes Timed Text (iTT): times in SMPTE frames at \(rate) a second", at: root.location))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        document.language = root.attribute("lang", namespace: TTMLNamespace.xml).flatMap { $0.isEmpty ? nil : $0 }
        return document
    }
}

/// An element with its resolved active interval (absolute media time; a nil end is "indefinite").
///
/// Parents own their children; the link back is weak, so a tree frees itself (a strong link both
/// ways made every document read leak its whole tree).
private final class TimedElement {
    let element: XMLElement
    private(set) weak var parent: TimedElement?
    let begin: MediaTime
    let end: MediaTime?
    /// Timed content children (div, p, span, br).
    var children: [TimedElement] = []
    /// `set` animations of this element.
    var sets: [TimedElement] = []
    #if DEBUG
    private let census = TTMLTreeCensus.current
    #endif

    init(element: XMLElement, parent: TimedElement?, begin: MediaTime, end: MediaTime?) {
        self.element = element
        self.parent = parent
        self.begin = begin
        self.end = end
        #if DEBUG
        census?.live += 1
        #endif
    }

    #if DEBUG
    deinit { census?.live -= 1 }
    #endif

    func isActive(at time: MediaTime) -> Bool {
        begin <= time && end.map { time < $0 } ?? true
    }
}

#if DEBUG
/// Counts the timed elements alive from the reads a task makes while it is ``current``, so that a
/// test can see that every tree is freed (debug builds only).
final class TTMLTreeCensus: @unchecked Sendable {
    /// The census of the current task, if any.
    @TaskLocal static var current: TTMLTreeCensus?
    /// Timed elements made and not yet freed (one task only: the reader does not share its trees).
    var live = 0
}
#endif

private struct TTMLResolver {
    let root: XMLElement
    var timing: TTMLTiming
    var diagnostics: [Diagnostic] = []
    var cues: [Cue] = []
    private var styles: [String: XMLElement] = [:]
    private var regions: [String: TimedElement] = [:]
    private var hasRegions = false
    /// Paragraphs left out because an ancestor names another region (reported once).
    private var prunedByAncestorRegion = 0
    private var reportedDepth = false
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
        reportStyling(root)
        guard let body = root.elements.first(where: { $0.name == "body" }) else { return }
        let timedBody = timed(body, parent: documentTime, reference: .zero)
        documentTime.children.append(timedBody)
        for paragraph in paragraphs(in: timedBody) {
            addCues(for: paragraph)
            // The paragraph is in cues now: let its subtree go, so the trees shrink as the cues grow.
            paragraph.element.children.removeAll()
            paragraph.children.removeAll()
        }
        cues.sort { $0.start < $1.start }
        withExtendedLifetime(documentTime) {}
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
            default:
                break
            }
        }
    }

    /// TTML styling attributes the reader turns into the model.
    private static let usedStyles: Set<String> = [
        "display", "color", "fontStyle", "fontWeight", "textDecoration", "textAlign", "origin", "extent", "displayAlign",
        "writingMode",
    ]
    /// TTML styling attributes that exist but have no equivalent in the model (reported as notes).
    private static let ignoredStyles: Set<String> = [
        "backgroundColor", "direction", "fontFamily", "fontSize", "lineHeight", "opacity", "overflow", "padding",
        "showBackground", "textOutline", "unicodeBidi", "visibility", "wrapOption", "zIndex", "fontVariant", "linePadding",
        "multiRowAlign", "textCombine", "textEmphasis", "textShadow", "ruby", "rubyAlign", "rubyPosition", "rubyReserve",
        "shear", "fillLineGap", "luminanceGain", "position", "disparity", "backgroundImage",
    ]

    /// Reports styling attributes that are dropped (`ttml.style.ignored`, once per attribute) or
    /// not TTML at all (`ttml.style.unknown`), with the line of their first use.
    private mutating func reportStyling(_ element: XMLElement) {
        var first: [String: (line: Int, count: Int)] = [:]
        func scan(_ element: XMLElement) {
            for attribute in element.attributes where attribute.namespace == TTMLNamespace.styling {
                guard !Self.usedStyles.contains(attribute.name) else { continue }
                let entry = first[attribute.name]
                first[attribute.name] = (entry?.line ?? element.line, (entry?.count ?? 0) + 1)
            }
            for child in element.elements { scan(child) }
        }
        scan(element)
        for (name, entry) in first.sorted(by: { $0.value.line < $1.value.line }) {
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
    private static func isTimedContent(_ element: XMLElement) -> Bool {
        guard element.namespace == TTMLNamespace.ttml else { return false }
        switch element.name {
        case "div", "p", "span", "br", "set": return true
        default: return false
        }
    }

    /// Where the next child of a seq begins: this child's end (an element without an end of its
    /// own and with no children has the implicit duration 0; one with children lasts indefinitely).
    private static func end(of child: XMLElement, timed: TimedElement, resolver: inout TTMLResolver) -> MediaTime? {
        let explicit = child.attribute("end") != nil || child.attribute("dur") != nil
        if explicit || child.attribute("timeContainer") == "seq" { return timed.end }
        return child.elements.isEmpty ? timed.begin : nil
    }

    /// The end of a seq container's last child, or nil (indefinite) when one never ends.
    private static func sequenceEnd(of children: [XMLElement], from begin: MediaTime, resolver: inout TTMLResolver) -> MediaTime? {
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

    // MARK: Cues

    /// How far an indefinite paragraph is followed; its last cue is then written without an end.
    private static let openEndHorizon = MediaTime(seconds: 86_400 * 365)

    private mutating func addCues(for paragraph: TimedElement) {
        let paragraphEnd = paragraph.end ?? paragraph.begin + Self.openEndHorizon
        guard paragraph.begin < paragraphEnd else { return }
        if hasRegions, let conflict = Self.ancestorRegionConflict(of: paragraph) {
            // TTML's region association: an ancestor that names another region is not in this
            // paragraph's region, so the paragraph is pruned with it and no player shows it.
            prunedByAncestorRegion += 1
            if prunedByAncestorRegion == 1 {
                diagnostics.append(Diagnostic(
                    .warning, "ttml.region.ancestorConflict",
                    "a paragraph in region \"\(conflict.own)\" inside an element in region \"\(conflict.ancestor)\" is shown "
                        + "by no conforming player (TTML region association); left out, as ttconv does. Name the region on "
                        + "the paragraphs only", at: paragraph.element.location))
            }
            return
        }
        var times: Set<MediaTime> = [paragraph.begin, paragraphEnd]
        collectTimes(paragraph, into: &times)
        var ancestor = paragraph.parent
        while let current = ancestor {
            for set in current.sets {
                times.insert(set.begin)
                if let end = set.end { times.insert(end) }
            }
            ancestor = current.parent
        }
        // Only the regions this paragraph's text can be in change what it shows (looking at every
        // region for every paragraph made many regions and paragraphs take quadratic time).
        var referenced: Set<String> = []
        if let id = region(of: paragraph) { referenced.insert(id) }
        Self.collectRegionReferences(paragraph.element, into: &referenced)
        for id in referenced {
            guard let region = regions[id] else { continue }
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
            let preserve = space(of: paragraph) == "preserve"
            let styled = inheritedStyle(of: paragraph, inline(paragraph, at: start, preserve: preserve, region: region(of: paragraph)))
            let (content, removed) = InlineNode.limitingDepth(preserve ? styled : Self.trimmed(styled))
            if removed > 0, !reportedDepth {
                reportedDepth = true
                diagnostics.append(Diagnostic(
                    .warning, "ttml.nesting.tooDeep",
                    "styles nested deeper than \(InlineNode.maximumDepth) spans are flattened", at: paragraph.element.location))
            }
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
                    settings: placement(of: paragraph), speaker: speaker(of: paragraph), content: content,
                    location: paragraph.element.location)
            }
        }
        flush(&previous)
    }

    private mutating func flush(_ cue: inout Cue?) {
        if let finished = cue { cues.append(finished) }
        cue = nil
    }

    /// The regions that elements inside `element` name.
    private static func collectRegionReferences(_ element: XMLElement, into ids: inout Set<String>) {
        for child in element.elements {
            if let id = child.attribute("region") { ids.insert(id) }
            collectRegionReferences(child, into: &ids)
        }
    }

    private func collectTimes(_ node: TimedElement, into times: inout Set<MediaTime>) {
        for child in node.children + node.sets {
            times.insert(child.begin)
            if let end = child.end { times.insert(end) }
            collectTimes(child, into: &times)
        }
    }

    /// Whether the element and every ancestor are active and displayed at `time`.
    private func isShown(_ node: TimedElement, at time: MediaTime) -> Bool {
        var current: TimedElement? = node
        while let element = current, element.parent != nil {
            guard element.isActive(at: time), display(of: element, at: time) != "none" else { return false }
            current = element.parent
        }
        return true
    }

    /// Whether text in region `id` is presented at `time`: with regions defined, only inside an
    /// active, displayed region; without, always (the default region).
    private func isPresented(inRegion id: String?, at time: MediaTime) -> Bool {
        guard hasRegions else { return true }
        guard let id, let region = regions[id] else { return false }
        return region.isActive(at: time) && display(of: region, at: time) != "none"
    }

    /// `tts:display` at `time`: an active `set` wins, then the inline attribute, then referenced styles.
    private func display(of node: TimedElement, at time: MediaTime) -> String? {
        for set in node.sets.reversed() where set.isActive(at: time) {
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

    /// WebVTT cue settings for the paragraph's region (origin, extent, displayAlign) and text
    /// alignment; the default settings for a region at the bottom across the width.
    private func placement(of paragraph: TimedElement) -> CueSettings {
        var current: TimedElement? = paragraph
        var textAlign: String?
        while let node = current, textAlign == nil {
            textAlign = styleValue("textAlign", of: node.element)
            current = node.parent
        }
        let region = self.region(of: paragraph).flatMap { regions[$0] }?.element
        if textAlign == nil, let region { textAlign = styleValue("textAlign", of: region) }
        return TTMLRegionMapping.settings(
            origin: region.flatMap { Self.pair(styleValue("origin", of: $0)) },
            extent: region.flatMap { Self.pair(styleValue("extent", of: $0)) },
            displayAlign: region.flatMap { styleValue("displayAlign", of: $0) }, textAlign: textAlign,
            writingMode: region.flatMap { styleValue("writingMode", of: $0) })
    }

    /// Two percentages such as `"10% 80%"`.
    private static func pair(_ text: String?) -> (Double, Double)? {
        guard let parts = text?.split(separator: " "), parts.count == 2, parts.allSatisfy({ $0.hasSuffix("%") }),
            let x = Double(parts[0].dropLast()), let y = Double(parts[1].dropLast())
        else { return nil }
        return (x, y)
    }

    /// The region `paragraph` is in and a different one an ancestor names, if any.
    private static func ancestorRegionConflict(of paragraph: TimedElement) -> (own: String, ancestor: String)? {
        var current: TimedElement? = paragraph
        var own: String?
        while let element = current {
            if let region = element.element.attribute("region") {
                if let own, own != region { return (own, region) }
                own = region
            }
            current = element.parent
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

    /// The content active at `time`, as inline nodes. Text directly inside a `seq` container is an
    /// anonymous span of duration 0 and never shows; text outside every region does not either.
    private func inline(_ node: TimedElement, at time: MediaTime, preserve: Bool, region: String?) -> [InlineNode] {
        var nodes: [InlineNode] = []
        let showsText = node.element.attribute("timeContainer") != "seq" && isPresented(inRegion: region, at: time)
        var timedChildren = node.children.makeIterator()
        for child in node.element.children {
            switch child {
            case .text(let text):
                let value = preserve ? text : Self.collapse(text)
                if showsText, !value.isEmpty { nodes.append(.text(value)) }
            case .element(let element):
                guard Self.isTimedContent(element), element.name != "set", let timedChild = timedChildren.next() else { continue }
                guard timedChild.isActive(at: time), display(of: timedChild, at: time) != "none" else { continue }
                switch element.name {
                case "br": if showsText { nodes.append(.text("\n")) }
                case "span":
                    let childPreserve = element.attribute("space", namespace: TTMLNamespace.xml).map { $0 == "preserve" } ?? preserve
                    let children = inline(
                        timedChild, at: time, preserve: childPreserve, region: element.attribute("region") ?? region)
                    var spanNodes = styled(children, element)
                    if let language = element.attribute("lang", namespace: TTMLNamespace.xml), !language.isEmpty, !spanNodes.isEmpty {
                        spanNodes = [.span(Span(.language, annotation: language, children: spanNodes))]
                    }
                    nodes.append(contentsOf: spanNodes)
                default:
                    break
                }
            }
        }
        return nodes
    }

    /// Wraps `children` in spans for the element's own italic, bold, underline and colour.
    private func styled(_ children: [InlineNode], _ element: XMLElement) -> [InlineNode] {
        wrapped(children) { styleValue($0, of: element) }
    }

    /// Wraps a paragraph's content in the inherited styles: the nearest of the paragraph, its
    /// ancestors and its region that sets each property.
    private func inheritedStyle(of paragraph: TimedElement, _ content: [InlineNode]) -> [InlineNode] {
        let region = self.region(of: paragraph).flatMap { regions[$0] }?.element
        return wrapped(content) { property in
            var current: TimedElement? = paragraph
            while let node = current {
                if let value = styleValue(property, of: node.element) { return value }
                current = node.parent
            }
            return region.flatMap { styleValue(property, of: $0) }
        }
    }

    private func wrapped(_ children: [InlineNode], value: (String) -> String?) -> [InlineNode] {
        var nodes = children
        if let color = value("color").flatMap(RGBAColor.init(parsing:)), color != RGBAColor(red: 255, green: 255, blue: 255) {
            nodes = [.span(Span(.class, style: TextStyle(color: color), children: nodes))]
        }
        if value("textDecoration")?.contains("underline") == true { nodes = [.span(Span(.underline, children: nodes))] }
        if value("fontWeight") == "bold" { nodes = [.span(Span(.bold, children: nodes))] }
        if value("fontStyle") == "italic" { nodes = [.span(Span(.italic, children: nodes))] }
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

    /// Removes the spaces that collapsing leaves at the start and end of each line and between
    /// adjacent nodes, through spans.
    private static func trimmed(_ nodes: [InlineNode]) -> [InlineNode] {
        var atLineStart = true
        var result = trimLeading(nodes, atLineStart: &atLineStart)
        var atLineEnd = true
        result = trimTrailing(result, atLineEnd: &atLineEnd)
        return result
    }

    private static func trimLeading(_ nodes: [InlineNode], atLineStart: inout Bool) -> [InlineNode] {
        nodes.compactMap { node in
            switch node {
            case .text(let text):
                var output: [UInt8] = []
                output.reserveCapacity(text.utf8.count)
                for byte in text.utf8 {
                    if byte == 0x20, atLineStart { continue }
                    output.append(byte)
                    // After a space, a following space (in this node or the next) is dropped too.
                    atLineStart = byte == 0x0A || byte == 0x20
                }
                return output.isEmpty ? nil : .text(String(decoding: output, as: UTF8.self))
            case .timestamp:
                return node
            case .span(var span):
                span.children = trimLeading(span.children, atLineStart: &atLineStart)
                return .span(span)
            }
        }
    }

    private static func trimTrailing(_ nodes: [InlineNode], atLineEnd: inout Bool) -> [InlineNode] {
        nodes.reversed().compactMap { node -> InlineNode? in
            switch node {
            case .text(let text):
                var output = Array(text.utf8)
                var index = output.count
                var keep = [Bool](repeating: true, count: output.count)
                while index > 0 {
                    index -= 1
                    if output[index] == 0x20, atLineEnd {
                        keep[index] = false
                        continue
                    }
                    atLineEnd = output[index] == 0x0A
                }
                output = zip(output, keep).compactMap { $1 ? $0 : nil }
                return output.isEmpty ? nil : .text(String(decoding: output, as: UTF8.self))
            case .timestamp:
                return node
            case .span(var span):
                span.children = trimTrailing(span.children, atLineEnd: &atLineEnd)
                return .span(span)
            }
        }.reversed()
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

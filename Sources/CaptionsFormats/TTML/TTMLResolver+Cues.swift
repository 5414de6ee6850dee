import CaptionsCore

/// The cues of a resolved TTML tree: one per paragraph and interval where what it shows holds still.
extension TTMLResolver {

    /// How far an indefinite paragraph is followed; its last cue is then written without an end.
    static let openEndHorizon = MediaTime(seconds: 86_400 * 365)

    mutating func addCues(for paragraph: TimedElement) {
        let paragraphEnd = paragraph.end ?? paragraph.begin + Self.openEndHorizon
        guard paragraph.begin < paragraphEnd else { return }
        if hasRegions, let conflict = ancestorRegionConflict(of: paragraph) {
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
        // Only the regions this paragraph's text can be in change what it shows (looking at every
        // region for every paragraph made many regions and paragraphs take quadratic time).
        var referenced: Set<String> = []
        if let id = region(of: paragraph) { referenced.insert(id) }
        Self.collectRegionReferences(paragraph.element, into: &referenced)
        if hasRegions, !referenced.contains(where: { regions[$0] != nil }) {
            // In no region the document defines: TTML's region association presents it nowhere.
            if !Self.text(of: paragraph.element).allSatisfy(\.isWhitespace) {
                unshown.count += 1
                unshown.first = unshown.first ?? paragraph.element.location
                unshown.undefinedRegions.formUnion(referenced)
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
        for id in referenced {
            guard let region = regions[id] else { continue }
            times.insert(region.begin)
            if let end = region.end { times.insert(end) }
            collectTimes(region, into: &times)
        }
        let boundaries = times.filter { $0 >= paragraph.begin && $0 <= paragraphEnd }.sorted()
        var previous: Cue?
        // What the paragraph inherits does not change with time (animations are read apart).
        let preserve = space(of: paragraph) == "preserve"
        let paragraphStyle = inheritedStyle(of: paragraph)
        let paragraphColor = paragraphStyle["color"].flatMap(RGBAColor.init(parsing:)) ?? .white
        for (start, stop) in zip(boundaries, boundaries.dropFirst()) where start < stop {
            guard isShown(paragraph, at: start) else {
                flush(&previous)
                continue
            }
            let inner = inline(paragraph, at: start, preserve: preserve, region: region(of: paragraph), color: paragraphColor)
            let styled = wrapped(inner, inheritedColor: .white) { paragraphStyle[$0] }
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
            let speaker = speaker(of: paragraph)
            // A paragraph's speaker around spans with speakers of their own: the paragraph's voice
            // holds theirs, as a WebVTT cue's voice spans nest (and are written back so).
            let voiced = speaker.map { name in
                Cue.firstVoice(in: content) == nil ? content : [.span(Span(.voice, annotation: name, children: content))]
            } ?? content
            if var open = previous, open.content == voiced, open.end == start {
                open.end = stop
                previous = open
            } else {
                flush(&previous)
                let endTime: MediaTime? = paragraph.end == nil && stop == paragraphEnd ? nil : stop
                previous = Cue(
                    id: paragraph.element.attribute("id", namespace: TTMLNamespace.xml) ?? "", start: start, end: endTime,
                    settings: placement(of: paragraph), speaker: speaker, content: voiced,
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
    /// The region a paragraph names and another one an ancestor names, if any. A name the layout
    /// does not define is ignored, as ttconv ignores it (with a warning): `<div region="bottom">`
    /// over `<p region="b1">` in a document that defines only `b1` shows the paragraph in `b1`.
    private func ancestorRegionConflict(of paragraph: TimedElement) -> (own: String, ancestor: String)? {
        var current: TimedElement? = paragraph
        var own: String?
        while let element = current {
            if let region = element.element.attribute("region"), regions[region] != nil {
                if let own, own != region { return (own, region) }
                own = region
            }
            current = element.parent
        }
        return nil
    }

    /// The region of a node: the nearest one it or an ancestor names that the layout defines, else
    /// the nearest name (for the report of paragraphs in no region).
    private func region(of node: TimedElement) -> String? {
        var current: TimedElement? = node
        var undefined: String?
        while let element = current {
            if let region = element.element.attribute("region") {
                if regions[region] != nil { return region }
                undefined = undefined ?? region
            }
            current = element.parent
        }
        return undefined
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
    private func inline(
        _ node: TimedElement, at time: MediaTime, preserve: Bool, region: String?, color: RGBAColor, insideRuby: Bool = false
    ) -> [InlineNode] {
        var nodes: [InlineNode] = []
        let showsText = node.element.attribute("timeContainer") != "seq" && isPresented(inRegion: region, at: time)
        var timedChildren = node.children.makeIterator()
        for child in node.element.children {
            switch child {
            case .text(let text):
                // White space between the parts of a ruby container is not text (TTML2 allows no
                // character content there; CSS ruby drops it): "漢字 " would be the base.
                if insideRuby, text.allSatisfy(\.isWhitespace) { continue }
                let value = preserve ? text : Self.collapse(text)
                if showsText, !value.isEmpty { nodes.append(.text(value)) }
            case .element(let element):
                guard Self.isTimedContent(element), element.name != "set", let timedChild = timedChildren.next() else { continue }
                guard timedChild.isActive(at: time), display(of: timedChild, at: time) != "none" else { continue }
                switch element.name {
                case "br": if showsText { nodes.append(.text("\n")) }
                case "span":
                    // Ruby (`tts:ruby`) as the model's, WebVTT's: a container becomes `ruby` and its
                    // annotation `rt`, directly inside it (WebVTT reads `rt` nowhere else); the
                    // delimiters, parentheses for renderers without ruby, are left out; bases and
                    // the containers of bases or annotations are their content. Ruby parts outside
                    // a container are plain spans.
                    let ruby = styleValue("ruby", of: element)
                    let opensRuby = ruby == "container" && !insideRuby
                    let holdsParts = insideRuby && (ruby == "baseContainer" || ruby == "textContainer")
                    let childPreserve = element.attribute("space", namespace: TTMLNamespace.xml).map { $0 == "preserve" } ?? preserve
                    let ownColor = styleValue("color", of: element).flatMap(RGBAColor.init(parsing:))
                    let children = inline(
                        timedChild, at: time, preserve: childPreserve, region: element.attribute("region") ?? region,
                        color: ownColor ?? color, insideRuby: opensRuby || holdsParts)
                    var spanNodes: [InlineNode]
                    if holdsParts {
                        spanNodes = children
                    } else if insideRuby, ruby == "delimiter" {
                        spanNodes = []
                    } else {
                        spanNodes = styled(opensRuby ? [.span(Span(.ruby, children: children))] : children, element, inheritedColor: color)
                        if let language = element.attribute("lang", namespace: TTMLNamespace.xml), !language.isEmpty, !spanNodes.isEmpty {
                            spanNodes = [.span(Span(.language, annotation: language, children: spanNodes))]
                        }
                        if insideRuby, ruby == "text" { spanNodes = [.span(Span(.rubyText, children: spanNodes))] }
                        // A span's own speaker: a voice span (a paragraph's is the cue's speaker).
                        if let agent = element.attribute("agent", namespace: TTMLNamespace.metadata), !spanNodes.isEmpty {
                            let first = agent.split(separator: " ").first.map(String.init) ?? agent
                            spanNodes = [.span(Span(.voice, annotation: agents[first] ?? first, children: spanNodes))]
                        }
                    }
                    nodes.append(contentsOf: spanNodes)
                default:
                    break
                }
            }
        }
        return nodes
    }

    /// Wraps `children` in spans for the element's own italic, bold, underline and colour; a
    /// colour only where it differs from the one the element inherits (`inheritedColor`).
    private func styled(_ children: [InlineNode], _ element: XMLElement, inheritedColor: RGBAColor) -> [InlineNode] {
        wrapped(children, inheritedColor: inheritedColor) { styleValue($0, of: element) }
    }

    /// A paragraph's inherited style: for each property ``wrapped(_:inheritedColor:value:)``
    /// reads, the value set by the nearest of the paragraph, its ancestors and its region. Worked
    /// out at once, as values: a closure holding the resolver held its list of cues as well, so
    /// every cue added while it lived copied the whole list (a 100,000-cue file never finished).
    private func inheritedStyle(of paragraph: TimedElement) -> [String: String] {
        let region = self.region(of: paragraph).flatMap { regions[$0] }?.element
        var values: [String: String] = [:]
        for property in Self.wrappedProperties {
            var current: TimedElement? = paragraph
            while let node = current, values[property] == nil {
                values[property] = styleValue(property, of: node.element)
                current = node.parent
            }
            if values[property] == nil { values[property] = region.flatMap { styleValue(property, of: $0) } }
        }
        return values
    }

    /// The style properties ``wrapped(_:inheritedColor:value:)`` reads.
    private static let wrappedProperties = ["color", "textDecoration", "fontWeight", "fontStyle"]

    /// Wraps `children` in spans for the styles `value` gives; the colour only where it is not the
    /// one the text would have anyway (TTML's initial colour is white).
    private func wrapped(_ children: [InlineNode], inheritedColor: RGBAColor, value: (String) -> String?) -> [InlineNode] {
        var nodes = children
        if let color = value("color").flatMap(RGBAColor.init(parsing:)), color != inheritedColor {
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

    static func text(of element: XMLElement) -> String {
        element.children.map { child in
            switch child {
            case .text(let text): text
            case .element(let inner): text(of: inner)
            }
        }.joined()
    }
}

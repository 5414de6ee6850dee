import CaptionsCore

/// The WebVTT cue text parsing rules: a tokenizer (data, tag, class, annotation, end tag and
/// timestamp states, with HTML character references) and the tree construction that builds
/// `c`, `i`, `b`, `u`, `ruby`, `rt`, `v` and `lang` spans and karaoke timestamps.
///
/// Unknown tags and mismatched end tags are ignored, as the specification says; adjacent text is
/// joined into one text node.
struct WebVTTCueTextParser {
    private enum Token {
        case text(String)
        case startTag(name: [UInt8], classes: [String], annotation: String)
        case endTag(name: [UInt8])
        case timestamp([UInt8])
    }

    private let bytes: ByteSlice
    private var index: Int

    private init(_ bytes: ByteSlice) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    private static let markup = ByteScan(UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "&"))

    /// Parses cue text (lines joined by LF) into nodes.
    static func parse(_ text: ByteSlice) -> [InlineNode] {
        var dropped = 0
        return parse(text, droppedForDepth: &dropped)
    }

    /// Parses cue text into nodes; `droppedForDepth` counts the start tags dropped because they
    /// would nest deeper than ``InlineNode/maximumDepth``.
    static func parse(_ text: ByteSlice, droppedForDepth: inout Int) -> [InlineNode] {
        var unclosed: [Span.Kind] = []
        return parse(text, droppedForDepth: &droppedForDepth, unclosed: &unclosed)
    }

    /// Parses cue text into nodes, also listing in `unclosed` the spans whose end tag is missing
    /// (closed at the end of the cue, as the WebVTT parser does).
    static func parse(_ text: ByteSlice, droppedForDepth: inout Int, unclosed: inout [Span.Kind]) -> [InlineNode] {
        if !markup.occurs(in: UnsafeBufferPointer(rebasing: text)) {
            return text.isEmpty ? [] : [.text(text.string)]
        }
        var parser = WebVTTCueTextParser(text)
        var tree = TreeBuilder()
        while let token = parser.nextToken() {
            switch token {
            case .text(let text): tree.appendText(text)
            case .startTag(let name, let classes, let annotation): tree.open(name, classes: classes, annotation: annotation)
            case .endTag(let name): tree.close(name)
            case .timestamp(let text):
                var position = 0
                let time = text.withUnsafeBufferPointer { WebVTTSyntax.collectTimestamp($0[...], at: &position) }
                if let time, position == text.count { tree.append(.timestamp(time)) }
            }
        }
        droppedForDepth += tree.droppedForDepth
        let nodes = tree.finish()
        unclosed += tree.closedAtEnd
        return nodes
    }

    private var current: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    private mutating func nextToken() -> Token? {
        guard let first = current else { return nil }
        if first == UInt8(ascii: "<") {
            index += 1
            return tag()
        }
        return .text(String(decoding: collectDecoding(until: UInt8(ascii: "<")), as: UTF8.self))
    }

    /// The tag state, entered after `<`.
    private mutating func tag() -> Token {
        guard let byte = current else { return .startTag(name: [], classes: [], annotation: "") }
        switch byte {
        case WebVTTSyntax.tab, WebVTTSyntax.lineFeed, WebVTTSyntax.formFeed, WebVTTSyntax.space:
            index += 1
            return .startTag(name: [], classes: [], annotation: annotation())
        case UInt8(ascii: "."):
            index += 1
            return startTag(name: [])
        case UInt8(ascii: "/"):
            index += 1
            return .endTag(name: collect(until: UInt8(ascii: ">")))
        case UInt8(ascii: ">"):
            index += 1
            return .startTag(name: [], classes: [], annotation: "")
        case _ where WebVTTSyntax.isDigit(byte):
            return .timestamp(collect(until: UInt8(ascii: ">")))
        default:
            var name: [UInt8] = []
            while let next = current {
                switch next {
                case WebVTTSyntax.tab, WebVTTSyntax.formFeed, WebVTTSyntax.space, WebVTTSyntax.lineFeed:
                    if next != WebVTTSyntax.lineFeed { index += 1 }
                    return .startTag(name: name, classes: [], annotation: annotation())
                case UInt8(ascii: "."):
                    index += 1
                    return startTag(name: name)
                case UInt8(ascii: ">"):
                    index += 1
                    return .startTag(name: name, classes: [], annotation: "")
                default:
                    name.append(next)
                    index += 1
                }
            }
            return .startTag(name: name, classes: [], annotation: "")
        }
    }

    /// The start tag class state, entered after a `.`.
    private mutating func startTag(name: [UInt8]) -> Token {
        var classes: [String] = []
        var buffer: [UInt8] = []
        func flush() {
            if !buffer.isEmpty { classes.append(String(decoding: buffer, as: UTF8.self)) }
            buffer.removeAll()
        }
        while let byte = current {
            switch byte {
            case WebVTTSyntax.tab, WebVTTSyntax.formFeed, WebVTTSyntax.space, WebVTTSyntax.lineFeed:
                flush()
                if byte != WebVTTSyntax.lineFeed { index += 1 }
                return .startTag(name: name, classes: classes, annotation: annotation())
            case UInt8(ascii: "."):
                flush()
                index += 1
            case UInt8(ascii: ">"):
                flush()
                index += 1
                return .startTag(name: name, classes: classes, annotation: "")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        flush()
        return .startTag(name: name, classes: classes, annotation: "")
    }

    /// The start tag annotation state: text up to `>`, references decoded, whitespace collapsed.
    private mutating func annotation() -> String {
        let buffer = collectDecoding(until: UInt8(ascii: ">"))
        if current != nil { index += 1 }
        return buffer.split(whereSeparator: WebVTTSyntax.isWhitespace).map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: " ")
    }

    /// The bytes up to `terminator` (not consumed), character references decoded.
    private mutating func collectDecoding(until terminator: UInt8) -> [UInt8] {
        var buffer: [UInt8] = []
        while let byte = current, byte != terminator {
            index += 1
            if byte == UInt8(ascii: "&"), let (decoded, next) = HTMLCharacterReference.consume(bytes, from: index) {
                buffer.append(contentsOf: decoded.utf8)
                index = next
            } else {
                buffer.append(byte)
            }
        }
        return buffer
    }

    private mutating func collect(until terminator: UInt8) -> [UInt8] {
        var result: [UInt8] = []
        while let byte = current {
            index += 1
            if byte == terminator { break }
            result.append(byte)
        }
        return result
    }
}

/// The WebVTT cue text DOM construction rules on top of ``InlineTreeBuilder``.
private struct TreeBuilder {
    private var builder = InlineTreeBuilder(joinsAdjacentText: false)

    mutating func append(_ node: InlineNode) { builder.append(node) }

    mutating func appendText(_ text: String) { builder.appendText(text) }

    mutating func open(_ name: [UInt8], classes: [String], annotation: String) {
        let kind: Span.Kind
        switch String(decoding: name, as: UTF8.self) {
        case "c": kind = .class
        case "i": kind = .italic
        case "b": kind = .bold
        case "u": kind = .underline
        case "ruby": kind = .ruby
        case "rt":
            guard builder.currentKind == .ruby else { return }
            kind = .rubyText
        case "v": kind = .voice
        case "lang": kind = .language
        default: return
        }
        let keepsAnnotation = kind == .voice || kind == .language
        builder.open(Span(kind, classes: classes, annotation: keepsAnnotation ? annotation : nil))
    }

    /// Closes the current span when the end tag names it; `</ruby>` inside `rt` closes both.
    mutating func close(_ name: [UInt8]) {
        let tag = String(decoding: name, as: UTF8.self)
        if let kind = Span.Kind(rawValue: tag), builder.consumeDroppedClose(kind) { return }
        guard let current = builder.currentKind else { return }
        if tag == current.rawValue {
            builder.closeCurrent()
        } else if tag == "ruby", current == .rubyText {
            builder.closeCurrent()
            builder.closeCurrent()
        }
    }

    var droppedForDepth: Int { builder.droppedForDepth }

    mutating func finish() -> [InlineNode] { builder.finish() }

    var closedAtEnd: [Span.Kind] { builder.closedAtEnd }
}

import CaptionsCore

/// Parses SRT cue text: `<i>`, `<b>`, `<u>` and `<font color>` become spans, `{\anN}` becomes a
/// placement; other `{\…}` override tags, MicroDVD's `{y:i}` control codes and unknown `<tags>`
/// are dropped with a warning. A `<` or `{` that does not start a tag is text. SubStation's `\N`
/// and `\n` are line breaks and `\h` a no-break space, as VLC, FFmpeg (libass) and pysubs2 show
/// them in SRT.
struct SRTCueTextParser {
    typealias Leniency = (Diagnostic.Severity, Diagnostic.Code, String, SourceLocation)

    private let bytes: UnsafeBufferPointer<UInt8>
    private let lines: [SRTParserLine]
    /// The `{\anN}` position, when the text gives one.
    private(set) var placement: NumpadPosition?
    /// What was dropped or repaired, with locations.
    private(set) var leniencies: [Leniency] = []
    private var builder = InlineTreeBuilder(joinsAdjacentText: true)

    init(bytes: UnsafeBufferPointer<UInt8>, lines: [SRTParserLine]) {
        self.bytes = bytes
        self.lines = lines
    }

    /// The cue's nodes. A line that holds only tags (such as `{\an8}` on a line of its own) adds
    /// no line break: players show no empty line for it, and an empty line would end a WebVTT cue.
    mutating func parse() -> [InlineNode] {
        if let plain = plainText() { return plain.isEmpty ? [] : [.text(plain)] }
        var afterText = false
        for line in lines {
            afterText = parseLine(line, breakBefore: afterText) || afterText
        }
        if builder.droppedForDepth > 0, let first = lines.first {
            leniencies.append((
                .warning, "srt.nesting.tooDeep",
                "tags nested deeper than \(InlineNode.maximumDepth) levels: \(builder.droppedForDepth) dropped, their text kept",
                SourceLocation(line: first.number, column: 1)))
        }
        let nodes = builder.finish()
        if !builder.closedAtEnd.isEmpty, let first = lines.first {
            leniencies.append((
                .note, "srt.tag.unclosed",
                "\(builder.closedAtEnd.map { "<\($0.rawValue)>" }.joined(separator: ", ")) not closed: closed at the end of the cue",
                SourceLocation(line: first.number, column: 1)))
        }
        return nodes
    }

    /// Where the next `}` is at or after, per line (`nil` when none): `{\` without a `}` must not
    /// send every later `{` on a search to the end of the line.
    private var nextBrace: Int?

    /// The text when no line holds `<` or `{`: one string, built without intermediate copies.
    private func plainText() -> String? {
        var length = 0
        for line in lines {
            if Self.hasMarkup(bytes[line.range]) { return nil }
            length += line.range.count + 1
        }
        if lines.count == 1 { return bytes[lines[0].range].string }
        return String(unsafeUninitializedCapacity: max(length - 1, 0)) { buffer in
            var offset = 0
            for (number, line) in lines.enumerated() {
                if number > 0 {
                    buffer[offset] = 0x0A
                    offset += 1
                }
                let copied = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: bytes[line.range])
                offset += copied
            }
            return offset
        }
    }

    private static let markup = ByteScan(UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "\\"))

    private static func hasMarkup(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        markup.occurs(in: UnsafeBufferPointer(rebasing: text))
    }

    /// A piece of a line: text, a tag, or a `{\…}` override block.
    private enum Piece {
        case text(Range<Int>)
        case tag(SRTTag, at: Int)
        case overrides(Range<Int>, at: Int)
        case microDVD(Range<Int>, at: Int)
        /// `\N`, `\n` (a line break) or `\h` (a no-break space), at an offset.
        case escape(String, at: Int)
    }

    /// Parses a line into the tree, first with a line break when `breakBefore` and the line has
    /// text (the break goes before the line's tags, where the line starts); returns whether it had text.
    private mutating func parseLine(_ line: SRTParserLine, breakBefore: Bool) -> Bool {
        let text = bytes[line.range]
        guard Self.hasMarkup(text) else {
            if breakBefore { builder.appendText("\n") }
            builder.appendText(text.string)
            return true
        }
        let pieces = self.pieces(of: text)
        let hasText = pieces.contains {
            switch $0 {
            case .text, .escape: true
            default: false
            }
        }
        if breakBefore, hasText { builder.appendText("\n") }
        for piece in pieces {
            switch piece {
            case .text(let range): builder.appendText(text[range].string)
            case .escape(let replacement, let offset):
                builder.appendText(replacement)
                leniencies.append((
                    .note, "srt.text.substationEscape",
                    "a backslash code read as SubStation's (\\N and \\n a line break, \\h a no-break space), as players show it",
                    location(of: offset, on: line)))
            case .tag(let tag, let offset): apply(tag, at: offset, on: line)
            case .overrides(let range, let offset): applyOverrides(text[range], at: location(of: offset, on: line))
            case .microDVD(let range, let offset):
                leniencies.append((
                    .warning, "srt.tag.microDVD", "MicroDVD control code {\(text[range].string)} dropped",
                    location(of: offset, on: line)))
            }
        }
        return hasText
    }

    /// The text, tags and override blocks of a line, in order (empty text left out).
    private mutating func pieces(of text: Slice<UnsafeBufferPointer<UInt8>>) -> [Piece] {
        var pieces: [Piece] = []
        var index = text.startIndex
        var runStart = index
        nextBrace = text.startIndex
        func flush(upTo end: Int) {
            if end > runStart { pieces.append(.text(runStart..<end)) }
        }
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "<"),
                let close = text[(index + 1)...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "<") }),
                text[close] == UInt8(ascii: ">"), let tag = SRTTag(text[(index + 1)..<close])
            {
                flush(upTo: index)
                pieces.append(.tag(tag, at: index))
                index = close + 1
                runStart = index
            } else if byte == UInt8(ascii: "{"), index + 1 < text.endIndex, text[index + 1] == UInt8(ascii: "\\"),
                let close = closingBrace(in: text, from: index)
            {
                flush(upTo: index)
                pieces.append(.overrides((index + 1)..<close, at: index))
                index = close + 1
                runStart = index
            } else if byte == UInt8(ascii: "{"), index + 2 < text.endIndex, text[index + 2] == UInt8(ascii: ":"),
                let close = closingBrace(in: text, from: index), Self.isMicroDVDCode(text[(index + 1)..<close])
            {
                // MicroDVD's control codes ({y:i}, {c:$0000FF}) left in SRT text by a conversion.
                flush(upTo: index)
                pieces.append(.microDVD((index + 1)..<close, at: index))
                index = close + 1
                runStart = index
            } else if byte == UInt8(ascii: "\\"), index + 1 < text.endIndex,
                let replacement = Self.escapes[text[index + 1]]
            {
                flush(upTo: index)
                pieces.append(.escape(replacement, at: index))
                index += 2
                runStart = index
            } else {
                index += 1
            }
        }
        flush(upTo: text.endIndex)
        return pieces
    }

    /// Whether the text between braces is one of MicroDVD's control codes, either case: `y:`
    /// style (`i`, `b`, `u`, `s` by commas, or letters a player does not know, which it hides
    /// too), `c:$BBGGRR` colour, `s:` size in digits, `f:` a font name. Anything else between
    /// braces (`{h:mm}`, `{normal text}`) is text.
    static func isMicroDVDCode<Bytes: Collection<UInt8>>(_ code: Bytes) -> Bool {
        guard code.count >= 3, code.dropFirst().first == UInt8(ascii: ":") else { return false }
        let value = code.dropFirst(2)
        switch code[code.startIndex] | 0x20 {  // lower case
        case UInt8(ascii: "y"): return !value.contains(UInt8(ascii: "{"))
        case UInt8(ascii: "c"):
            let isHex = { (byte: UInt8) in Character(UnicodeScalar(byte)).isHexDigit }
            return value.count == 7 && value.first == UInt8(ascii: "$") && value.dropFirst().allSatisfy(isHex)
        case UInt8(ascii: "s"): return value.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        case UInt8(ascii: "f"): return !value.contains(UInt8(ascii: "{"))
        default: return false
        }
    }

    /// SubStation's escapes in SRT text, by the letter after the backslash.
    private static let escapes: [UInt8: String] = [
        UInt8(ascii: "N"): "\n", UInt8(ascii: "n"): "\n", UInt8(ascii: "h"): "\u{00A0}",
    ]

    /// The first `}` at or after `start` on the line, remembered so that each byte is searched once.
    private mutating func closingBrace(in text: Slice<UnsafeBufferPointer<UInt8>>, from start: Int) -> Int? {
        if let known = nextBrace, known >= start {
            if known < text.endIndex, text[known] == UInt8(ascii: "}") { return known }
            nextBrace = text[max(known, start)...].firstIndex(of: UInt8(ascii: "}"))
        } else if nextBrace != nil {
            nextBrace = text[start...].firstIndex(of: UInt8(ascii: "}"))
        }
        return nextBrace
    }

    /// The last column worked out: offsets grow along a line, so each byte is counted once.
    private var columnCursor: (line: Int, offset: Int, column: Int) = (0, 0, 1)

    private mutating func location(of offset: Int, on line: SRTParserLine) -> SourceLocation {
        if columnCursor.line != line.number || columnCursor.offset > offset {
            columnCursor = (line.number, line.range.lowerBound, 1)
        }
        let column = columnCursor.column - 1 + LineIndex.column(in: bytes, lineStart: columnCursor.offset, offset: offset)
        columnCursor = (line.number, offset, column)
        return SourceLocation(line: line.number, column: column)
    }

    /// Applies a tag found at `offset`.
    private mutating func apply(_ tag: SRTTag, at offset: Int, on line: SRTParserLine) {
        let location = self.location(of: offset, on: line)
        guard let kind = tag.kind else {
            leniencies.append((.warning, "srt.tag.unknown", "unknown tag <\(tag.isClosing ? "/" : "")\(tag.name)> dropped", location))
            return
        }
        if tag.isClosing {
            if !builder.close(kind) {
                leniencies.append((.note, "srt.tag.unmatched", "closing tag </\(tag.name)> without an opening tag ignored", location))
            }
            return
        }
        var span = Span(kind)
        if kind == .class {
            for (name, value) in tag.attributes {
                if name == "color", let color = RGBAColor(parsing: value) {
                    span.style = TextStyle(color: color)
                } else {
                    leniencies.append((.warning, "srt.font.attribute", "font attribute \(name)=\"\(value)\" dropped", location))
                }
            }
        }
        builder.open(span)
    }

    private mutating func applyOverrides(_ block: Slice<UnsafeBufferPointer<UInt8>>, at location: SourceLocation) {
        for override in block.split(separator: UInt8(ascii: "\\")) {
            let text = override.string
            if text.hasPrefix("an"), let number = Int(text.dropFirst(2)), let position = NumpadPosition(rawValue: number) {
                placement = position
            } else {
                leniencies.append((.warning, "srt.tag.override", "override tag {\\\(text)} dropped", location))
            }
        }
    }
}

/// An HTML-like tag in SRT text: `<i>`, `</b>`, `<font color="#ff0000" face="Arial">`.
private struct SRTTag {
    private var nameBytes: Slice<UnsafeBufferPointer<UInt8>>
    private var attributeBytes: Slice<UnsafeBufferPointer<UInt8>>
    var isClosing: Bool

    /// The tag name in lower case.
    var name: String { nameBytes.string.lowercased() }

    /// The span kind of `i`, `b`, `u` and `font` (any case); `nil` for other tags.
    var kind: Span.Kind? {
        switch nameBytes.count {
        case 1:
            switch nameBytes[nameBytes.startIndex] | 0x20 {
            case UInt8(ascii: "i"): .italic
            case UInt8(ascii: "b"): .bold
            case UInt8(ascii: "u"): .underline
            default: nil
            }
        case 4: nameBytes.map { $0 | 0x20 }.elementsEqual("font".utf8) ? .class : nil
        default: nil
        }
    }

    /// The attributes, names in lower case.
    var attributes: [(String, String)] { Self.parseAttributes(attributeBytes) }

    /// Parses the text between `<` and `>`; `nil` unless it looks like a tag: a name, then nothing or
    /// `name=value` attributes (`<3`, `< b` and `<y -->` are text).
    init?(_ body: Slice<UnsafeBufferPointer<UInt8>>) {
        var rest = body
        isClosing = rest.first == UInt8(ascii: "/")
        if isClosing { rest = rest.dropFirst() }
        let nameEnd = rest.firstIndex { !Self.isNameByte($0) } ?? rest.endIndex
        guard nameEnd > rest.startIndex, Self.isLetter(rest[rest.startIndex]) else { return nil }
        nameBytes = rest[..<nameEnd]
        attributeBytes = rest[nameEnd...]
        let attributesStart = attributeBytes.first { $0 != 0x20 && $0 != 0x09 }
        guard attributeBytes.isEmpty
            || (attributeBytes.first == 0x20 || attributeBytes.first == 0x09)
                && (attributesStart == nil || attributeBytes.contains(UInt8(ascii: "=")))
        else { return nil }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    /// Letters, digits and `_`, as FFmpeg's SRT reader takes a tag name (`<x_y>` is a tag VLC hides).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }

    /// `name="value"`, `name='value'` or `name=value`, names lowercased.
    private static func parseAttributes(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> [(String, String)] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var result: [(String, String)] = []
        var rest = text
        while true {
            rest = rest.drop(while: isSpace)
            guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { break }
            let name = rest[..<equals].filter { !isSpace($0) }.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            rest = rest[(equals + 1)...].drop(while: isSpace)
            let value: Slice<UnsafeBufferPointer<UInt8>>
            if let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: quote) ?? body.endIndex
                value = body[..<end]
                rest = body[min(end + 1, body.endIndex)...]
            } else {
                let end = rest.firstIndex(where: isSpace) ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            result.append((String(decoding: name, as: UTF8.self), value.string))
        }
        return result
    }
}

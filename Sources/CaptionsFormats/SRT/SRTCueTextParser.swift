import CaptionsCore

/// Parses SRT cue text: `<i>`, `<b>`, `<u>` and `<font color>` become spans, `{\anN}` becomes a
/// placement; other `{\…}` override tags and unknown `<tags>` are dropped with a warning. A `<` or
/// `{` that does not start a tag is text.
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

    mutating func parse() -> [InlineNode] {
        if let plain = plainText() { return plain.isEmpty ? [] : [.text(plain)] }
        for (number, line) in lines.enumerated() {
            if number > 0 { builder.appendText("\n") }
            parseLine(line)
        }
        return builder.finish()
    }

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

    private static let markup = ByteScan(UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "{"))

    private static func hasMarkup(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        markup.occurs(in: UnsafeBufferPointer(rebasing: text))
    }

    private mutating func parseLine(_ line: SRTParserLine) {
        let text = bytes[line.range]
        guard Self.hasMarkup(text) else {
            builder.appendText(text.string)
            return
        }
        var index = text.startIndex
        var runStart = index
        func flush(upTo end: Int) {
            if end > runStart { builder.appendText(text[runStart..<end].string) }
        }
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "<"),
                let close = text[(index + 1)...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "<") }),
                text[close] == UInt8(ascii: ">"), let tag = SRTTag(text[(index + 1)..<close])
            {
                flush(upTo: index)
                apply(tag, at: location(of: index, on: line))
                index = close + 1
                runStart = index
            } else if byte == UInt8(ascii: "{"), index + 1 < text.endIndex, text[index + 1] == UInt8(ascii: "\\"),
                let close = text[index...].firstIndex(of: UInt8(ascii: "}"))
            {
                flush(upTo: index)
                applyOverrides(text[(index + 1)..<close], at: location(of: index, on: line))
                index = close + 1
                runStart = index
            } else {
                index += 1
            }
        }
        flush(upTo: text.endIndex)
    }

    private func location(of offset: Int, on line: SRTParserLine) -> SourceLocation {
        SourceLocation(line: line.number, column: LineIndex.column(in: bytes, lineStart: line.range.lowerBound, offset: offset))
    }

    private mutating func apply(_ tag: SRTTag, at location: SourceLocation) {
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
    private static func isNameByte(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 0x30 && byte <= 0x39) }

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

import CaptionsCore

/// A start tag of SAMI markup: its name and attributes, in lower case (values as written).
struct SAMITag {
    /// The element name, lower case.
    var name: String
    /// The attributes in order, names lower case, values without their quotes.
    var attributes: [(name: String, value: String)] = []

    /// The value of the first attribute called `name` (lower case).
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
}

/// A piece of SAMI markup.
enum SAMIToken {
    /// Text between tags; character references not yet decoded.
    case text(ByteSlice)
    /// `<name attributes>` (a `/` before `>` is ignored, as HTML ignores it).
    case startTag(SAMITag)
    /// `</name>`, the name in lower case.
    case endTag(String)
    /// What `<style>`, `<title>`, `<samiparam>` or `<script>` holds up to its end tag, as is.
    case rawText(element: String, ByteSlice)
    /// A comment, a `<!DOCTYPE>` or `<?xml?>`: nothing to read.
    case comment
}

/// Splits SAMI into tags and text the way an HTML tokenizer does, but leniently: SAMI is not XML,
/// so tags may be unclosed or upper case and attribute values unquoted; a `<` that starts no tag is
/// text. Where HTML would swallow the rest of the file (a missing quote, `-->` or `</style>`), the
/// swallowing stops at the next `>` (or `<sync`/`<body`) and the place is reported in ``issues``.
/// Every byte is looked at a bounded number of times: searches for end markers remember their answers.
struct SAMITokenizer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The element whose raw text comes next.
    private var rawElement: String?
    /// Searches done: the needle, where the search began, and what it found.
    private var searches: [String: (from: Int, found: Int?)] = [:]
    /// Places to report: code, message, byte offset.
    var issues: [(code: Diagnostic.Code, message: String, offset: Int)] = []
    /// Where ``location(of:)`` last was, to count lines and columns incrementally.
    private var cursor = (offset: 0, line: 1, column: 1)

    /// The elements whose content is not markup.
    static let rawTextElements: Set<String> = ["style", "title", "samiparam", "script"]

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next token and the offset it starts at; `nil` at the end.
    mutating func next() -> (token: SAMIToken, offset: Int)? {
        let start = index
        if let element = rawElement {
            rawElement = nil
            return (.rawText(element: element, bytes[start..<rawTextEnd(element)]), start)
        }
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "<"), let token = markup() { return (token, start) }
        index = start + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
        return (.text(bytes[start..<index]), start)
    }

    /// The line and column of `offset` (1-based; columns count Unicode scalars). Cheap when asked in
    /// increasing order, as the reader does.
    mutating func location(of offset: Int) -> SourceLocation {
        if offset < cursor.offset { cursor = (0, 1, 1) }
        var position = cursor.offset
        while position < min(offset, bytes.count) {
            let byte = bytes[position]
            if byte == 0x0A {
                cursor.line += 1
                cursor.column = 1
            } else if byte & 0xC0 != 0x80 {
                cursor.column += 1
            }
            position += 1
        }
        cursor.offset = position
        return SourceLocation(line: cursor.line, column: cursor.column)
    }

    /// The text of `slice` with character references decoded (`&amp;`, `&#233;`, `&eacute;`, `&nbsp`).
    static func decoded(_ slice: ByteSlice) -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return slice.string }
        var result = ""
        var runStart = slice.startIndex
        var position = slice.startIndex
        while position < slice.endIndex {
            guard slice[position] == UInt8(ascii: "&"), let (text, next) = HTMLCharacterReference.consume(slice, from: position + 1) else {
                position += 1
                continue
            }
            result += slice[runStart..<position].string + text
            position = next
            runStart = next
        }
        return result + slice[runStart..<slice.endIndex].string
    }

    // MARK: Tags

    /// The tag, comment or declaration at `index` (a `<`), or `nil` when the `<` is text.
    private mutating func markup() -> SAMIToken? {
        let start = index
        let second = start + 1 < bytes.count ? bytes[start + 1] : 0
        if second == UInt8(ascii: "!") || second == UInt8(ascii: "?") {
            let isComment = second == UInt8(ascii: "!") && bytes[start...].starts(with: "<!--".utf8)
            if isComment, let close = find("-->", from: start + 4) {
                index = close + 3
            } else {
                if isComment { issues.append(("sami.comment.unclosed", "a comment without its '-->' ends at the next '>'", start)) }
                index = (find(">", from: start + 2) ?? bytes.count - 1) + 1
            }
            return .comment
        }
        if second == UInt8(ascii: "/") {
            guard start + 2 < bytes.count, Self.isLetter(bytes[start + 2]) else { return nil }
            let name = self.name(from: start + 2)
            // Up to '>'; a '<' first means the '>' is missing and the next tag starts there.
            while index < bytes.count, bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "<") { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: ">") { index += 1 }
            return .endTag(name)
        }
        guard Self.isLetter(second) else { return nil }
        var tag = SAMITag(name: name(from: start + 1))
        attributes: while index < bytes.count {
            while index < bytes.count, Self.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count else { break }
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                break attributes
            case UInt8(ascii: "<"):
                // A tag without its '>': it ends where the next one starts.
                break attributes
            default:
                tag.attributes.append(attribute())
            }
        }
        if Self.rawTextElements.contains(tag.name) { rawElement = tag.name }
        return .startTag(tag)
    }

    /// A tag name from `start`, lower case; `index` moves past it.
    private mutating func name(from start: Int) -> String {
        index = start
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index].map(Self.lowered), as: UTF8.self)
    }

    /// `name`, `name=value`, `name="value"` or `name='value'` at `index`.
    private mutating func attribute() -> (name: String, value: String) {
        let nameStart = index
        index += 1  // whatever the first byte is, so that the loop always moves on
        while index < bytes.count, !Self.isSpace(bytes[index]), !"=></".utf8.contains(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[nameStart..<index].map(Self.lowered), as: UTF8.self)
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return (name, "") }
        index += 1
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return (name, "") }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let valueStart = index + 1
            var end = valueStart
            while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "<") { end += 1 }
            if end < bytes.count, bytes[end] == quote {
                index = end + 1
                return (name, bytes[valueStart..<end].string)
            }
            // No closing quote before the next tag: the value ends at this tag's '>'.
            let close = bytes[valueStart..<end].firstIndex(of: UInt8(ascii: ">")) ?? end
            issues.append(("sami.attribute.unclosed", "the value of \(name) has no closing quote; it ends at the tag's end", nameStart))
            index = close
            return (name, bytes[valueStart..<close].string)
        }
        let valueStart = index
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "<"),
            !(bytes[index] == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">"))
        {
            index += 1
        }
        return (name, bytes[valueStart..<index].string)
    }

    /// Where the raw text of `element` ends: at its end tag; without one, at `<body` or `<sync`
    /// (a `<style>` left open in the head must not swallow the captions), else at the end.
    private mutating func rawTextEnd(_ element: String) -> Int {
        let start = index
        var end = find("</" + element, from: start)
        if end == nil {
            let fallbacks = element == "script" ? [] : [find("<body", from: start), find("<sync", from: start)].compactMap { $0 }
            end = fallbacks.min() ?? bytes.count
            issues.append(("sami.tag.unclosed", "<\(element)> has no </\(element)>; it ends at the next <BODY> or <SYNC>", start))
        }
        index = end ?? bytes.count
        return index
    }

    /// The first occurrence of ASCII `needle` (compared without case) at or after `start`; every
    /// needle's last answer is kept, so that repeated searches cost no more than one.
    private mutating func find(_ needle: String, from start: Int) -> Int? {
        if let last = searches[needle], last.from <= start, (last.found ?? .max) >= start { return last.found }
        let pattern = needle.utf8.map(Self.lowered)
        var position = start
        var found: Int?
        while position + pattern.count <= bytes.count {
            if pattern.indices.allSatisfy({ Self.lowered(bytes[position + $0]) == pattern[$0] }) {
                found = position
                break
            }
            position += 1
        }
        searches[needle] = (start, found)
        return found
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }
}

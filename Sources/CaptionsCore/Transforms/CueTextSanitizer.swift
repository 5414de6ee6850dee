/// Makes a cue's text something a line-based format can hold and read back as written: blank
/// lines (which end a WebVTT or SRT cue), control characters (which XML cannot hold, and which
/// WebVTT and SRT readers turn into U+FFFD or line breaks), text that an SRT reader would take for
/// a tag, and trailing spaces that an SRT reader trims.
///
/// Part of ``CapabilityReducer``: it finds the issues in one pass over the text bytes and rewrites
/// only the cues that have one.
struct CueTextSanitizer {
    /// What a cue's text holds that the format cannot carry.
    struct Issues: OptionSet, Hashable {
        let rawValue: UInt8
        /// An empty (or, where lines are trimmed, whitespace-only) line, first or last line included.
        static let blankLines = Issues(rawValue: 1 << 0)
        /// C0 control characters other than tab and line feed, U+FFFE and U+FFFF.
        static let controlCharacters = Issues(rawValue: 1 << 1)
        /// Carriage returns, which every line-based reader takes for a line break.
        static let carriageReturns = Issues(rawValue: 1 << 2)
        /// `<` before a letter or `/`, or `{\`, which an SRT reader takes for a tag.
        static let literalMarkup = Issues(rawValue: 1 << 3)
        /// Spaces or tabs at the end of a line.
        static let trailingSpaces = Issues(rawValue: 1 << 4)
    }

    /// The issues this format has to deal with (those it cannot carry).
    let checked: Issues

    init(capabilities: FormatCapabilities) {
        var checked: Issues = []
        if !capabilities.contains(.blankLinesInText) { checked.insert(.blankLines) }
        if !capabilities.contains(.controlCharacters) { checked.formUnion([.controlCharacters, .carriageReturns]) }
        if !capabilities.contains(.literalMarkup) { checked.insert(.literalMarkup) }
        if !capabilities.contains(.trailingSpaces) { checked.insert(.trailingSpaces) }
        self.checked = checked
    }

    /// The issues in `nodes` (a cue's content), found without building any string.
    func issues(in nodes: [InlineNode]) -> Issues {
        guard !checked.isEmpty else { return [] }
        var scan = Scan(checked: checked)
        scan.visit(nodes)
        scan.finish()
        return scan.found.intersection(checked)
    }

    /// `nodes` rewritten without the issues in `found`: blank lines removed (with the spaces on
    /// them), carriage returns made line feeds, control characters removed, U+200B (zero width
    /// space) written after a `<` or `{` that would read as a tag, trailing spaces removed.
    /// Adjacent text nodes are joined.
    func sanitized(_ nodes: [InlineNode], fixing found: Issues) -> [InlineNode] {
        var cleaned = found.intersection([.controlCharacters, .carriageReturns, .literalMarkup, .trailingSpaces]).isEmpty
            ? nodes : rewriteText(nodes, fixing: found, isLast: true)
        // Removing characters can leave a line blank, so blank lines are looked for again here.
        if checked.contains(.blankLines) {
            var plain = ""
            InlineNode.appendPlainText(of: cleaned, to: &plain)
            let lines = plain.split(separator: "\n", omittingEmptySubsequences: false)
            let trims = checked.contains(.trailingSpaces)
            let blank = lines.map { line in line.allSatisfy { trims && ($0 == " " || $0 == "\t") } }
            let lastKept = blank.lastIndex(of: false)
            var line = 0
            cleaned = removeBlankLines(cleaned, blank: blank, lastKept: lastKept, line: &line)
        }
        return cleaned
    }

    /// A speaker name or span annotation as every line-based format reads it back: runs of
    /// whitespace (line breaks included) as one space, no control characters, trimmed; `nil` when
    /// `name` is already so.
    static func normalizedName(_ name: String) -> String? {
        var needed = false
        var previousWasSpace = true
        for scalar in name.unicodeScalars {
            let isSpace = scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
            if isSpace && (previousWasSpace || scalar != " ") || isControl(scalar) {
                needed = true
                break
            }
            previousWasSpace = isSpace
        }
        guard needed || previousWasSpace && !name.isEmpty else { return nil }
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                pendingSpace = !result.isEmpty
            } else if !isControl(scalar) {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0 controls other than tab, line feed and carriage return; U+FFFE and U+FFFF.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    // MARK: Finding

    private struct Scan {
        let checked: Issues
        var found: Issues = []
        /// Whether the current line has shown nothing yet (spaces count as nothing where lines are trimmed).
        var lineIsBlank = true
        /// Whether any line so far was not blank, and a blank one followed it or came first.
        var sawLine = false
        var lastWasSpace = false
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0

        /// Adjacent text nodes are scanned as one text (writers write them as one); a tag between
        /// them separates them.
        mutating func visit(_ nodes: [InlineNode]) {
            var index = nodes.startIndex
            while index < nodes.endIndex {
                let node = nodes[index]
                index += 1
                switch node {
                case .text(let text):
                    var text = text
                    // Adjacent text nodes (a WebVTT `&lt<>t>` makes `<` and `t>`) are written as
                    // one text, so they are looked at as one.
                    while index < nodes.endIndex, case .text(let next) = nodes[index] {
                        text += next
                        index += 1
                    }
                    text.withUTF8 { scan($0) }
                case .timestamp:
                    separate()
                case .span(let span):
                    separate()
                    visit(span.children)
                    separate()
                }
            }
        }

        /// A tag is written here: what comes before cannot join what follows into a tag, and spaces
        /// before it do not end a line.
        private mutating func separate() {
            previous = 0
            beforePrevious = 0
            lastWasSpace = false
        }

        private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            let trims = checked.contains(.trailingSpaces)
            var hasBracket = false
            defer {
                if hasBracket, checked.contains(.literalMarkup), !CueTextSanitizer.markupBreaks(in: bytes).isEmpty {
                    found.insert(.literalMarkup)
                }
            }
            var index = 0
            let watchesBrackets = checked.contains(.literalMarkup)
            while index < bytes.count {
                // Eight bytes at a time while they are printable ASCII (spaces included) with no
                // `<`, `>` or `{` where those matter: most cue text.
                if index + 8 <= bytes.count,
                    let word = Self.plainWord(bytes, at: index, watchingBrackets: watchesBrackets)
                {
                    let spaces: UInt64 = 0x2020_2020_2020_2020
                    if word != spaces {
                        lineIsBlank = false
                        sawLine = true
                    } else if !trims {
                        lineIsBlank = false
                        sawLine = true
                    }
                    lastWasSpace = word >> 56 == 0x20  // the last of the eight bytes
                    previous = 0
                    beforePrevious = 0
                    index += 8
                    continue
                }
                // Most bytes are letters and punctuation that change nothing here but the line's
                // emptiness: a run of them is passed over at a few comparisons a byte.
                if Self.isOrdinary(bytes[index]) {
                    index += 1
                    while index < bytes.count, Self.isOrdinary(bytes[index]) { index += 1 }
                    lineIsBlank = false
                    lastWasSpace = false
                    sawLine = true
                    previous = 0  // not EF or BF: no U+FFFE or U+FFFF continues across the run
                    beforePrevious = 0
                    continue
                }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: ">") || byte == 0x86 {
                    hasBracket = true  // 0x86: the last byte of → (E2 86 92)
                }
                switch byte {
                case 0x0A:
                    if lineIsBlank { found.insert(.blankLines) }
                    if lastWasSpace { found.insert(.trailingSpaces) }
                    lineIsBlank = true
                    lastWasSpace = false
                case 0x20, 0x09:
                    lastWasSpace = true
                    if !trims {
                        lineIsBlank = false
                        sawLine = true  // where lines keep their spaces, a line of spaces is a line
                    }
                case 0x0D:
                    found.insert(.carriageReturns)
                    lineIsBlank = false
                case 0x00..<0x20:
                    found.insert(.controlCharacters)
                    lineIsBlank = false
                    lastWasSpace = false
                default:
                    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                    if byte == 0xBE || byte == 0xBF, previous == 0xBF, beforePrevious == 0xEF { found.insert(.controlCharacters) }
                    lineIsBlank = false
                    lastWasSpace = false
                    sawLine = true
                }
                beforePrevious = previous
                previous = byte
            }
        }

        /// The eight bytes at `index` as a little-endian word, when every one is printable ASCII
        /// or a space (no control, no byte of a multi-byte character) and, if `watchingBrackets`,
        /// none is `<`, `>` or `{`; else nil.
        @inline(__always) private static func plainWord(
            _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, watchingBrackets: Bool
        ) -> UInt64? {
            guard let base = bytes.baseAddress else { return nil }
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            // A byte ≥ 0x80, or a byte below 0x20 (SWAR "has less than").
            guard word & highs == 0, (word &- ones &* 0x20) & ~word & highs == 0 else { return nil }
            if watchingBrackets {
                func has(_ byte: UInt8) -> Bool {
                    let x = word ^ (ones &* UInt64(byte))
                    return (x &- ones) & ~x & highs != 0
                }
                if has(0x3C) || has(0x3E) || has(0x7B) { return nil }
            }
            return word
        }

        /// A byte that needs no look of its own: not a control, space, `<`, `>`, `{`, nor a byte
        /// of U+FFFE, U+FFFF or `→` that the scan checks.
        @inline(__always) private static func isOrdinary(_ byte: UInt8) -> Bool {
            if byte < 0x80 { return byte > 0x20 && byte != 0x3C && byte != 0x3E && byte != 0x7B }
            return byte != 0xEF && byte != 0xBF && byte != 0xBE && byte != 0x86
        }

        mutating func finish() {
            // A last line that is blank: an empty cue is fine, a cue ending in a line break is not.
            if lineIsBlank, sawLine || found.contains(.blankLines) { found.insert(.blankLines) }
            if lastWasSpace { found.insert(.trailingSpaces) }
        }
    }

    // MARK: Rewriting

    /// Cleans the text of `nodes` (adjacent text nodes joined first); `isLast` when nothing is
    /// written after these nodes in the cue.
    private func rewriteText(_ nodes: [InlineNode], fixing found: Issues, isLast: Bool) -> [InlineNode] {
        var result: [InlineNode] = []
        var pending = ""
        func flush(endsCue: Bool) {
            guard !pending.isEmpty else { return }
            let cleaned = cleanText(pending, fixing: found, endsCue: endsCue)
            if !cleaned.isEmpty { result.append(.text(cleaned)) }
            pending = ""
        }
        for node in nodes {
            switch node {
            case .text(let text):
                pending += text
            case .timestamp:
                flush(endsCue: false)
                result.append(node)
            case .span(var span):
                flush(endsCue: false)
                span.children = rewriteText(span.children, fixing: found, isLast: false)
                result.append(.span(span))
            }
        }
        flush(endsCue: isLast)
        return result
    }

    private func cleanText(_ text: String, fixing found: Issues, endsCue: Bool) -> String {
        let trims = found.contains(.trailingSpaces)
        var output: [UInt8] = []
        var text = text
        text.withUTF8 { bytes in
            output.reserveCapacity(bytes.count)
            func dropTrailingSpaces() {
                while let last = output.last, last == 0x20 || last == 0x09 { output.removeLast() }
            }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x0D where found.contains(.carriageReturns):
                    guard index == bytes.count || bytes[index] != 0x0A else { continue }
                    if trims { dropTrailingSpaces() }
                    output.append(0x0A)
                case 0x0A:
                    if trims { dropTrailingSpaces() }
                    output.append(byte)
                case 0x00..<0x20 where byte != 0x09 && found.contains(.controlCharacters):
                    continue
                case 0xEF where found.contains(.controlCharacters) && index + 1 < bytes.count && bytes[index] == 0xBF
                    && (bytes[index + 1] == 0xBE || bytes[index + 1] == 0xBF):
                    index += 2  // U+FFFE or U+FFFF
                default:
                    output.append(byte)
                }
            }
            if endsCue, trims { dropTrailingSpaces() }
        }
        if checked.contains(.literalMarkup) {
            let breaks = output.withUnsafeBufferPointer { Self.markupBreaks(in: $0) }
            if !breaks.isEmpty {
                var marked: [UInt8] = []
                marked.reserveCapacity(output.count + 3 * breaks.count)
                var start = 0
                for offset in breaks {
                    marked.append(contentsOf: output[start..<offset])
                    marked.append(contentsOf: [0xE2, 0x80, 0x8B])  // U+200B ZERO WIDTH SPACE
                    start = offset
                }
                marked.append(contentsOf: output[start...])
                output = marked
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Where to put a U+200B so that an SRT reader reads the text as text: after the `<` or `{`
    /// of what reads as a tag, and before the `>` or `→` of an arrow on a line that starts with a
    /// digit (such a line reads as a cue's timing line), in order.
    static func markupBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let tags = tagLikeOffsets(in: bytes).map { $0 + 1 }
        let arrows = timingArrowOffsets(in: bytes)
        return arrows.isEmpty ? tags : (tags + arrows).sorted()
    }

    /// The offsets of the `>` (after `-`s and spaces) or `→` of arrows on lines that start with a
    /// digit: the SRT reader takes `0:6 -> 0:9` for a timing line.
    private static func timingArrowOffsets(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var offsets: [Int] = []
        var lineStartsWithDigit = false
        var atLineStart = true
        var afterDash = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if atLineStart, byte != 0x20, byte != 0x09 {
                lineStartsWithDigit = byte >= 0x30 && byte <= 0x39
                atLineStart = false
            }
            switch byte {
            case 0x0A:
                atLineStart = true
                afterDash = false
            case UInt8(ascii: "-"):
                afterDash = true
            case 0x20 where afterDash:
                break
            case UInt8(ascii: ">"):
                if afterDash, lineStartsWithDigit { offsets.append(index) }
                afterDash = false
            case 0xE2 where lineStartsWithDigit && index + 2 < bytes.count && bytes[index + 1] == 0x86 && bytes[index + 2] == 0x92:
                // → (E2 86 92), unless a U+200B (E2 80 8B) already stands before it.
                let marked = index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80 && bytes[index - 1] == 0x8B
                if !marked { offsets.append(index) }
                afterDash = false
            default:
                afterDash = false
            }
            index += 1
        }
        return offsets
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// Whether the text after a `<` reads as an SRT tag: an optional `/`, a name of letters and
    /// digits starting with a letter, then `>`, or white space and `name=value` attributes up to
    /// a `>` that comes before any `<` or line break.
    private static func readsAsTag(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var probe = start
        if probe < bytes.count, bytes[probe] == UInt8(ascii: "/") { probe += 1 }
        guard probe < bytes.count, isLetter(bytes[probe]) else { return false }
        while probe < bytes.count, isLetter(bytes[probe]) || (bytes[probe] >= 0x30 && bytes[probe] <= 0x39) { probe += 1 }
        guard probe < bytes.count else { return false }
        if bytes[probe] == UInt8(ascii: ">") { return true }
        guard bytes[probe] == 0x20 || bytes[probe] == 0x09 else { return false }
        var hasEquals = false
        var onlySpace = true
        while probe < bytes.count, bytes[probe] != UInt8(ascii: ">") {
            let byte = bytes[probe]
            if byte == UInt8(ascii: "<") || byte == 0x0A { return false }
            if byte == UInt8(ascii: "=") { hasEquals = true }
            if byte != 0x20 && byte != 0x09 { onlySpace = false }
            probe += 1
        }
        return probe < bytes.count && (hasEquals || onlySpace)
    }

    /// Where text holds a `<` or `{` that an SRT reader would take for the start of a tag (see
    /// ``readsAsTag(_:from:)``), or `{\` with a `}` before the line break. Linear in the text: a
    /// search never passes the next `<`, and the last `}` search is remembered.
    static func tagLikeOffsets(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var offsets: [Int] = []
        // The result of the last search for `}`: from where, and what it found (`nil` = none before the line ends at `limit`).
        var braceSearch: (from: Int, found: Int?, limit: Int) = (-1, nil, -1)
        var index = 0
        while index + 1 < bytes.count {
            let byte = bytes[index]
            let next = bytes[index + 1]
            if byte == UInt8(ascii: "<"), next == UInt8(ascii: "/") || isLetter(next) {
                if readsAsTag(bytes, from: index + 1) { offsets.append(index) }
            } else if byte == UInt8(ascii: "{"), next == UInt8(ascii: "\\") {
                let known = braceSearch.from >= 0 && index >= braceSearch.from && index < (braceSearch.found ?? braceSearch.limit)
                if !known {
                    var probe = index + 2
                    while probe < bytes.count, bytes[probe] != UInt8(ascii: "}"), bytes[probe] != 0x0A { probe += 1 }
                    let found = probe < bytes.count && bytes[probe] == UInt8(ascii: "}") ? probe : nil
                    braceSearch = (index, found, probe)
                }
                if braceSearch.found != nil { offsets.append(index) }
            }
            index += 1
        }
        return offsets
    }

    /// Drops the characters of blank lines, and the line breaks that end a blank line or come
    /// after the last line with text.
    private func removeBlankLines(_ nodes: [InlineNode], blank: [Bool], lastKept: Int?, line: inout Int) -> [InlineNode] {
        var result: [InlineNode] = []
        for node in nodes {
            switch node {
            case .text(let text):
                var output = String.UnicodeScalarView()
                for scalar in text.unicodeScalars {
                    if scalar == "\n" {
                        if !blank[line], let lastKept, line < lastKept { output.append(scalar) }
                        line += 1
                    } else if !blank[line] {
                        output.append(scalar)
                    }
                }
                if !output.isEmpty { result.append(.text(String(output))) }
            case .timestamp:
                result.append(node)
            case .span(var span):
                span.children = removeBlankLines(span.children, blank: blank, lastKept: lastKept, line: &line)
                result.append(.span(span))
            }
        }
        return result
    }
}

import CaptionsCore

/// Parses the text of an ASS/SSA `Dialogue` line: `{\…}` override blocks set italic, bold,
/// underline, colour and the `\an`/`\a` position; `\N` is a line break, `\n` one in SSA
/// and under ASS's `WrapStyle: 2` (a space otherwise, as libass shows it), `\h` a no-break space; drawings (`\p1`…`\p0`) are not text.
/// Other overrides (`\pos`, `\fad`, karaoke, fonts…) have no equivalent in the model and are
/// dropped; the reader reports them once per file.
struct ASSTextParser {
    /// The style state a run of text is shown in.
    struct State: Equatable {
        var italic = false
        var bold = false
        var underline = false
        var color: RGBAColor?
    }

    /// The position `\an` or `\a` gave, when any.
    private(set) var position: NumpadPosition?
    /// Override tags dropped, by name (for one note per file).
    private(set) var dropped: Set<String> = []
    /// Whether the text draws shapes (`\p1`…): vector drawing commands, left out as not text.
    private(set) var drewShapes = false
    private let base: State
    private var state: State
    private var shown: State
    private var builder = InlineTreeBuilder(joinsAdjacentText: true)
    private let softBreaks: Bool

    init(base: State, softBreaks: Bool) {
        self.base = base
        state = base
        shown = State()
        self.softBreaks = softBreaks
    }

    /// The nodes of `text`.
    mutating func parse(_ text: Substring) -> [InlineNode] {
        var run = ""
        var drawing = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{", let close = text[index...].firstIndex(of: "}") {
                let block = text[text.index(after: index)..<close]
                if block.contains("\\") {
                    flush(&run)
                    applyOverrides(block, drawing: &drawing)
                }  // a block without a backslash is a comment
                index = text.index(after: close)
                continue
            }
            if character == "\\", let next = text.index(index, offsetBy: 1, limitedBy: text.endIndex), next < text.endIndex {
                switch text[next] {
                case "N": if !drawing { run += "\n" }
                case "n": if !drawing { run += softBreaks ? "\n" : " " }
                case "h": if !drawing { run += "\u{00A0}" }
                default:
                    if !drawing { run.append(character) }
                    index = next
                    continue
                }
                index = text.index(after: next)
                continue
            }
            if !drawing { run.append(character) }
            index = text.index(after: index)
        }
        flush(&run)
        return builder.finish()
    }

    /// Writes `run` in the current state: spans are reopened when the state changed.
    private mutating func flush(_ run: inout String) {
        guard !run.isEmpty else { return }
        if state != shown {
            while builder.currentKind != nil { builder.closeCurrent() }
            if let color = state.color { builder.open(Span(.class, style: TextStyle(color: color))) }
            if state.underline { builder.open(Span(.underline)) }
            if state.bold { builder.open(Span(.bold)) }
            if state.italic { builder.open(Span(.italic)) }
            shown = state
        }
        builder.appendText(run)
        run = ""
    }

    /// Applies the tags of one `{…}` block.
    private mutating func applyOverrides(_ block: Substring, drawing: inout Bool) {
        for tag in block.split(separator: "\\").map({ $0.trimmedSpaces }) where !tag.isEmpty {
            func value(after prefix: String) -> Substring? { tag.hasPrefix(prefix) ? tag.dropFirst(prefix.count) : nil }
            func flag(_ prefix: String) -> Bool? {
                guard let rest = value(after: prefix), rest.allSatisfy(\.isASCIIDigit) else { return nil }
                return rest.isEmpty || rest != "0"
            }
            if let on = flag("i") {
                state.italic = on
            } else if let rest = value(after: "b"), rest.allSatisfy(\.isASCIIDigit) {
                // \b1, \b0, or a weight (\b700): bold from 600 up.
                let weight = Int(rest) ?? 1
                state.bold = weight == 1 || weight >= 600
            } else if let on = flag("u") {
                state.underline = on
            } else if let rest = value(after: "an"), let number = Int(rest), let position = NumpadPosition(rawValue: number) {
                self.position = self.position ?? position  // the first one counts, as in libass
            } else if let rest = value(after: "a"), let number = Int(rest), let position = Self.legacyPosition(number) {
                self.position = self.position ?? position
            } else if let rest = value(after: "1c") ?? value(after: "c"), rest.hasPrefix("&H") || rest.isEmpty {
                state.color = rest.isEmpty ? base.color : ASSColor.parse(rest)
            } else if let rest = value(after: "p"), let level = Int(rest) {
                drawing = level > 0
                if drawing { drewShapes = true }
            } else if tag.hasPrefix("r") {
                state = base
            } else {
                // Its name: `3c`, `1a` lead with a digit (a bare "\\" was listed for them).
                let digits = tag.prefix { $0.isNumber }
                dropped.insert(String(digits + tag.dropFirst(digits.count).prefix { $0.isLetter }))
            }
        }
    }

    /// SSA's `\a` numbering (1–3 bottom, 5–7 top, 9–11 middle) as a keypad position.
    static func legacyPosition(_ value: Int) -> NumpadPosition? {
        let column = (value - 1) % 4
        guard (1...11).contains(value), column < 3 else { return nil }
        let row = value >= 9 ? 1 : value >= 5 ? 2 : 0  // 0 bottom, 1 middle, 2 top
        return NumpadPosition(rawValue: row * 3 + column + 1)
    }
}

/// ASS colours: `&HAABBGGRR` (alpha 00 opaque) or `&HBBGGRR`, hexadecimal; SSA also writes them
/// as decimal numbers.
enum ASSColor {
    static func parse(_ text: Substring) -> RGBAColor? {
        var digits = text.trimmedSpaces
        let hex = digits.hasPrefix("&H") || digits.hasPrefix("&h")
        if hex { digits = digits.dropFirst(2) }
        digits = digits.prefix { $0 != "&" }
        guard let value = hex ? UInt32(digits, radix: 16) : UInt32(digits) else { return nil }
        return RGBAColor(
            red: UInt8(value & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value >> 16 & 0xFF),
            alpha: 255 - UInt8(value >> 24 & 0xFF))
    }
}

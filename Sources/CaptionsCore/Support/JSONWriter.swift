/// A minimal streaming JSON writer with two-space indentation, used by the JSON dump and the
/// flash report: keys come out in the order they are written.
public struct JSONWriter {
    /// An empty writer; `compact` writes everything on one line (JSON Lines), without spaces.
    public init(compact: Bool = false) {
        self.compact = compact
    }

    private let compact: Bool

    /// The JSON text so far.
    public private(set) var output = ""
    private var depth = 0
    private var needsComma = [false]

    /// Writes a bracket.
    public mutating func beginObject() { beginValue(); output += "{"; push() }
    /// Writes a bracket.
    public mutating func endObject() { pop("}") }
    /// Writes a bracket.
    public mutating func beginArray() { beginValue(); output += "["; push() }
    /// Writes a bracket.
    public mutating func endArray() { pop("]") }

    /// Writes an object key; the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        output += compact ? ":" : ": "
        needsComma[depth] = false
        pendingKey = true
    }

    /// Writes a string, or `null`.
    public mutating func string(_ value: String?) {
        beginValue()
        if let value { appendString(value) } else { output += "null" }
    }

    /// Writes a number in its shortest form, or `null`.
    public mutating func number(_ value: Double?) {
        beginValue()
        output += value.map(NumberFormatting.shortest) ?? "null"
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int) {
        beginValue()
        output += String(value)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        beginValue()
        output += value ? "true" : "false"
    }

    /// Writes an array of strings.
    public mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    private var pendingKey = false

    private mutating func beginValue() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
        needsComma[depth] = true
    }

    private mutating func separate() {
        if needsComma[depth] { output += "," }
        if depth > 0, !compact { output += "\n" + String(repeating: "  ", count: depth) }
    }

    private mutating func push() {
        depth += 1
        needsComma.append(false)
    }

    private mutating func pop(_ closer: String) {
        let hadContent = needsComma.removeLast()
        depth -= 1
        if hadContent, !compact { output += "\n" + String(repeating: "  ", count: depth) }
        output += closer
        needsComma[depth] = true
    }

    private mutating func appendString(_ value: String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

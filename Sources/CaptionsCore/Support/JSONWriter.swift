/// A minimal streaming JSON writer with two-space indentation, used by the JSON dump and the
/// flash report: keys come out in the order they are written.
public struct JSONWriter {
    /// An empty writer; `compact` writes everything on one line (JSON Lines), without spaces.
    public init(compact: Bool = false) {
        self.compact = compact
    }

    private let compact: Bool

    /// The JSON text so far.
    public var output: String { String(decoding: bytes, as: UTF8.self) }
    /// The text as UTF-8: strings go in as runs of bytes (appending them scalar by scalar to a
    /// `String` was most of writing a report of 100,000 findings, 2.8 s of 3).
    private var bytes: [UInt8] = []
    private var depth = 0
    private var needsComma = [false]

    /// Writes a bracket.
    public mutating func beginObject() { beginValue(); append("{"); push() }
    /// Writes a bracket.
    public mutating func endObject() { pop("}") }
    /// Writes a bracket.
    public mutating func beginArray() { beginValue(); append("["); push() }
    /// Writes a bracket.
    public mutating func endArray() { pop("]") }

    /// Writes an object key; the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        append(compact ? ":" : ": ")
        needsComma[depth] = false
        pendingKey = true
    }

    /// Writes a string, or `null`.
    public mutating func string(_ value: String?) {
        beginValue()
        if let value { appendString(value) } else { append("null") }
    }

    /// Writes a number in its shortest form, or `null`.
    public mutating func number(_ value: Double?) {
        beginValue()
        append(value.map(NumberFormatting.shortest) ?? "null")
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int) {
        beginValue()
        append(String(value))
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        beginValue()
        append(value ? "true" : "false")
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
        if needsComma[depth] { append(",") }
        if depth > 0, !compact { newLine() }
    }

    /// A line break and the indentation of the depth.
    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
    }

    private mutating func push() {
        depth += 1
        needsComma.append(false)
    }

    private mutating func pop(_ closer: String) {
        let hadContent = needsComma.removeLast()
        depth -= 1
        if hadContent, !compact { newLine() }
        append(closer)
        needsComma[depth] = true
    }

    /// Appends text as it is.
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a JSON string: runs of bytes that need no escape go in whole.
    private mutating func appendString(_ value: String) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    let hex = String(byte, radix: 16)
                    append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A well-formedness check for JSON (RFC 8259) without recursion, so that a deeply nested dump
/// cannot overflow the checker's stack before it has found anything.
enum JSONSyntax {
    private enum Container { case array, object }

    /// `nil` when `bytes` are one JSON value (with surrounding white space), else what is wrong.
    static func problem(in bytes: [UInt8]) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.document()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var stack: [Container] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        func fail(_ what: String) -> String { "\(what) at byte \(index)" }

        mutating func document() -> String? {
            skipSpace()
            while true {
                // A value is expected here.
                skipSpace()
                guard let byte = current else { return fail("value expected, end found") }
                switch byte {
                case UInt8(ascii: "["):
                    index += 1
                    skipSpace()
                    if current == UInt8(ascii: "]") { index += 1 } else {
                        stack.append(.array)
                        continue
                    }
                case UInt8(ascii: "{"):
                    index += 1
                    skipSpace()
                    if current == UInt8(ascii: "}") { index += 1 } else {
                        stack.append(.object)
                        if let problem = key() { return problem }
                        continue
                    }
                case UInt8(ascii: "\""):
                    if let problem = string() { return problem }
                default:
                    if let problem = scalar() { return problem }
                }
                // A value ended: close containers or go on to the next member.
                while true {
                    skipSpace()
                    guard let container = stack.last else {
                        return index == bytes.count ? nil : fail("text after the value")
                    }
                    let close = container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
                    if current == close {
                        index += 1
                        stack.removeLast()
                        continue
                    }
                    guard current == UInt8(ascii: ",") else { return fail("',' or a closing bracket expected") }
                    index += 1
                    if container == .object, let problem = key() { return problem }
                    break
                }
            }
        }

        /// `"name":` in an object.
        mutating func key() -> String? {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { return fail("a member name expected") }
            if let problem = string() { return problem }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return fail("':' expected") }
            index += 1
            return nil
        }

        mutating func string() -> String? {
            index += 1
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return nil
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return fail("unfinished escape") }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current, hex.isHexDigit else { return fail("\\u needs four hex digits") }
                            index += 1
                        }
                    } else if !Array("\"\\/bfnrt".utf8).contains(escaped) {
                        return fail("unknown escape")
                    }
                case 0..<0x20: return fail("unescaped control character \(byte) in a string")
                default: continue
                }
            }
            return fail("unterminated string")
        }

        /// A number, `true`, `false` or `null`.
        mutating func scalar() -> String? {
            for word in ["true", "false", "null"] where bytes[index...].starts(with: word.utf8) {
                index += word.utf8.count
                return nil
            }
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() else { return fail("a value expected") }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() else { return fail("digits expected after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() else { return fail("digits expected in the exponent") }
            }
            return index > start ? nil : fail("a value expected")
        }

        mutating func digits() -> Bool {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index > start
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

import FoundationEssentials

/// What is wrong with a JSON file, in words that name the place (`segments[3].startTime:
/// expected a number`) rather than Swift's `DecodingError.typeMismatch…`.
public enum JSONProblem {
    /// `error` as one line naming the JSON path and what was expected there.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON: \(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let parts: [String] = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? "." + key.stringValue }
            let joined: String = parts.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
        }
        func place(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "the top level" : path(context)
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case .typeMismatch(let type, let context):
            return "\(place(context)): expected \(name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(place(context)): expected \(name(of: type)), found null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON: \(context.debugDescription)" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "not the JSON expected"
        }
    }

    private static func name(of type: Any.Type) -> String {
        if type is Double.Type || type is Int.Type { return "a number" }
        if type is String.Type { return "a string" }
        if type is Bool.Type { return "true or false" }
        return "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }

    /// The deepest nesting of arrays and objects in `bytes` (outside strings), so that readers can
    /// refuse a file nested too deep before decoding it recursively.
    public static func depth(of bytes: some Collection<UInt8>) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to standard error, unbuffered (so it is out before an `abort()`).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
        var rest = UnsafeRawBufferPointer(buffer)
        while !rest.isEmpty {
            let written = write(2, rest.baseAddress, rest.count)
            if written <= 0 { return }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
}

extension FuzzFinding {
    /// A rule of `CAPTIONS_FUZZ_IGNORE` or `CAPTIONS_FUZZ_ONLY`: a prefix of ``check``, and text
    /// the message must contain when the rule has `~TEXT`.
    typealias Rule = (check: Substring, text: Substring?)

    /// The `|`-separated rules in the environment variable `name`, such as
    /// `roundtrip.ttml|reread.srt~not a time`.
    static func rules(_ name: String) -> [Rule] {
        guard let value = getenv(name) else { return [] }
        return String(cString: value).split(separator: "|").map { rule in
            guard let tilde = rule.firstIndex(of: "~") else { return (rule, nil) }
            return (rule[..<tilde], rule[rule.index(after: tilde)...])
        }
    }

    /// Findings to leave out (`CAPTIONS_FUZZ_IGNORE`), so that a long run gets past known
    /// problems while they are being fixed.
    static let ignoreRules = rules("CAPTIONS_FUZZ_IGNORE")
    /// When given (`CAPTIONS_FUZZ_ONLY`), the only findings that count: minimising a reproducer
    /// with `-minimize_crash=1` then keeps to the one problem.
    static let onlyRules = rules("CAPTIONS_FUZZ_ONLY")

    /// Whether this finding falls under `rule`.
    func matches(_ rule: Rule) -> Bool {
        check.hasPrefix(rule.check) && (rule.text.map { message.contains($0) } ?? true)
    }

    /// Whether the environment's rules let this finding count.
    var isReported: Bool {
        !Self.ignoreRules.contains(where: matches) && (Self.onlyRules.isEmpty || Self.onlyRules.contains(where: matches))
    }
}

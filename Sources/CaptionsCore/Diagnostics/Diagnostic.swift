/// Something a reader, transform or writer noticed: a repair, a guess, a drop, or an error.
///
/// Every leniency produces one, so that nothing is lost silently. Tests match diagnostics by
/// ``code`` and ``location``, never by the wording of ``message``.
public struct Diagnostic: Sendable, Hashable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Informational: a harmless irregularity that was normalised.
        case note
        /// Something was repaired, guessed or dropped; `--strict` turns it into an error.
        case warning
        /// The input is invalid at this point; the command fails.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable, dotted identifier such as `srt.timestamp.separator`, part of the public contract.
    public struct Code: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The dotted identifier.
        public let rawValue: String

        /// Wraps a dotted identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Wraps a dotted identifier written as a literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The dotted identifier.
        public var description: String { rawValue }
    }

    /// How serious it is.
    public var severity: Severity
    /// The stable identifier.
    public var code: Code
    /// A sentence for people; may change between versions.
    public var message: String
    /// Where in the source it applies; `nil` for a whole-document remark (such as a writer's loss).
    public var location: SourceLocation?

    /// A diagnostic with every field given.
    public init(_ severity: Severity, _ code: Code, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }
}

/// A fatal problem: the input cannot be read at all, or an operation cannot go on.
///
/// Readers throw it for what cannot be repaired (no WebVTT signature, no cues in an SRT file);
/// everything else is a ``Diagnostic`` on the returned document.
public struct CaptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier, as for diagnostics.
    public var code: Diagnostic.Code
    /// A sentence for people.
    public var message: String
    /// Where it happened, when it is a place in a source file.
    public var location: SourceLocation?

    /// An error with a code, a message and an optional location.
    public init(_ code: Diagnostic.Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The error as a diagnostic of severity `error`.
    public var diagnostic: Diagnostic {
        Diagnostic(.error, code, message, at: location)
    }

    /// `"message [code]"`.
    public var description: String { "\(message) [\(code)]" }
}

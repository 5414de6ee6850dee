/// Reads bytes of one format into the model.
///
/// Readers never print and never return a partial document silently: what they repair or skip
/// is a ``Diagnostic`` on the result, and what makes the input unreadable is a thrown ``CaptionsError``.
public protocol TimedTextReader: Sendable {
    /// Parses a whole file; the reader owns the bytes and may release them before it returns.
    func read(_ bytes: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument
}

/// A reader that can parse bytes it does not own (a memory-mapped file, say) without copying
/// them when they need no decoding; the document is the same as ``TimedTextReader/read(_:)``'s.
public protocol InPlaceTimedTextReader: TimedTextReader {
    /// Parses a whole file from bytes that stay valid for the duration of the call.
    func read(borrowing bytes: UnsafeBufferPointer<UInt8>) throws(CaptionsError) -> TimedTextDocument
}

/// Writes the model as bytes of one format.
///
/// A writer writes what it is given; run ``CapabilityReducer`` first so that what the format
/// cannot carry is dropped and reported rather than silently mangled.
public protocol TimedTextWriter: Sendable {
    /// What the format can carry.
    var capabilities: FormatCapabilities { get }
    /// Serialises a document, handing the bytes to `emit` in order, in pieces.
    func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void)
    /// Fits the document to the format's own rules beyond what ``capabilities`` says (a grid of
    /// 32 × 4 characters, a character set, one caption at a time): re-wraps, splits, substitutes,
    /// and returns one diagnostic per kind of change. Run after ``CapabilityReducer``; `write`
    /// fits again what it is given without reporting, so a document not fitted is still valid output.
    func fit(_ document: inout TimedTextDocument) -> [Diagnostic]
}

extension TimedTextWriter {
    /// Formats without rules of their own change nothing.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] { [] }
}

extension TimedTextWriter {
    /// Serialises a document into one byte array.
    public func write(_ document: TimedTextDocument) -> [UInt8] {
        var bytes: [UInt8] = []
        write(document) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

import CaptionsCore

/// The writers' output buffer: UTF-8 bytes appended without intermediate `String`s, handed on in
/// pieces of about 1 MiB (``flushIfFull(to:)``) so that a large file never sits whole in memory.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []
    private static let pieceSize = 1 << 20

    init() {}

    mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    mutating func write(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    /// Writes `HH:MM:SS` + separator + `mmm`, rounded to the nearest millisecond.
    mutating func writeClock(_ time: MediaTime, fractionSeparator separator: UInt8) {
        ClockTime(roundingToMilliseconds: time).append(to: &bytes, fractionSeparator: separator)
    }

    /// Empties the buffer, keeping its storage.
    mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    /// Hands the bytes so far to `emit` and empties the buffer when it holds a piece's worth.
    mutating func flushIfFull(to emit: (UnsafeRawBufferPointer) -> Void) {
        if bytes.count >= Self.pieceSize { flush(to: emit) }
    }

    /// Hands the bytes so far to `emit` and empties the buffer.
    mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes(emit)
        bytes.removeAll(keepingCapacity: true)
    }
}

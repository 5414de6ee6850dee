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

    /// Makes room for `count` bytes at once.
    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

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

/// Serialises many items in order on every core: the first piece streams to `emit` as it fills
/// while the later pieces fill their own buffers at the same time; those are emitted after it, so
/// the output is the same as a sequential pass (and no more than the later pieces sits in memory).
enum ParallelSerialization {
    /// Writes items `0..<count` with `item`, each piece with its own `State` (such as a scratch buffer).
    static func write<State>(
        count: Int, state makeState: () -> State, emit: (UnsafeRawBufferPointer) -> Void,
        item: (Int, inout ByteWriter, inout State) -> Void
    ) {
        let pieces = ParallelWork.pieceCount(for: count, minimum: 20_000)
        let bounds = (0...pieces).map { count * $0 / pieces }
        var buffered = ParallelWork.map(pieces) { piece in
            var out = ByteWriter()
            if piece > 0 { out.reserve((bounds[piece + 1] - bounds[piece]) * 96) }
            var state = makeState()
            for index in bounds[piece]..<bounds[piece + 1] {
                item(index, &out, &state)
                if piece == 0 { out.flushIfFull(to: emit) }
            }
            if piece == 0 { out.flush(to: emit) }
            return out
        }
        for index in buffered.indices.dropFirst() { buffered[index].flush(to: emit) }
    }
}

import CaptionsCore
import Synchronization

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

/// Serialises many items in order on every core: the items are cut into pieces of a few thousand,
/// each core fills a buffer with the next piece, and every buffer is handed to `emit` as soon as
/// the pieces before it are out. The output is the same as a sequential pass; writing overlaps
/// serialising, and only a few pieces sit in memory at a time.
enum ParallelSerialization {
    /// Items per piece: large enough to amortise the hand-over, small enough to keep buffers in cache.
    private static let piece = 4_096
    /// Room reserved per item: a typical cue's worth of bytes.
    private static let bytesPerItem = 96

    /// Writes items `0..<count` with `item`, each piece with its own `State` (such as a scratch buffer).
    static func write<State>(
        count: Int, state makeState: () -> State, emit: (UnsafeRawBufferPointer) -> Void,
        item: (Int, inout ByteWriter, inout State) -> Void
    ) {
        guard ParallelWork.pieceCount(for: count, minimum: 20_000) > 1 else {
            var out = ByteWriter()
            var state = makeState()
            for index in 0..<count {
                item(index, &out, &state)
                out.flushIfFull(to: emit)
            }
            out.flush(to: emit)
            return
        }
        let pieces = (count + piece - 1) / piece
        let handOver = Mutex(OrderedHandOver(pieces: pieces))
        nonisolated(unsafe) let emit = emit
        _ = ParallelWork.map(pieces) { index in
            var out = ByteWriter()
            out.reserve(piece * bytesPerItem)
            var state = makeState()
            for itemIndex in (index * piece)..<min(count, (index + 1) * piece) { item(itemIndex, &out, &state) }
            handOver.withLock { $0.finish(index, out, emit: emit) }
        }
    }

    /// Finished pieces waiting for the ones before them.
    private struct OrderedHandOver: ~Copyable {
        private var waiting: [ByteWriter?]
        private var next = 0

        init(pieces: Int) { waiting = Array(repeating: nil, count: pieces) }

        /// Stores piece `index`, then emits every piece that is now next in line.
        mutating func finish(_ index: Int, _ buffer: ByteWriter, emit: (UnsafeRawBufferPointer) -> Void) {
            waiting[index] = buffer
            while next < waiting.count, var ready = waiting[next] {
                ready.flush(to: emit)
                waiting[next] = nil
                next += 1
            }
        }
    }
}

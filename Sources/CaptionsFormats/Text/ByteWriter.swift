import CaptionsCore
import Synchronization

/// The writers' output buffer: UTF-8 bytes appended without intermediate `String`s, handed on in
/// pieces of about 1 MiB (``flushIfFull(to:)``) so that a large file never sits whole in memory.
///
/// It keeps its own storage (copied on write, so it is a value like an array) because writers make
/// millions of small appends, and a bounds check plus a copy is several times cheaper than
/// `Array.append(contentsOf:)`.
struct ByteWriter: Sendable {
    /// Written only while uniquely referenced (every write goes through ``reserve(_:)``), so
    /// sharing it between threads is safe.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage = Storage(capacity: 256)
    /// How many bytes have been written since the last flush.
    private(set) var count = 0
    private static let pieceSize = 1 << 20

    init() {}

    /// Calls `body` with the bytes written since the last flush.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: storage.base, count: count))
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    mutating func write(_ byte: UInt8) {
        reserve(1)
        storage.base[count] = byte
        count += 1
    }

    mutating func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        reserve(buffer.count)
        (storage.base + count).update(from: source, count: buffer.count)
        count += buffer.count
    }

    /// Writes a non-negative number in decimal digits.
    mutating func writeDecimal(_ number: Int) {
        reserve(DecimalDigits.count(Int64(number)))
        count += DecimalDigits.write(Int64(number), to: storage.base + count)
    }

    /// Writes `HH:MM:SS` + separator + `mmm`, rounded to the nearest millisecond.
    mutating func writeClock(_ time: MediaTime, fractionSeparator separator: UInt8) {
        reserve(ClockTime.maximumLength)
        count += ClockTime(roundingToMilliseconds: time).write(to: storage.base + count, fractionSeparator: separator)
    }

    /// Makes room for `extra` more bytes, in storage of this writer's own.
    mutating func reserve(_ extra: Int) {
        guard count + extra > storage.capacity || !isKnownUniquelyReferenced(&storage) else { return }
        let larger = Storage(capacity: Swift.max(storage.capacity * 2, count + extra))
        larger.base.update(from: storage.base, count: count)
        storage = larger
    }

    /// Empties the buffer, keeping its storage.
    mutating func clear() { count = 0 }

    /// Hands the bytes so far to `emit` and empties the buffer when it holds a piece's worth.
    mutating func flushIfFull(to emit: (UnsafeRawBufferPointer) -> Void) {
        if count >= Self.pieceSize { flush(to: emit) }
    }

    /// Hands the bytes so far to `emit` and empties the buffer.
    mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        guard count > 0 else { return }
        emit(UnsafeRawBufferPointer(start: storage.base, count: count))
        count = 0
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

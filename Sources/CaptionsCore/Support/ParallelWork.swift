import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs independent pieces of a large file's work on every core.
///
/// Used only where the pieces are independent by construction (SRT chunks that each start at a
/// cue, ranges of cues to serialise); results come back in piece order, so output never depends
/// on scheduling.
public enum ParallelWork {
    /// Online processors, at least 1.
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// How many pieces to cut work of `size` units into: one per core, none smaller than `minimum`.
    public static func pieceCount(for size: Int, minimum: Int) -> Int {
        max(1, min(processorCount, size / max(minimum, 1)))
    }

    /// `0..<count` cut into ``pieceCount(for:minimum:)`` consecutive ranges of about equal size.
    public static func ranges(of count: Int, minimum: Int) -> [Range<Int>] {
        let pieces = pieceCount(for: count, minimum: minimum)
        return (0..<pieces).map { (count * $0 / pieces)..<(count * ($0 + 1) / pieces) }
    }

    /// `work(i)` for every `i` in `0..<count`, concurrently, results in index order.
    public static func map<Result>(_ count: Int, _ work: (Int) -> Result) -> [Result] {
        guard count > 1 else { return (0..<count).map(work) }
        var results = [Result?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            withoutActuallyEscaping(work) { work in
                nonisolated(unsafe) let work = work
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    output[index] = work(index)
                }
            }
        }
        return results.compactMap { $0 }
    }
}

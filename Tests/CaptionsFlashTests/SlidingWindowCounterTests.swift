import Testing

@testable import CaptionsFlash

/// The per-cell count of transitions over the last second (with the weights of a weighted
/// counter), and the same window carried over to another grid when the picture changes size.
@Suite struct SlidingWindowCounterTests {
    /// Transitions recorded on one grid and then carried to another read as if they had been
    /// recorded on the other all along: every count, the largest, the flagged cells, and what
    /// leaves the window afterwards.
    @Test(arguments: [(6, 4), (2, 9), (5, 5)])
    func aRemappedWindowCountsAsIfRecordedThere(oldCount: Int, newCount: Int) {
        // New block n comes from old block n * oldCount / newCount (several or none per old block).
        let sources = (0..<newCount).map { Int32($0 * oldCount / newCount) }
        let old = SlidingWindowCounter(blockCount: oldCount, limit: 2, weighted: true)
        let direct = SlidingWindowCounter(blockCount: newCount, limit: 2, weighted: true)
        var random = UInt64(0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        let frameTimes = (0..<45).map { Double($0) / 30 }
        for time in frameTimes {
            old.begin(frameAt: time)
            direct.begin(frameAt: time)
            for _ in 0..<next(4) {
                let (block, weight) = (next(oldCount), Int32(1 + next(9)))
                old.record(block, weight: weight)
                for (target, source) in sources.enumerated() where Int(source) == block { direct.record(target, weight: weight) }
            }
        }
        let remapped = old.remapped(to: sources)
        func same(_ note: String) {
            #expect(Array(remapped.counts) == Array(direct.counts), "\(note)")
            #expect(remapped.maximum == direct.maximum, "\(note)")
            #expect(Set(remapped.flagged) == Set(direct.flagged), "\(note)")
            #expect(remapped.windowStart == direct.windowStart, "\(note)")
            #expect((0..<newCount).map(remapped.weightSum) == (0..<newCount).map(direct.weightSum), "\(note)")
        }
        same("after the change")
        #expect(direct.maximum > 0, "the test records transitions")
        #expect((0..<newCount).contains { direct.weightSum($0) > Int64(direct.counts[$0]) }, "weights are not all 1")
        // Time goes on: the carried frames leave the window as the recorded ones do.
        for time in [1.6, 1.9, 2.5] {
            remapped.begin(frameAt: time)
            direct.begin(frameAt: time)
            remapped.record(0, weight: 5)
            direct.record(0, weight: 5)
            same("at \(time) s")
        }
    }
}

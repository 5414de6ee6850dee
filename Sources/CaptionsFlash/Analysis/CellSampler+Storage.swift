import CaptionsCore

/// The storage of ``CellSampler``: its buffers of sums, and its means and spreads as the kernels
/// take them.
extension CellSampler {
    /// Three zeroed buffers of `UInt32` (or one, standing for all three), owned here (no
    /// copy-on-write or exclusivity checks in the loops that run over every pixel).
    final class Buffers {
        let count: Int
        let channels: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>)
        private let distinct: Int

        init(count: Int, channels distinct: Int = 3) {
            self.count = count
            self.distinct = distinct
            func make() -> UnsafeMutablePointer<UInt32> {
                let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: max(count, 1))
                buffer.initialize(repeating: 0, count: max(count, 1))
                return buffer
            }
            let first = make()
            channels = distinct == 3 ? (first, make(), make()) : (first, first, first)
        }

        deinit {
            channels.0.deallocate()
            if distinct == 3 {
                channels.1.deallocate()
                channels.2.deallocate()
            }
        }

        subscript(channel: Int) -> UnsafeMutablePointer<UInt32> {
            channel == 0 ? channels.0 : channel == 1 ? channels.1 : channels.2
        }

        func clear() {
            for channel in 0..<3 { self[channel].update(repeating: 0, count: count) }
        }
    }

    /// Calls `body` with the means of channels 0–2 and their spreads (those past
    /// ``spreadChannels`` not to be read: channel 0's, or an earlier RGB picture's), valid during
    /// the call.
    func withChannels<Result>(
        _ body: (
            (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
            (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)
        ) -> Result
    ) -> Result {
        channel0.withUnsafeBufferPointer { c0 in
            channel1.withUnsafeBufferPointer { c1 in
                channel2.withUnsafeBufferPointer { c2 in
                    spread0.withUnsafeBufferPointer { s0 in
                        spread1.withUnsafeBufferPointer { s1 in
                            spread2.withUnsafeBufferPointer { s2 in
                                body(
                                    (c0.baseAddress!, c1.baseAddress!, c2.baseAddress!),
                                    (s0.baseAddress!, s1.baseAddress ?? s0.baseAddress!, s2.baseAddress ?? s0.baseAddress!))
                            }
                        }
                    }
                }
            }
        }
    }
}

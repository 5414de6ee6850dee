import CaptionsMedia
import Testing

/// The decoder reads and decodes on a thread of its own, a few frames ahead of the caller.
@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"))
struct VideoDecoderTests {
    private let clip = FlashSamples.path("a-black-white-5hz-fail")  // 4 s at 30 fps

    @Test func everyFrameArrivesOnceInOrder() throws {
        let decoder = try VideoDecoder(path: clip)
        var times: [Double] = []
        let outcome = decoder.decode { frame in
            times.append(frame.time.seconds)
            return true
        }
        #expect(outcome.partialReason == nil)
        #expect(outcome.frameCount == 120 && times.count == 120)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Stopping early ends the decoding thread too: the call returns, with exactly the frames seen.
    @Test(arguments: [1, 3, 50])
    func stoppingEarlyReturnsTheFramesSeen(limit: Int) throws {
        let decoder = try VideoDecoder(path: clip)
        var seen = 0
        let outcome = decoder.decode { _ in
            seen += 1
            return seen < limit
        }
        #expect(seen == limit && outcome.frameCount == limit)
        #expect(outcome.partialReason == nil)
    }
}

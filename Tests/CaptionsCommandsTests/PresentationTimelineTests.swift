import CaptionsMedia
import Testing

/// The one monotonic timeline made of a stream's raw timestamps.
struct PresentationTimelineTests {
    /// Places frames with raw timestamps `raws` (0.1 s a frame); the timeline times, rounded to ms.
    static func place(_ raws: [Double?], mayJump: Bool = false) -> ([Double], PresentationTimeline) {
        var timeline = PresentationTimeline(frameDuration: 0.1, mayJump: mayJump)
        let times = raws.map { ((timeline.place(raw: $0, duration: 0.1)) * 1000).rounded() / 1000 }
        return (times, timeline)
    }

    @Test func steadyTimestampsCountFromTheFirstFrame() {
        let (times, timeline) = Self.place([5, 5.1, 5.2, 5.3])
        #expect(times == [0, 0.1, 0.2, 0.3])
        #expect(timeline.streamStart == 5)
        #expect(timeline.discontinuities.isEmpty && timeline.gaps.isEmpty)
    }

    @Test func repeatedTimestampsDoNotStretchTheTimeline() {
        let (times, timeline) = Self.place([0, 0, 0, 0.3, 0.3, 0.3, 0.6])
        #expect(times == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        #expect(timeline.discontinuities.map(\.jump) == [0, 0, 0, 0])
        #expect(timeline.gaps.isEmpty)
    }

    @Test func repeatsThatOverrunTheNextTimestampKeepTheOrder() {
        let (times, _) = Self.place([0, 0, 0, 0.1, 0.4])
        #expect(times == [0, 0.1, 0.2, 0.3, 0.6])
    }

    @Test func aRestartContinuesOneFrameLater() {
        let (times, timeline) = Self.place([10, 10.1, 0, 0.1])
        #expect(times == [0, 0.1, 0.2, 0.3])
        #expect(timeline.discontinuities.map { ($0.jump * 10).rounded() / 10 } == [-10.1])
    }

    @Test func aLongForwardJumpIsADiscontinuityOnlyWhereTimestampsMayJump() {
        let (jumped, jumpedLine) = Self.place([0, 0.1, 60], mayJump: true)
        #expect(jumped == [0, 0.1, 0.2])
        #expect(jumpedLine.discontinuities.count == 1)
        let (held, heldLine) = Self.place([0, 0.1, 60])
        #expect(held == [0, 0.1, 60])
        #expect(heldLine.gaps.count == 1)
    }

    @Test func aStepOfMoreThanTwoFramesIsAGap() {
        let (times, timeline) = Self.place([0, 0.1, 0.5, 0.6, nil])
        #expect(times == [0, 0.1, 0.5, 0.6, 0.7])
        #expect(timeline.gaps.count == 1)
        let gap = timeline.gaps[0]
        #expect(abs(gap.start - 0.2) < 1e-9 && abs(gap.end - 0.5) < 1e-9)
    }
}

/// Turns a stream's presentation timestamps into one monotonic timeline that starts at 0 with the
/// first frame shown, as players count time.
///
/// - A timestamp that goes backwards (an MPEG-TS restart, a 33-bit wrap, joined segments) is a
///   **discontinuity**: the frame is placed one frame after the one before.
/// - A timestamp that stands still (a muxer that repeats one) is a discontinuity too, placed one
///   frame later, but the next timestamp that moves on is counted from the first of the repeats,
///   so that repeats do not stretch the timeline (and slow its flashes down).
/// - A jump forward of more than ``discontinuityLimit`` seconds in a format whose timestamps may
///   jump (MPEG-TS) is a discontinuity too.
/// - Any other step of more than two frame durations (a quarter frame of leeway for jitter) is a
///   **gap**: the time is kept, and the gap listed. The decoder calls it frames lost to damage
///   when the stream shows damage, and a picture held on screen (variable frame rate) when not.
///
/// A frame's due time uses its predecessor's own duration when the stream gives one (GIF and
/// APNG frames last as long as they like), and the stream's frame rate otherwise.
public struct PresentationTimeline: Sendable {
    /// A stretch of the timeline, in seconds.
    public struct Span: Sendable, Equatable {
        /// Start, in timeline seconds.
        public var start: Double
        /// End, in timeline seconds.
        public var end: Double

        /// `start`–`end`.
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// Where a discontinuity was mended, and how far the raw timestamps jumped (seconds).
    public struct Discontinuity: Sendable, Equatable {
        /// The timeline time of the first frame after it.
        public var at: Double
        /// Raw timestamp jump (negative: backwards).
        public var jump: Double
    }

    /// The nominal frame duration in seconds.
    public let frameDuration: Double
    /// Whether the format's timestamps may jump (libavformat's AVFMT_TS_DISCONT).
    public let mayJump: Bool
    /// Forward jumps longer than this are discontinuities where timestamps may jump.
    public static let discontinuityLimit = 10.0

    /// The raw timestamp of the first frame, in seconds.
    public private(set) var streamStart: Double?
    /// Gaps found, in timeline seconds.
    public private(set) var gaps: [Span] = []
    /// Discontinuities mended.
    public private(set) var discontinuities: [Discontinuity] = []
    private var lastRaw: Double?
    private var lastTime = 0.0
    /// The timeline time of the frame whose raw timestamp is `lastRaw` (before any repeats of it).
    private var anchorTime = 0.0
    private var lastDuration: Double?

    /// A timeline for frames of `frameDuration` seconds.
    public init(frameDuration: Double, mayJump: Bool) {
        self.frameDuration = frameDuration > 0 && frameDuration.isFinite ? frameDuration : 1.0 / 25
        self.mayJump = mayJump
    }

    /// The timeline time of the next frame, whose raw timestamp is `raw` seconds (nil when
    /// unknown) and which lasts `duration` seconds (nil when unknown).
    public mutating func place(raw: Double?, duration: Double?) -> Double {
        defer { lastDuration = duration.flatMap { $0 > 0 ? $0 : nil } }
        guard let previous = lastRaw else {
            streamStart = raw
            lastRaw = raw ?? 0
            (lastTime, anchorTime) = (0, 0)
            return 0
        }
        let step = lastDuration ?? frameDuration
        guard let raw else {
            lastTime += step
            (lastRaw, anchorTime) = (previous + step, lastTime)
            return lastTime
        }
        let jump = raw - previous
        if jump == 0 {
            lastTime += step
            discontinuities.append(Discontinuity(at: lastTime, jump: 0))
            return lastTime
        }
        lastRaw = raw
        if jump < 0 || (mayJump && jump > Self.discontinuityLimit) {
            lastTime += step
            anchorTime = lastTime
            discontinuities.append(Discontinuity(at: lastTime, jump: jump))
            return lastTime
        }
        // After repeats the frame may already be due: it then follows one frame later.
        let time = anchorTime + jump > lastTime ? anchorTime + jump : lastTime + step
        if time - lastTime > 2.25 * step {
            gaps.append(Span(start: lastTime + step, end: time))
        }
        (lastTime, anchorTime) = (time, time)
        return lastTime
    }
}

/// Retimes cues made for one frame rate to another (`--fps 25:23.976`).
///
/// Frame `n` sits at `n / from` seconds in the source and at `n / to` seconds in the target, so
/// every time is multiplied by `from / to`, exactly: captions for a 25 fps PAL speed-up become
/// 25/23.976 = 25025/24000 times longer to fit the 24000/1001 fps original.
public struct FrameRateRetime: Sendable {
    /// The rate the captions were timed for.
    public var from: FrameRate
    /// The rate of the video they should now fit.
    public var to: FrameRate

    /// A retime from one rate to another.
    public init(from: FrameRate, to: FrameRate) {
        self.from = from
        self.to = to
    }

    /// The retimed document.
    public func apply(to document: TimedTextDocument) -> TimedTextDocument {
        let numerator = from.numerator * to.denominator
        let denominator = from.denominator * to.numerator
        var retimed = document
        retimed.mapTimes { $0.scaled(by: numerator, denominator) ?? $0 }
        return retimed
    }
}

/// Bounds beyond which a time is not plausible media time (readers report it as `time.outOfRange`).
public enum TimeLimits {
    /// 10,000 hours: more than a year of media.
    public static let plausibleMaximumHours: Int64 = 10_000
    /// ``plausibleMaximumHours`` as a time.
    public static let plausibleMaximum = MediaTime(seconds: plausibleMaximumHours * 3600)

    /// An error for the first cue with a time beyond ``plausibleMaximum`` (WebVTT and SRT readers
    /// refuse such times, so nothing may write them), or nil.
    public static func outOfRange(in cues: [Cue]) -> Diagnostic? {
        guard let cue = cues.first(where: { max($0.start, $0.end ?? $0.start) > plausibleMaximum }) else { return nil }
        return Diagnostic(
            .error, "time.outOfRange",
            "a time beyond \(plausibleMaximumHours) hours is not plausible media time (cue at \(ClockTime(roundingToMilliseconds: cue.start).formatted(fractionSeparator: ".")))",
            at: cue.location)
    }
}

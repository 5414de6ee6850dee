/// Bounds beyond which a time is not plausible media time (readers report it as `time.outOfRange`).
public enum TimeLimits {
    /// 10,000 hours: more than a year of media.
    public static let plausibleMaximumHours: Int64 = 10_000
    /// ``plausibleMaximumHours`` as a time.
    public static let plausibleMaximum = MediaTime(seconds: plausibleMaximumHours * 3600)
}

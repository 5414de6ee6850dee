/// A frame rate as an exact ratio of frames per second, such as 24000/1001.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames counted over ``denominator`` seconds.
    public let numerator: Int64
    /// Seconds over which ``numerator`` frames are counted; positive.
    public let denominator: Int64

    /// The rate `numerator / denominator`; `nil` unless both are positive.
    public init?(numerator: Int64, denominator: Int64 = 1) {
        guard numerator > 0, denominator > 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses `"25"`, `"24000/1001"` or a decimal; the NTSC shorthands 23.976 (also 23.98), 29.97,
    /// 47.952, 59.94 and 119.88 mean their exact 1000/1001 rates.
    public init?(parsing text: String) {
        let ntsc: [String: Int64] = ["23.976": 24000, "23.98": 24000, "29.97": 30000, "47.952": 48000,
                                     "59.94": 60000, "119.88": 120000]
        if let rate = ntsc[text] {
            self.init(numerator: rate, denominator: 1001)
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let numerator = Int64(parts[0]), let denominator = Int64(parts[1]) else { return nil }
            self.init(numerator: numerator, denominator: denominator)
            return
        }
        guard let time = MediaTime(decimalSeconds: Substring(text)) else { return nil }
        self.init(numerator: time.value, denominator: time.timescale)
    }

    /// `"24000/1001"`, or `"25"` for a whole rate.
    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}

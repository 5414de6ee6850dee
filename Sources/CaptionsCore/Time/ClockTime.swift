/// A time split into clock fields at millisecond precision, as WebVTT and SRT write it.
public struct ClockTime: Sendable, Hashable {
    /// True for a time before zero (only a shift can produce one).
    public var isNegative: Bool
    /// Whole hours; not limited to 99.
    public var hours: Int64
    /// Minutes, 0 to 59.
    public var minutes: Int
    /// Seconds, 0 to 59.
    public var seconds: Int
    /// Milliseconds, 0 to 999.
    public var milliseconds: Int

    /// Splits `time` after rounding it to the nearest millisecond (ties away from zero).
    public init(roundingToMilliseconds time: MediaTime) {
        let total = time.rounded(toTimescale: 1000)
        let magnitude = total.magnitude
        isNegative = total < 0
        hours = Int64(magnitude / 3_600_000)
        minutes = Int(magnitude / 60_000 % 60)
        seconds = Int(magnitude / 1000 % 60)
        milliseconds = Int(magnitude % 1000)
    }

    /// `HH:MM:SS` then `separator` then `mmm`, hours at least two digits wide.
    public func formatted(fractionSeparator separator: Character) -> String {
        var bytes: [UInt8] = []
        append(to: &bytes, fractionSeparator: separator.asciiValue ?? UInt8(ascii: "."))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the same text as ``formatted(fractionSeparator:)`` as UTF-8, without allocating a `String`.
    public func append(to bytes: inout [UInt8], fractionSeparator separator: UInt8) {
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        if hours < 100 {
            bytes.append(UInt8(ascii: "0") + UInt8(hours / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(hours % 10))
        } else {
            bytes.appendDecimal(hours)
        }
        let zero = UInt8(ascii: "0")
        let colon = UInt8(ascii: ":")
        let fields = (
            colon, zero + UInt8(minutes / 10), zero + UInt8(minutes % 10), colon,
            zero + UInt8(seconds / 10), zero + UInt8(seconds % 10), separator,
            zero + UInt8(milliseconds / 100), zero + UInt8(milliseconds / 10 % 10), zero + UInt8(milliseconds % 10)
        )
        withUnsafeBytes(of: fields) { bytes.append(contentsOf: $0) }
    }
}

extension [UInt8] {
    /// Appends the decimal digits of a non-negative number.
    public mutating func appendDecimal(_ number: Int64) {
        if number >= 10 { appendDecimal(number / 10) }
        append(UInt8(ascii: "0") + UInt8(number % 10))
    }
}

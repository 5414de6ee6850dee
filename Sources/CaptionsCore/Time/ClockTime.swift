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
        if hours < 10 { bytes.append(UInt8(ascii: "0")) }
        bytes.appendDecimal(hours)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendPadded(minutes, width: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendPadded(seconds, width: 2)
        bytes.append(separator)
        bytes.appendPadded(milliseconds, width: 3)
    }
}

extension [UInt8] {
    /// Appends the decimal digits of a non-negative number.
    public mutating func appendDecimal(_ number: Int64) {
        if number >= 10 { appendDecimal(number / 10) }
        append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    /// Appends a non-negative number left-padded with zeros to `width` digits.
    public mutating func appendPadded(_ number: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1 && number < divisor {
            append(UInt8(ascii: "0"))
            divisor /= 10
        }
        appendDecimal(Int64(number))
    }
}

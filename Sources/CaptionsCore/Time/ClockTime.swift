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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumLength) { buffer in
            let count = write(to: buffer.baseAddress!, fractionSeparator: separator.asciiValue ?? UInt8(ascii: "."))
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// The most bytes ``write(to:fractionSeparator:)`` writes: a sign, 19 hour digits, `:MM:SS.mmm`.
    public static let maximumLength = 30

    /// Writes the same text as ``formatted(fractionSeparator:)`` as UTF-8 at `destination`, which
    /// has room for ``maximumLength`` bytes; returns how many it wrote.
    public func write(to destination: UnsafeMutablePointer<UInt8>, fractionSeparator separator: UInt8) -> Int {
        var count = 0
        if isNegative {
            destination[0] = UInt8(ascii: "-")
            count = 1
        }
        let zero = UInt8(ascii: "0")
        if hours < 100 {
            destination[count] = zero + UInt8(hours / 10)
            destination[count + 1] = zero + UInt8(hours % 10)
            count += 2
        } else {
            count += DecimalDigits.write(hours, to: destination + count)
        }
        let colon = UInt8(ascii: ":")
        let fields = (
            colon, zero + UInt8(minutes / 10), zero + UInt8(minutes % 10), colon,
            zero + UInt8(seconds / 10), zero + UInt8(seconds % 10), separator,
            zero + UInt8(milliseconds / 100), zero + UInt8(milliseconds / 10 % 10), zero + UInt8(milliseconds % 10)
        )
        withUnsafeBytes(of: fields) { UnsafeMutableRawPointer(destination + count).copyMemory(from: $0.baseAddress!, byteCount: 10) }
        return count + 10
    }
}

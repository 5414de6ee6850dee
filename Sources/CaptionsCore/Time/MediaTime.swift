/// An exact point or span of media time: the rational number of seconds `value / timescale`.
///
/// `MediaTime` never goes through `Double`: TTML frame counts at 24000/1001 fps, ticks and
/// millisecond timestamps all stay exact. The pair is kept normalised (the greatest common divisor
/// of `value` and `timescale` is 1, and `timescale` is positive), so equal times compare and hash
/// equal whatever scale they were written in.
///
/// Arithmetic is exact while the reduced result fits in 64 bits; past that (times of many
/// thousands of years, or exotic timescales multiplied together) it is rounded to the nanosecond.
/// Rounding to a format's precision happens only in writers, through ``rounded(toTimescale:)``.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator: a count of `1 / timescale` second units.
    public let value: Int64
    /// The denominator: units per second, always positive.
    public let timescale: Int64

    /// Zero seconds.
    public static let zero = MediaTime(normalisedValue: 0, timescale: 1)

    private init(normalisedValue value: Int64, timescale: Int64) {
        self.value = value
        self.timescale = timescale
    }

    /// The time `value / timescale` seconds; `nil` when `timescale` is not positive.
    public init?(value: Int64, timescale: Int64) {
        guard timescale > 0 else { return nil }
        self.init(exactNumerator: Int128(value), denominator: Int128(timescale))
    }

    /// A whole number of seconds.
    public init(seconds: Int64) {
        self.init(normalisedValue: seconds, timescale: 1)
    }

    /// A whole number of milliseconds.
    public init(milliseconds: Int64) {
        // The greatest common divisor with 1000 = 2³·5³, from the powers of 2 and 5 dividing the
        // count (every caption time goes through here, so no Euclid loop).
        let remainder = milliseconds.magnitude % 1000
        let twos: Int64 = remainder % 8 == 0 ? 8 : remainder % 4 == 0 ? 4 : remainder % 2 == 0 ? 2 : 1
        let fives: Int64 = remainder % 125 == 0 ? 125 : remainder % 25 == 0 ? 25 : remainder % 5 == 0 ? 5 : 1
        let divisor = twos * fives
        self.init(normalisedValue: milliseconds / divisor, timescale: 1000 / divisor)
    }

    /// Builds the reduced fraction `numerator / denominator` (denominator > 0), rounding to the
    /// nanosecond and then clamping when it cannot be held in 64 bits.
    init(exactNumerator numerator: Int128, denominator: Int128) {
        let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
        let reducedNumerator = numerator / Int128(divisor)
        let reducedDenominator = denominator / Int128(divisor)
        if let value = Int64(exactly: reducedNumerator), let timescale = Int64(exactly: reducedDenominator) {
            self.init(normalisedValue: value, timescale: timescale)
            return
        }
        let clamped = Int128(Self.nanoseconds(numerator, over: denominator))
        let nanoDivisor = Self.gcd(clamped.magnitude, 1_000_000_000)
        self.init(
            normalisedValue: Int64(clamped / Int128(nanoDivisor)),
            timescale: Int64(1_000_000_000 / nanoDivisor)
        )
    }

    /// `value / timescale` (timescale > 0) reduced, in 64 bits.
    private init(reducing value: Int64, over timescale: Int64) {
        let divisor = Int64(Self.gcd(value.magnitude, UInt64(timescale)))  // at most `timescale`, so it fits
        self.init(normalisedValue: value / divisor, timescale: timescale / divisor)
    }

    /// The time in seconds as a `Double`, for output at the edges (JSON seconds, progress).
    /// It is the Double nearest the exact fraction, so that a time written as its shortest decimal
    /// and read back exactly from it (JSON) is the same Double again.
    public var seconds: Double {
        let magnitude = Self.nearestDouble(value.magnitude, over: UInt64(timescale))
        return value < 0 ? -magnitude : magnitude
    }

    /// The Double nearest `numerator / denominator` (denominator > 0), ties to even. Past 2⁵³ a
    /// value is not a Double, and dividing the two rounded Doubles rounded twice: a time read
    /// from 17 decimals (15473791666666667 / 10¹⁵) came out a digit off.
    static func nearestDouble(_ numerator: UInt64, over denominator: UInt64) -> Double {
        guard numerator != 0 else { return 0 }
        // Both exact as Doubles: one division, rounded once.
        if numerator <= 1 << 53 && denominator <= 1 << 53 { return Double(numerator) / Double(denominator) }
        // The quotient to 55 or 56 bits, two or three more than a Double keeps; a remainder is
        // folded into the last bit, so the one rounding to 53 bits goes the right way.
        let shift = 55 + (64 - denominator.leadingZeroBitCount) - (64 - numerator.leadingZeroBitCount)
        var (quotient, remainder) = shift >= 0
            ? (UInt128(numerator) << shift).quotientAndRemainder(dividingBy: UInt128(denominator))
            : UInt128(numerator).quotientAndRemainder(dividingBy: UInt128(denominator) << -shift)
        if remainder != 0 { quotient |= 1 }
        return Double(sign: .plus, exponent: -shift, significand: Double(quotient))
    }

    /// True when the time is before zero.
    public var isNegative: Bool { value < 0 }

    /// The nearest count of `1 / timescale` units, ties rounded away from zero.
    ///
    /// WebVTT and SRT writers call this with 1000: `0.0005 s` becomes 1 ms, `-0.0005 s` becomes −1 ms.
    public func rounded(toTimescale target: Int64) -> Int64 {
        if target % timescale == 0 {
            let (units, overflow) = value.multipliedReportingOverflow(by: target / timescale)
            if !overflow { return units }
        }
        let units = Self.divideRoundingHalfAwayFromZero(Int128(value) * Int128(target), by: Int128(timescale))
        return Int64(clamping: units)
    }

    /// This time multiplied by the ratio `numerator / denominator`; `nil` when `denominator` is 0.
    public func scaled(by numerator: Int64, _ denominator: Int64) -> MediaTime? {
        guard denominator != 0 else { return nil }
        let sign: Int128 = denominator < 0 ? -1 : 1
        return MediaTime(
            exactNumerator: Int128(value) * Int128(numerator) * sign,
            denominator: Int128(timescale) * Int128(denominator.magnitude)
        )
    }

    /// The sum of two times.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        // In 64 bits when nothing overflows (times of a caption file nearly always): the 128-bit
        // division of the reduction costs ten times as much.
        if lhs.timescale == rhs.timescale {
            let (sum, overflow) = lhs.value.addingReportingOverflow(rhs.value)
            if !overflow { return MediaTime(reducing: sum, over: lhs.timescale) }
        } else {
            let (left, leftOverflow) = lhs.value.multipliedReportingOverflow(by: rhs.timescale)
            let (right, rightOverflow) = rhs.value.multipliedReportingOverflow(by: lhs.timescale)
            let (scale, scaleOverflow) = lhs.timescale.multipliedReportingOverflow(by: rhs.timescale)
            if !leftOverflow, !rightOverflow, !scaleOverflow {
                let (sum, overflow) = left.addingReportingOverflow(right)
                if !overflow { return MediaTime(reducing: sum, over: scale) }
            }
        }
        return MediaTime(
            exactNumerator: Int128(lhs.value) * Int128(rhs.timescale) + Int128(rhs.value) * Int128(lhs.timescale),
            denominator: Int128(lhs.timescale) * Int128(rhs.timescale)
        )
    }

    /// The difference of two times.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        lhs + (-rhs)
    }

    /// The time with its sign flipped.
    public static prefix func - (time: MediaTime) -> MediaTime {
        // Still reduced, unless the value is the one Int64 cannot negate.
        if time.value != .min { return MediaTime(normalisedValue: -time.value, timescale: time.timescale) }
        return MediaTime(exactNumerator: -Int128(time.value), denominator: Int128(time.timescale))
    }

    /// Orders times by their exact value.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.timescale == rhs.timescale { return lhs.value < rhs.value }
        return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    /// The exact fraction, for example `"3/2 s"`.
    public var description: String {
        timescale == 1 ? "\(value) s" : "\(value)/\(timescale) s"
    }

    /// `numerator / denominator` seconds (denominator > 0) in nanoseconds, ties away from zero,
    /// clamped to Int64. (Multiplying the numerator by 10⁹ first overflowed 128 bits for a sum of
    /// two times near Int64.max over large coprime timescales.)
    static func nanoseconds(_ numerator: Int128, over denominator: Int128) -> Int64 {
        let divisor = denominator.magnitude
        let (whole, rest) = numerator.magnitude.quotientAndRemainder(dividingBy: divisor)
        // Whole seconds past what Int64 nanoseconds hold: clamped.
        guard whole <= UInt128(Int64.max) / 1_000_000_000 else { return numerator < 0 ? .min : .max }
        // rest < divisor, so rest·10⁹ / divisor < 10⁹: the quotient of the 256-bit product fits.
        let (fraction, remainder) = divisor.dividingFullWidth(rest.multipliedFullWidth(by: 1_000_000_000))
        var magnitude = whole * 1_000_000_000 + fraction
        if remainder >= divisor - remainder { magnitude += 1 }
        if numerator < 0 { return magnitude >= UInt128(Int64.max) + 1 ? .min : -Int64(magnitude) }
        return Int64(clamping: magnitude)
    }

    /// The greatest common divisor (1 when both are 0), in the width given: 64 bits where the
    /// times allow, 128 where a product needs them.
    static func gcd<Unsigned: UnsignedInteger & FixedWidthInteger>(_ a: Unsigned, _ b: Unsigned) -> Unsigned {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    static func divideRoundingHalfAwayFromZero(_ numerator: Int128, by denominator: Int128) -> Int128 {
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        guard remainder != 0, remainder.magnitude * 2 >= denominator.magnitude else { return quotient }
        return (numerator < 0) != (denominator < 0) ? quotient - 1 : quotient + 1
    }
}

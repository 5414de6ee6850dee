/// Decimal digits of non-negative numbers written straight into a buffer, for the writers' hot
/// paths (cue numbers, clock hours) where a `String` per number would be an allocation.
public enum DecimalDigits {
    /// How many digits `number` (non-negative) has.
    public static func count(_ number: Int64) -> Int {
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    /// Writes the digits of `number` (non-negative) at `destination`, which has room for
    /// ``count(_:)`` bytes; returns how many it wrote.
    public static func write(_ number: Int64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = count(number)
        var remaining = number
        for offset in stride(from: digits - 1, through: 0, by: -1) {
            destination[offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        return digits
    }
}

import CaptionsCore

/// A finding's message as it is written: UTF-8 appended to one byte buffer that a sink reuses for
/// every finding, then made a string once. A check of a long file writes hundreds of thousands of
/// messages, and appending to a `String` piece by piece (with a string of its own for each
/// number) was most of the check.
struct MessageText {
    /// The bytes so far.
    private(set) var bytes: [UInt8] = []

    /// An empty message with room for a typical one.
    init() { bytes.reserveCapacity(160) }

    /// Appends `text`.
    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends `value` in decimal.
    mutating func append(_ value: Int) { append(Int64(value)) }

    /// Appends `value` in decimal.
    mutating func append(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits: UInt64 = 1
        while rest / digits >= 10 { digits *= 10 }
        while digits > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / digits))
            rest %= digits
            digits /= 10
        }
    }

    /// Appends `time` as `HH:MM:SS.mmm`.
    mutating func appendClock(_ time: MediaTime) {
        let clock = ClockTime(roundingToMilliseconds: time)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ClockTime.maximumLength) { buffer in
            let count = clock.write(to: buffer.baseAddress!, fractionSeparator: UInt8(ascii: "."))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Appends milliseconds as seconds with up to three decimals: `0.25s`.
    mutating func appendSeconds(milliseconds: Int64) {
        if milliseconds < 0 && milliseconds > -1000 { bytes.append(UInt8(ascii: "-")) }
        append(milliseconds / 1000)
        var fraction = Int(milliseconds.magnitude % 1000)
        if fraction > 0 {
            var digits = 3
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            bytes.append(UInt8(ascii: "."))
            var divisor = digits == 3 ? 100 : digits == 2 ? 10 : 1
            while divisor > 0 {
                bytes.append(UInt8(48 + fraction / divisor % 10))
                divisor /= 10
            }
        }
        bytes.append(UInt8(ascii: "s"))
    }

    /// Appends `value` with one decimal, none when it is whole: `19.5`, `17`.
    mutating func appendOneDecimal(_ value: Double) {
        let tenths = Int64((value * 10).rounded())
        append(tenths / 10)
        if tenths % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(tenths.magnitude % 10))
        }
    }

    /// The message, and the buffer emptied for the next one (keeping its room).
    mutating func take() -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        bytes.removeAll(keepingCapacity: true)
        return text
    }
}

/// Reads `HH:MM:SS` + separator + `mmm` at fixed offsets: the form writers produce, and so nearly
/// every SRT and WebVTT time. Readers try it first and fall back to their lenient or spec
/// algorithm for anything else.
enum FixedClock {
    /// The length of the form.
    static let length = 12

    /// The time at `offset` in milliseconds; `nil` unless the 12 bytes there are two digits, `:`,
    /// two digits, `:`, two digits, `separator`, three digits, with minutes and seconds below 60.
    static func milliseconds(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, separator: UInt8) -> Int64? {
        guard offset + length <= bytes.count, bytes[offset + 2] == UInt8(ascii: ":"),
            bytes[offset + 5] == UInt8(ascii: ":"), bytes[offset + 8] == separator
        else { return nil }
        var notDigits: UInt8 = 0
        func digit(_ index: Int) -> Int64 {
            let value = bytes[offset + index] &- 0x30
            notDigits |= value > 9 ? 1 : 0
            return Int64(value)
        }
        let hours = digit(0) &* 10 &+ digit(1)
        let minutes = digit(3) &* 10 &+ digit(4)
        let seconds = digit(6) &* 10 &+ digit(7)
        let milliseconds = digit(9) &* 100 &+ digit(10) &* 10 &+ digit(11)
        guard notDigits == 0, minutes < 60, seconds < 60 else { return nil }
        return ((hours &* 60 &+ minutes) &* 60 &+ seconds) &* 1000 &+ milliseconds
    }
}

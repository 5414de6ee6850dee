import CaptionsCore

/// Number text shared by the writers: the shortest text that reads back as the same `Double`.
enum NumberFormatting {
    /// `50` for 50.0, `12.5` for 12.5; exponent form only for magnitudes below 0.0001.
    static func shortest(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}

/// Appends text to a UTF-8 byte buffer, the writers' output type.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    mutating func write(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    /// Writes `HH:MM:SS` + separator + `mmm`, rounded to the nearest millisecond.
    mutating func writeClock(_ time: MediaTime, fractionSeparator separator: UInt8) {
        ClockTime(roundingToMilliseconds: time).append(to: &bytes, fractionSeparator: separator)
    }
}

import CaptionsCore

/// Byte-level pieces of WebVTT syntax shared by the file, settings and cue-text parsers.
enum WebVTTSyntax {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let formFeed: UInt8 = 0x0C
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20

    /// ASCII whitespace as WebVTT (and HTML) define it: tab, LF, FF, CR, space (not vertical tab).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == formFeed || byte == carriageReturn
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The most hour digits accepted; longer numbers are implausible and would overflow.
    static let maximumHourDigits = 12

    /// The WebVTT "collect a WebVTT timestamp" algorithm, starting at `index` and advancing it.
    ///
    /// Returns `nil` on failure, with `index` left where parsing stopped.
    static func collectTimestamp(_ bytes: ByteSlice, at index: inout Int) -> MediaTime? {
        if let (time, length) = strictTimestamp(bytes, at: index) {
            index += length
            return time
        }
        func digits() -> (value: Int64, count: Int)? {
            let start = index
            var value: Int64 = 0
            while index < bytes.endIndex, isDigit(bytes[index]) {
                if index - start < 18 { value = value * 10 + Int64(bytes[index] - 0x30) }
                index += 1
            }
            return index == start ? nil : (value, index - start)
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let first = digits() else { return nil }
        let hoursFirst = first.count != 2 || first.value > 59
        guard expect(UInt8(ascii: ":")), let second = digits(), second.count == 2 else { return nil }
        var (hours, minutes, seconds) = (Int64(0), first.value, second.value)
        if hoursFirst || (index < bytes.endIndex && bytes[index] == UInt8(ascii: ":")) {
            guard expect(UInt8(ascii: ":")), let third = digits(), third.count == 2 else { return nil }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
            if first.count > maximumHourDigits { return nil }
        }
        guard expect(UInt8(ascii: ".")), let fraction = digits(), fraction.count == 3 else { return nil }
        guard minutes <= 59, seconds <= 59 else { return nil }
        return MediaTime(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + fraction.value)
    }

    /// `HH:MM:SS.mmm` at `index` with no digit after it: what ``collectTimestamp(_:at:)`` would
    /// return there, and its length; `nil` for any other text (the general algorithm reads it).
    private static func strictTimestamp(_ bytes: ByteSlice, at index: Int) -> (MediaTime, Int)? {
        let end = index + FixedClock.length
        guard end <= bytes.endIndex, end == bytes.endIndex || !isDigit(bytes[end]),
            let milliseconds = FixedClock.milliseconds(
                in: UnsafeBufferPointer(rebasing: bytes), at: index - bytes.startIndex, separator: UInt8(ascii: "."))
        else { return nil }
        return (MediaTime(milliseconds: milliseconds), FixedClock.length)
    }

    /// A WebVTT percentage (`^\d+(\.\d+)?%$`, 0 to 100), or `nil`.
    static func parsePercentage(_ text: ByteSlice) -> Double? {
        guard text.last == UInt8(ascii: "%") else { return nil }
        let number = text.dropLast()
        guard let value = parseDecimal(number, allowSign: false), value >= 0, value <= 100 else { return nil }
        return value
    }

    /// `digits ( '.' digits )?`, optionally with a leading `-`; `nil` for anything else.
    static func parseDecimal(_ text: ByteSlice, allowSign: Bool) -> Double? {
        var body = text
        if allowSign, body.first == UInt8(ascii: "-") { body = body.dropFirst() }
        let parts = body.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(isDigit) else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(isDigit) else { return nil }
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Splits on ASCII whitespace, dropping empty pieces.
    static func splitOnWhitespace(_ text: ByteSlice) -> [ByteSlice] {
        text.split(whereSeparator: isWhitespace)
    }

    /// Splits a `name:value` setting; `nil` when there is no colon or it is the first or last byte.
    static func splitSetting(_ setting: ByteSlice) -> (name: ByteSlice, value: ByteSlice)? {
        guard let colon = setting.firstIndex(of: UInt8(ascii: ":")), colon != setting.startIndex,
            colon != setting.index(before: setting.endIndex)
        else { return nil }
        return (setting[..<colon], setting[(colon + 1)...])
    }

    /// Whether `bytes` contains `-->`.
    static func containsArrow(_ bytes: ByteSlice) -> Bool {
        guard bytes.count >= 3 else { return false }
        var index = bytes.startIndex
        let last = bytes.endIndex - 2
        while index < last {
            if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"),
                bytes[index + 2] == UInt8(ascii: ">")
            {
                return true
            }
            index += 1
        }
        return false
    }
}

/// Bytes of a buffer the readers parse, valid while they parse it: slicing costs no reference
/// counting, which matters at a few hundred thousand lines.
typealias ByteSlice = Slice<UnsafeBufferPointer<UInt8>>

extension ByteSlice {
    /// Whether these bytes are exactly the ASCII text `literal`.
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { elementsEqual($0) }
    }

    /// The bytes as a `String`.
    var string: String { String(decoding: self, as: UTF8.self) }
}

import CaptionsCore

/// Parses an SRT timing line (`00:01:02,500 --> 00:01:04,000`) leniently, listing each deviation.
///
/// Accepted: `.` for `,`, 1–3 fraction digits or none, one-digit fields, no hour field, any number
/// of hour digits (more than 12 read as the most 12 can say, which the reader reports as out of
/// range), arrows `->`, `--->` and `-- >`, and anything after the end time (position
/// coordinates), which is ignored. A negative time (a file shifted too far back) is read as 0.
struct SRTTimingParser {
    typealias Leniency = (Diagnostic.Severity, Diagnostic.Code, String, Int)

    let line: SRTParserLine
    private(set) var start = MediaTime.zero
    private(set) var end = MediaTime.zero
    /// Severity, code, message and 1-based byte column of each deviation from strict SRT.
    private(set) var leniencies: [Leniency] = []

    init?(bytes: UnsafeBufferPointer<UInt8>, line: SRTParserLine) {
        self.line = line
        let text = bytes[line.range]
        if let (start, end) = Self.strictTimes(text) {
            self.start = start
            self.end = end
            return
        }
        guard let first = text.first,
            first >= 0x30 && first <= 0x39 || first == 0x20 || first == 0x09
                || first == UInt8(ascii: "-") && text.count > 1 && Self.isDigit(text[text.startIndex + 1])
        else { return nil }
        var index = text.startIndex
        func skipSpaces() { while index < text.endIndex, text[index] == 0x20 || text[index] == 0x09 { index += 1 } }
        skipSpaces()
        guard let startTime = timestamp(text, &index) else { return nil }
        skipSpaces()
        let arrowStart = index
        guard arrow(text, &index) else { return nil }
        if index - arrowStart != 3 || text[arrowStart] != UInt8(ascii: "-") || text[arrowStart + 1] != UInt8(ascii: "-") {
            leniencies.append((.warning, "srt.arrow.nonstandard", "arrow '\(text[arrowStart..<index].string)' read as '-->'", arrowStart - text.startIndex + 1))
        }
        skipSpaces()
        guard let endTime = timestamp(text, &index) else { return nil }
        skipSpaces()
        if index < text.endIndex {
            leniencies.append((.note, "srt.timing.extra", "ignored after the end time: '\(text[index...].string)'", index - text.startIndex + 1))
        }
        start = startTime
        end = endTime
    }

    private typealias Field = (value: Int64, digits: Int)

    /// The times of a line written exactly `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the common case, read
    /// at fixed offsets; `nil` for anything else (the lenient path then reads it).
    private static func strictTimes(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> (MediaTime, MediaTime)? {
        guard text.count == 29 else { return nil }
        let line = UnsafeBufferPointer(rebasing: text)
        guard line[12] == 0x20, line[13] == UInt8(ascii: "-"), line[14] == UInt8(ascii: "-"),
            line[15] == UInt8(ascii: ">"), line[16] == 0x20,
            let start = FixedClock.milliseconds(in: line, at: 0, separator: UInt8(ascii: ",")),
            let end = FixedClock.milliseconds(in: line, at: 17, separator: UInt8(ascii: ","))
        else { return nil }
        return (MediaTime(milliseconds: start), MediaTime(milliseconds: end))
    }

    private func column(_ index: Int, _ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int { index - text.startIndex + 1 }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func timestamp(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ index: inout Int) -> MediaTime? {
        let begin = index
        let negative = index + 1 < text.endIndex && text[index] == UInt8(ascii: "-") && Self.isDigit(text[index + 1])
        if negative { index += 1 }
        let empty: Field = (0, 0)
        var fields: (Field, Field, Field) = (empty, empty, empty)
        var fieldCount = 0
        while fieldCount < 3 {
            let fieldStart = index
            var value: Int64 = 0
            while index < text.endIndex, text[index] >= 0x30, text[index] <= 0x39, index - fieldStart < 12 {
                value = value * 10 + Int64(text[index] - 0x30)
                index += 1
            }
            guard index > fieldStart else { return nil }
            if fieldCount == 0, index < text.endIndex, Self.isDigit(text[index]) {
                // Hours past 12 digits: the largest 12 can say, far out of range whatever follows.
                while index < text.endIndex, Self.isDigit(text[index]) { index += 1 }
                value = 999_999_999_999
            }
            let field: Field = (value, index - fieldStart)
            switch fieldCount {
            case 0: fields.0 = field
            case 1: fields.1 = field
            default: fields.2 = field
            }
            fieldCount += 1
            guard index < text.endIndex, text[index] == UInt8(ascii: ":") else { break }
            index += 1
        }
        guard fieldCount >= 2 else { return nil }
        var fraction: Field = (0, 0)
        var separator: UInt8?
        if index < text.endIndex, text[index] == UInt8(ascii: ",") || text[index] == UInt8(ascii: ".") {
            separator = text[index]
            index += 1
            let fractionStart = index
            while index < text.endIndex, text[index] >= 0x30, text[index] <= 0x39, index - fractionStart < 3 {
                fraction.value = fraction.value * 10 + Int64(text[index] - 0x30)
                index += 1
            }
            fraction.digits = index - fractionStart
            guard fraction.digits > 0 else { return nil }
            if index < text.endIndex, text[index] >= 0x30, text[index] <= 0x39 { return nil }
        }
        let noHours: Field = (0, 2)
        let hours: Field = fieldCount == 3 ? fields.0 : noHours
        let minutes: Field = fieldCount == 3 ? fields.1 : fields.0
        let seconds: Field = fieldCount == 3 ? fields.2 : fields.1
        guard minutes.value < 60, seconds.value < 60 else { return nil }
        let where_ = column(begin, text)
        if separator == UInt8(ascii: ".") {
            leniencies.append((.warning, "srt.timestamp.separator", "'.' before the milliseconds read as ','", where_))
        }
        if fieldCount == 2 {
            leniencies.append((.warning, "srt.timestamp.hours", "time without hours read as MM:SS", where_))
        }
        if hours.digits < 2 || minutes.digits != 2 || seconds.digits != 2 || fraction.digits != 3 {
            leniencies.append((.warning, "srt.timestamp.digits", "time fields not written HH:MM:SS,mmm", where_))
        }
        var milliseconds = fraction.value
        for _ in fraction.digits..<3 { milliseconds *= 10 }
        let totalSeconds: Int64 = (hours.value * 60 + minutes.value) * 60 + seconds.value
        let total: Int64 = totalSeconds * 1000 + milliseconds
        if negative {
            leniencies.append((.warning, "srt.time.negative", "a negative time (-\(text[(begin + 1)..<index].string)) read as 0: the cue starts before the media", where_))
            return .zero
        }
        return MediaTime(milliseconds: total)
    }

    /// `-->`, or one or more `-` then optional spaces then `>`, or `→`.
    private func arrow(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ index: inout Int) -> Bool {
        if text[index...].starts(with: [0xE2, 0x86, 0x92]) {
            index += 3
            return true
        }
        let start = index
        while index < text.endIndex, text[index] == UInt8(ascii: "-") { index += 1 }
        guard index > start else { return false }
        while index < text.endIndex, text[index] == 0x20 { index += 1 }
        guard index < text.endIndex, text[index] == UInt8(ascii: ">") else { return false }
        index += 1
        return true
    }
}

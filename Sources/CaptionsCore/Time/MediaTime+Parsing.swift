extension MediaTime {
    /// Parses a decimal number of seconds exactly, such as `"1.5"`, `"-0.040"` or `"12"`.
    ///
    /// Returns `nil` for anything else (exponents, several dots, no digits, more than 18 digits).
    public init?(decimalSeconds text: Substring) {
        var digits = text
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.count + fraction.count <= 18,
            (whole + fraction).allSatisfy(\.isASCIIDigit)
        else { return nil }
        var scale: Int64 = 1
        for _ in fraction { scale *= 10 }
        let value = Int64(whole + fraction) ?? 0
        self.init(exactNumerator: Int128(negative ? -value : value), denominator: Int128(scale))
    }

    /// Parses a duration as people type it on a command line.
    ///
    /// Accepts seconds (`"1.5"`, `"1.5s"`, `"-2s"`), milliseconds (`"-1500ms"`), minutes (`"2m"`),
    /// and clock times (`"00:01:02.500"`, `"01:02,5"`, `"-00:00:01.5"`), all exact.
    public init?(parsingDuration text: String) {
        var body = Substring(text.trimmingASCIIWhitespace())
        let negative = body.first == "-"
        if negative || body.first == "+" { body = body.dropFirst() }
        let parsed: MediaTime?
        if body.contains(":") {
            parsed = Self.clockDuration(body)
        } else if body.hasSuffix("ms") {
            parsed = MediaTime(decimalSeconds: body.dropLast(2)).flatMap { $0.scaled(by: 1, 1000) }
        } else if body.hasSuffix("s") {
            parsed = MediaTime(decimalSeconds: body.dropLast())
        } else if body.hasSuffix("m") {
            parsed = MediaTime(decimalSeconds: body.dropLast()).flatMap { $0.scaled(by: 60, 1) }
        } else if body.hasSuffix("h") {
            parsed = MediaTime(decimalSeconds: body.dropLast()).flatMap { $0.scaled(by: 3600, 1) }
        } else {
            parsed = MediaTime(decimalSeconds: body)
        }
        guard let parsed, !body.hasPrefix("-"), !body.hasPrefix("+") else { return nil }
        self = negative ? -parsed : parsed
    }

    private static func clockDuration(_ text: Substring) -> MediaTime? {
        let fields = text.replacingComma().split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), let last = fields.last,
            let seconds = MediaTime(decimalSeconds: last), !seconds.isNegative
        else { return nil }
        var total = seconds
        var multiplier: Int64 = 60
        for field in fields.dropLast().reversed() {
            guard !field.isEmpty, field.count <= 12, field.allSatisfy(\.isASCIIDigit), let number = Int64(field)
            else { return nil }
            total = total + MediaTime(seconds: number * multiplier)
            multiplier *= 60
        }
        return total
    }
}

extension Substring {
    fileprivate func replacingComma() -> Substring {
        Substring(String(map { $0 == "," ? "." : $0 }))
    }
}

extension Character {
    /// True for the ASCII digits 0 to 9 only (not other Unicode digits).
    public var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (space, tab, LF, FF, CR).
    public func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { " \t\n\u{0C}\r".contains($0) }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}

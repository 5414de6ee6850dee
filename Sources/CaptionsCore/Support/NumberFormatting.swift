/// Numbers as caption formats write them.
public enum NumberFormatting {
    /// The shortest decimal that reads back as `number`, in plain positional form, never with an
    /// exponent: `50` for 50.0, `12.5`, `0.0000001` for 1e-7, `100000000000000000000` for 1e20
    /// (WebVTT and TTML numbers are digits with an optional fraction). Not-a-number and infinities
    /// are written as `0`; readers never produce them.
    public static func shortest(_ number: Double) -> String {
        guard number.isFinite else { return "0" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        let text = String(number)
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: exponentIndex)...])
        else { return text }
        var mantissa = text[..<exponentIndex]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let dot = mantissa.firstIndex(of: ".")
        let integerDigits = dot.map { mantissa[..<$0] } ?? mantissa
        let fractionDigits = dot.map { mantissa[mantissa.index(after: $0)...] } ?? ""
        var digits = Array(integerDigits + fractionDigits)
        // The decimal point sits after `point` digits.
        var point = integerDigits.count + exponent
        if point <= 0 {
            digits.insert(contentsOf: repeatElement("0", count: 1 - point), at: 0)
            point = 1
        } else if point > digits.count {
            digits.append(contentsOf: repeatElement("0", count: point - digits.count))
        }
        var integer = String(digits[..<point])
        var fraction = String(digits[point...])
        while fraction.hasSuffix("0") { fraction.removeLast() }
        while integer.count > 1, integer.hasPrefix("0") { integer.removeFirst() }
        let body = fraction.isEmpty ? integer : integer + "." + fraction
        return negative ? "-" + body : body
    }
}

/// Number text shared by the writers: the shortest text that reads back as the same `Double`.
public enum NumberFormatting {
    /// `50` for 50.0, `12.5` for 12.5; exponent form only for magnitudes below 0.0001.
    public static func shortest(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}

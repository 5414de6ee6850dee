import CaptionsCore
import PropertyBased
import Testing

@Suite struct MediaTimeTests {
    @Test func normalisesSoEqualTimesAreEqual() throws {
        let half = try #require(MediaTime(value: 500, timescale: 1000))
        #expect(half == MediaTime(value: 1, timescale: 2))
        #expect(half.value == 1 && half.timescale == 2)
        #expect(MediaTime(value: 1, timescale: 0) == nil)
        #expect(MediaTime(value: -3, timescale: 6)?.value == -1)
    }

    @Test func addsAndSubtractsExactly() throws {
        let frame = try #require(MediaTime(value: 1001, timescale: 24000))
        var total = MediaTime.zero
        for _ in 0..<24000 { total = total + frame }
        #expect(total == MediaTime(seconds: 1001))
        #expect(MediaTime(milliseconds: 1500) - MediaTime(seconds: 2) == MediaTime(milliseconds: -500))
    }

    /// Sums and differences are the reduced fraction a/b ± c/d, whether they are worked out in 64
    /// bits (when nothing overflows) or in 128: frame times, milliseconds, and values near the edge.
    @Test func sumsAreTheReducedFraction() async {
        let scales: [Int64] = [1, 2, 25, 30, 1000, 24000, 30000, 90000, 1_000_000_000, 4_294_967_291, Int64.max]
        await propertyCheck(
            count: 2000, input: Gen.int(in: -3_000_000_000...3_000_000_000), Gen.int(in: 0..<scales.count),
            Gen.int(in: -3_000_000_000...3_000_000_000), Gen.int(in: 0..<scales.count), Gen.int(in: 0...2)
        ) { a, b, c, d, edge in
            let left = Int64(a) &* (edge == 1 ? 1 << 30 : 1), right = Int64(c) &* (edge == 2 ? 1 << 31 : 1)
            guard let x = MediaTime(value: left, timescale: scales[b]), let y = MediaTime(value: right, timescale: scales[d]) else { return }
            for (result, sign) in [(x + y, Int128(1)), (x - y, Int128(-1))] {
                let numerator = Int128(x.value) * Int128(y.timescale) + sign * Int128(y.value) * Int128(x.timescale)
                let denominator = Int128(x.timescale) * Int128(y.timescale)
                var (p, q) = (numerator.magnitude, denominator.magnitude)
                while q != 0 { (p, q) = (q, p % q) }
                let divisor = Int128(max(p, 1))
                guard let value = Int64(exactly: numerator / divisor), let timescale = Int64(exactly: denominator / divisor) else {
                    // Rounded to the nanosecond, and clamped past Int64.max nanoseconds.
                    let exact = x.seconds + Double(sign) * y.seconds
                    if abs(exact) < 9e9 {
                        #expect(abs(result.seconds - exact) <= 1e-9 * max(1, abs(x.seconds) + abs(y.seconds)))
                    } else {
                        #expect(abs(result.seconds) > 9.2e9 && (result.seconds < 0) == (exact < 0))
                    }
                    continue
                }
                #expect(result.value == value && result.timescale == timescale, "\(x) \(sign > 0 ? "+" : "-") \(y)")
            }
        }
    }

    /// A time written as its shortest decimal (JSON) and read back exactly from it is the same
    /// number of seconds again: frame times at 29.97 and 23.976, over four hours.
    @Test func secondsSurviveTheirShortestDecimal() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...432_000), Gen.int(in: 0...1)) { frame, rate in
            guard let time = MediaTime(value: Int64(frame) * 1001, timescale: rate == 0 ? 30000 : 24000) else { return }
            let decimal = NumberFormatting.shortest(time.seconds)
            let back = MediaTime(decimalSeconds: Substring(decimal))
            #expect(back?.seconds == time.seconds, "\(time) as \(decimal)")
        }
    }

    @Test func millisecondsReduceLikeAnyFraction() throws {
        for count in Array(-2_000...2_000) + [Int64.max / 1000, 999_999 * 3_600_000, 123_456_789_000] {
            let time = MediaTime(milliseconds: count)
            #expect(time == MediaTime(value: count, timescale: 1000), "\(count) ms")
            #expect(time.value * 1000 == count * time.timescale && 1000 % time.timescale == 0, "\(count) ms")
        }
    }

    @Test(arguments: [Int64(0), 7, 10, 99, 100, 123_456, Int64.max])
    func decimalDigitsMatchTheStandardLibrary(number: Int64) {
        var buffer = [UInt8](repeating: 0, count: 20)
        let count = buffer.withUnsafeMutableBufferPointer { DecimalDigits.write(number, to: $0.baseAddress!) }
        #expect(count == DecimalDigits.count(number))
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == String(number))
    }

    @Test func comparesAcrossTimescales() throws {
        let third = try #require(MediaTime(value: 1, timescale: 3))
        #expect(third < MediaTime(milliseconds: 334))
        #expect(MediaTime(milliseconds: 333) < third)
    }

    @Test(arguments: [
        (MediaTime(value: 1, timescale: 2000), Int64(1)),  // 0.5 ms rounds away from zero
        (MediaTime(value: -1, timescale: 2000), Int64(-1)),
        (MediaTime(value: 1, timescale: 3000), Int64(0)),
        (MediaTime(value: 2, timescale: 3000), Int64(1)),
        (MediaTime(value: 1001, timescale: 30000), Int64(33)),
    ])
    func roundsToNearestTiesAwayFromZero(time: MediaTime?, milliseconds: Int64) throws {
        #expect(try #require(time).rounded(toTimescale: 1000) == milliseconds)
    }

    @Test func scalesByRatiosExactly() throws {
        let time = MediaTime(seconds: 24)
        #expect(time.scaled(by: 25025, 24000) == MediaTime(value: 25025, timescale: 1000))
        #expect(time.scaled(by: 1, 0) == nil)
        #expect(time.scaled(by: 1, -2) == MediaTime(seconds: -12))
    }

    @Test func roundsToTheNanosecondWhenAFractionWouldOverflow() throws {
        let a = try #require(MediaTime(value: 1, timescale: 4_294_967_291))
        let b = try #require(MediaTime(value: 1, timescale: 4_294_967_279))
        let sum = a + b
        #expect(sum.timescale <= 1_000_000_000)
        #expect(abs(sum.seconds - (a.seconds + b.seconds)) < 1e-9)
    }

    @Test(arguments: [
        ("1.5", MediaTime(milliseconds: 1500)), ("-1.5s", MediaTime(milliseconds: -1500)),
        ("250ms", MediaTime(milliseconds: 250)), ("+2m", MediaTime(seconds: 120)), ("1h", MediaTime(seconds: 3600)),
        ("00:01:02.500", MediaTime(milliseconds: 62500)), ("-00:00:01,5", MediaTime(milliseconds: -1500)),
        ("01:02", MediaTime(seconds: 62)),
    ])
    func parsesDurations(text: String, expected: MediaTime) {
        #expect(MediaTime(parsingDuration: text) == expected)
    }

    @Test(arguments: ["", "s", "1.2.3", "--1s", "1e3", "00:61:aa", "1:2:3:4", "abc"])
    func rejectsMalformedDurations(text: String) {
        #expect(MediaTime(parsingDuration: text) == nil)
    }

    @Test func formatsClockTimes() {
        let time = MediaTime(milliseconds: 3_723_004)
        #expect(ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ",") == "01:02:03,004")
        #expect(ClockTime(roundingToMilliseconds: MediaTime(seconds: 360_000)).formatted(fractionSeparator: ".") == "100:00:00.000")
        #expect(ClockTime(roundingToMilliseconds: MediaTime(milliseconds: -1500)).formatted(fractionSeparator: ".") == "-00:00:01.500")
    }

    @Test func clockFormattingThenParsingIsTheIdentity() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...3_599_999_999)) { milliseconds in
            let time = MediaTime(milliseconds: Int64(milliseconds))
            let text = ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ".")
            #expect(MediaTime(parsingDuration: text) == time, "\(text)")
        }
    }
}

@Suite struct FrameRateTests {
    @Test(arguments: [
        ("23.976", 24000, 1001), ("29.97", 30000, 1001), ("25", 25, 1), ("24000/1001", 24000, 1001), ("12.5", 25, 2),
    ])
    func parses(text: String, numerator: Int64, denominator: Int64) throws {
        let rate = try #require(FrameRate(parsing: text))
        #expect(rate.numerator == numerator && rate.denominator == denominator)
    }

    @Test(arguments: ["0", "-25", "25/0", "x", ""])
    func rejects(text: String) {
        #expect(FrameRate(parsing: text) == nil)
    }
}

import CaptionsCore

/// TTML's timing parameters (`ttp:timeBase`, `ttp:frameRate`, `ttp:frameRateMultiplier`,
/// `ttp:subFrameRate`, `ttp:tickRate`, `ttp:dropMode`) and its time expressions, exactly.
struct TTMLTiming {
    enum TimeBase: String { case media, smpte, clock }
    enum DropMode: String { case nonDrop, dropNTSC, dropPAL }

    var timeBase: TimeBase = .media
    /// Frames per second, before the multiplier (default 30).
    var frameRate: Int64 = 30
    /// `ttp:frameRateMultiplier` as numerator / denominator (default 1 / 1).
    var multiplier: (Int64, Int64) = (1, 1)
    var subFrameRate: Int64 = 1
    /// Ticks per second; TTML's default is the effective frame rate times the sub-frame rate when a
    /// frame rate is given, else 1.
    var tickRate: MediaTime = MediaTime(seconds: 1)
    var dropMode: DropMode = .nonDrop

    /// Seconds per frame at the effective rate, frameRate × multiplier.
    var frameDuration: MediaTime {
        MediaTime(value: multiplier.1, timescale: frameRate * multiplier.0) ?? MediaTime(value: 1, timescale: 30)!
    }

    /// Reads the parameters from the root element; problems are reported and defaults kept.
    init(root: XMLElement, report: (Diagnostic.Code, String) -> Void) {
        let ns = TTMLNamespace.parameter
        if let value = root.attribute("timeBase", namespace: ns) {
            if let base = TimeBase(rawValue: value) { timeBase = base } else { report("ttml.parameter.invalid", "unknown ttp:timeBase '\(value)'") }
        }
        var frameRateGiven = false
        if let value = root.attribute("frameRate", namespace: ns) {
            if let rate = Int64(value.trimmingASCIIWhitespace()), rate > 0 {
                frameRate = rate
                frameRateGiven = true
            } else {
                report("ttml.parameter.invalid", "ttp:frameRate '\(value)' is not a positive whole number")
            }
        }
        if let value = root.attribute("frameRateMultiplier", namespace: ns) {
            let parts = value.split(separator: " ").compactMap { Int64($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { multiplier = (parts[0], parts[1]) } else {
                report("ttml.parameter.invalid", "ttp:frameRateMultiplier '\(value)' is not two positive numbers")
            }
        }
        if let value = root.attribute("subFrameRate", namespace: ns) {
            if let rate = Int64(value.trimmingASCIIWhitespace()), rate > 0 { subFrameRate = rate } else {
                report("ttml.parameter.invalid", "ttp:subFrameRate '\(value)' is not a positive whole number")
            }
        }
        if let value = root.attribute("dropMode", namespace: ns) {
            if let mode = DropMode(rawValue: value) { dropMode = mode } else { report("ttml.parameter.invalid", "unknown ttp:dropMode '\(value)'") }
        }
        if let value = root.attribute("tickRate", namespace: ns) {
            if let rate = Int64(value.trimmingASCIIWhitespace()), rate > 0 { tickRate = MediaTime(seconds: rate) } else {
                report("ttml.parameter.invalid", "ttp:tickRate '\(value)' is not a positive whole number")
            }
        } else if frameRateGiven {
            tickRate = MediaTime(value: frameRate * multiplier.0 * subFrameRate, timescale: multiplier.1) ?? tickRate
        }
    }

    /// Why a time expression could not be read.
    struct Failure: Error {
        var code: Diagnostic.Code
        var message: String
    }

    /// Parses a TTML time expression: clock time (`hh:mm:ss`, `hh:mm:ss.fraction`,
    /// `hh:mm:ss:frames`, `hh:mm:ss:frames.subframes`) or an offset (`1.5s`, `20f`, `100t`, …).
    func parse(_ text: String) throws(Failure) -> MediaTime {
        if let fast = Self.plainClockTime(text) { return fast }
        let expression = text.trimmingASCIIWhitespace()
        if expression.contains(":") { return try clockTime(Substring(expression)) }
        return try offsetTime(Substring(expression))
    }

    /// `hh:mm:ss` or `hh:mm:ss.fraction` (up to 9 digits) read straight from the bytes: the form
    /// almost every file uses, whatever the time base. Anything else returns nil.
    static func plainClockTime(_ text: String) -> MediaTime? {
        var utf8 = text.utf8.makeIterator()
        var fields: (Int64, Int64, Int64) = (0, 0, 0)
        var digitsInField = 0
        var field = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var inFraction = false
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if inFraction {
                    guard fractionDigits < 9 else { return nil }
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                } else {
                    guard digitsInField < 9 else { return nil }
                    switch field {
                    case 0: fields.0 = fields.0 * 10 + digit
                    case 1: fields.1 = fields.1 * 10 + digit
                    default: fields.2 = fields.2 * 10 + digit
                    }
                    digitsInField += 1
                }
            case UInt8(ascii: ":"):
                guard !inFraction, field < 2, digitsInField == 2 || (field == 0 && digitsInField > 2) else { return nil }
                field += 1
                digitsInField = 0
            case UInt8(ascii: "."):
                guard field == 2, digitsInField == 2, !inFraction else { return nil }
                inFraction = true
            default:
                return nil
            }
        }
        guard field == 2, inFraction ? fractionDigits > 0 : digitsInField == 2, fields.1 < 60, fields.2 < 60 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let seconds = (fields.0 * 60 + fields.1) * 60 + fields.2
        return MediaTime(value: seconds * scale + fraction, timescale: scale)
    }

    private func clockTime(_ text: Substring) throws(Failure) -> MediaTime {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4 else {
            throw Failure(code: "ttml.time.malformed", message: "'\(text)' is not a clock time (hh:mm:ss)")
        }
        func whole(_ field: Substring, _ what: String) throws(Failure) -> Int64 {
            guard !field.isEmpty, field.count <= 12, field.allSatisfy(\.isASCIIDigit), let value = Int64(field) else {
                throw Failure(code: "ttml.time.malformed", message: "'\(text)': \(what) must be digits")
            }
            return value
        }
        let hours = try whole(fields[0], "hours")
        let minutes = try whole(fields[1], "minutes")
        guard fields[0].count >= 2, fields[1].count == 2 else {
            throw Failure(code: "ttml.time.malformed", message: "'\(text)': hours and minutes are written with two digits")
        }
        guard minutes < 60 else { throw Failure(code: "ttml.time.range", message: "'\(text)': minutes must be below 60") }
        var secondsField = fields[2]
        var fraction: Substring = ""
        if fields.count == 3, let dot = secondsField.firstIndex(of: ".") {
            fraction = secondsField[secondsField.index(after: dot)...]
            secondsField = secondsField[..<dot]
        }
        let seconds = try whole(secondsField, "seconds")
        guard secondsField.count == 2 else {
            throw Failure(code: "ttml.time.malformed", message: "'\(text)': seconds are written with two digits")
        }
        guard seconds < 60 else { throw Failure(code: "ttml.time.range", message: "'\(text)': seconds must be below 60") }
        var total = MediaTime(seconds: (hours * 60 + minutes) * 60 + seconds)
        if fields.count == 3 {
            guard fraction.isEmpty || fraction.allSatisfy(\.isASCIIDigit),
                let exact = MediaTime(decimalSeconds: "0." + (fraction.isEmpty ? "0" : fraction))
            else { throw Failure(code: "ttml.time.malformed", message: "'\(text)': bad fraction") }
            return total + exact
        }
        let framePart = fields[3].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let frames = try whole(framePart[0], "frames")
        let subFrames = framePart.count == 2 ? try whole(framePart[1], "sub-frames") : 0
        let nominalRate = (frameRate * multiplier.0 + multiplier.1 - 1) / multiplier.1
        guard frames < max(frameRate, nominalRate) else {
            throw Failure(code: "ttml.time.frames", message: "'\(text)': frame \(frames) is not below the frame rate \(frameRate)")
        }
        guard subFrames < subFrameRate else {
            throw Failure(code: "ttml.time.frames", message: "'\(text)': sub-frame \(subFrames) is not below \(subFrameRate)")
        }
        let subFrameTime = (frameDuration.scaled(by: subFrames, subFrameRate) ?? .zero)
        if timeBase == .smpte {
            // SMPTE: the label counts frames at the nominal rate, some labels dropped.
            let totalMinutes = hours * 60 + minutes
            var frameNumber = ((hours * 60 + minutes) * 60 + seconds) * frameRate + frames
            switch dropMode {
            case .nonDrop: break
            case .dropNTSC: frameNumber -= 2 * (totalMinutes - totalMinutes / 10)
            case .dropPAL: frameNumber -= 4 * (totalMinutes / 2 - totalMinutes / 10)
            }
            return (frameDuration.scaled(by: frameNumber, 1) ?? .zero) + subFrameTime
        }
        total = total + (frameDuration.scaled(by: frames, 1) ?? .zero) + subFrameTime
        return total
    }

    private func offsetTime(_ text: Substring) throws(Failure) -> MediaTime {
        let metricStart = text.firstIndex { !$0.isASCIIDigit && $0 != "." } ?? text.endIndex
        let count = text[..<metricStart]
        let metric = text[metricStart...]
        guard !count.isEmpty, let value = MediaTime(decimalSeconds: count), !value.isNegative else {
            throw Failure(code: "ttml.time.malformed", message: "'\(text)' is not a time expression")
        }
        let scaled: MediaTime?
        switch metric {
        case "h": scaled = value.scaled(by: 3600, 1)
        case "m": scaled = value.scaled(by: 60, 1)
        case "s": scaled = value
        case "ms": scaled = value.scaled(by: 1, 1000)
        case "f": scaled = value.scaled(by: frameDuration.value, frameDuration.timescale)
        case "t": scaled = value.scaled(by: tickRate.timescale, tickRate.value)
        default:
            throw Failure(code: "ttml.time.metric", message: "'\(text)': unknown metric '\(metric)' (h, m, s, ms, f or t)")
        }
        return scaled ?? .zero
    }
}

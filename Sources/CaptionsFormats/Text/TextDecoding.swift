import CaptionsCore

/// Turns file bytes into clean UTF-8 for the text readers.
///
/// - A UTF-8 byte order mark is removed; UTF-16 and UTF-32 with a byte order mark, and UTF-16
///   without one (NUL in every other byte), are converted to UTF-8, with a note.
/// - NUL becomes U+FFFD (as the WebVTT parser requires), with a warning.
/// - Invalid UTF-8 is either replaced by U+FFFD per maximal subpart (``InvalidUTF8Policy/replace``,
///   WebVTT's rule) or the input's encoding is detected (``InvalidUTF8Policy/detect``, what legacy
///   SRT files need: uchardet names the code page, Windows-1251 or Shift-JIS say, ICU's detector
///   gives its confidence in it, and iconv converts it; ICU's guess when uchardet cannot tell and
///   ICU is sure enough, Windows-1252 otherwise). Either way a warning points at the first bad
///   byte and names the encoding read.
///
/// - Complexity: O(n); valid ASCII and UTF-8 input is checked in one pass and not copied.
/// Text files other than captions (scripts for `describe` and `align`), decoded as the SRT reader
/// decodes: a byte order mark skipped, UTF-16 and UTF-32 converted, a legacy code page detected.
public enum TextFile {
    /// The text of `bytes`, and the notes and warnings of decoding, coded `PREFIX.encoding.*`.
    public static func decode(_ bytes: [UInt8], codePrefix: String) -> (text: String, diagnostics: [Diagnostic]) {
        let (decoded, diagnostics) = TextDecoding.decode(bytes, invalidUTF8: .detect, codePrefix: codePrefix)
        return (String(decoding: decoded, as: UTF8.self), diagnostics)
    }
}

enum TextDecoding {
    enum InvalidUTF8Policy {
        case replace
        case detect
    }

    static func decode(_ input: [UInt8], invalidUTF8: InvalidUTF8Policy, codePrefix: String)
        -> (bytes: [UInt8], diagnostics: [Diagnostic])
    {
        var diagnostics: [Diagnostic] = []
        var bytes = input
        let markedUTF8 = input.starts(with: [0xEF, 0xBB, 0xBF])
        func note(_ name: String, _ how: String) {
            diagnostics.append(Diagnostic(
                .note, Diagnostic.Code(rawValue: "\(codePrefix).encoding.\(name.hasPrefix("UTF-32") ? "utf32" : "utf16")"),
                "read as \(name) (\(how)); written back as UTF-8", at: .start))
        }
        if let (name, length) = Charset.byteOrderMark(bytes) {
            if name == "UTF-8" {
                bytes.removeFirst(length)
            } else if case .success(let converted) = Charset.convert(Array(bytes.dropFirst(length)), from: name) {
                bytes = converted
                note(name, "byte order mark")
            }
        } else if let name = Charset.unmarkedUTF16(bytes), case .success(let converted) = Charset.convert(bytes, from: name) {
            bytes = converted
            note(name, "no byte order mark; NUL in every other byte")
        }
        if invalidUTF8 == .detect, bytes.last == 0 {
            // NUL padding at the end (a download zero-filled past what arrived, a fixed-size
            // export): not text. WebVTT (`.replace`) keeps its rule: every NUL is U+FFFD.
            let kept = (bytes.lastIndex { $0 != 0 } ?? -1) + 1
            let location = LineIndex(bytes).location(ofByte: kept)
            let padding = bytes.count - kept
            bytes.removeLast(padding)
            diagnostics.append(Diagnostic(
                .note, Diagnostic.Code(rawValue: "\(codePrefix).encoding.padding"),
                "\(padding) NUL byte\(padding == 1 ? "" : "s") of padding at the end left out", at: location))
        }
        var scan = bytes.withUnsafeBufferPointer(UTF8Scan.init)
        if let bad = scan.firstInvalidOffset {
            let location = LineIndex(bytes).location(ofByte: bad)
            let damage = markedUTF8 || invalidUTF8 == .replace ? nil : UTF8Damage(bytes)
            switch invalidUTF8 {
            case .replace:
                bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
                diagnostics.append(Diagnostic(
                    .warning, Diagnostic.Code(rawValue: "\(codePrefix).encoding.invalid"),
                    "invalid UTF-8 replaced by U+FFFD", at: location))
            case .detect where markedUTF8 || damage?.isMostlyUTF8 == true:
                // UTF-8 with a few bad bytes (a stray Windows-1252 dash pasted in, a download cut
                // in the middle of a letter) stays UTF-8: read as a code page, every letter of it
                // would be wrong.
                bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
                let why = markedUTF8 ? "its byte order mark (or --encoding) says so" : "the rest is UTF-8 (\(damage?.validSequences ?? 0) letters of it)"
                let count = damage.map { " in \($0.invalidPlaces) place\($0.invalidPlaces == 1 ? "" : "s")" } ?? ""
                diagnostics.append(Diagnostic(
                    .warning, Diagnostic.Code(rawValue: "\(codePrefix).encoding.invalid"),
                    "invalid UTF-8\(count) replaced by U+FFFD, first here; read as UTF-8, as \(why)", at: location))
            case .detect:
                let candidates = Charset.candidates(bytes)
                if let (name, converted, opinion) = detected(bytes, candidates: candidates) {
                    bytes = converted
                    diagnostics.append(Diagnostic(
                        .warning, Diagnostic.Code(rawValue: "\(codePrefix).encoding.detected"),
                        "not UTF-8; read as \(name) (\(opinion); if the letters look wrong, name the encoding with --encoding)",
                        at: location))
                } else {
                    bytes = transcodeWindows1252(bytes)
                    let guess = candidates.first.map { "; ICU's detector's best guess was \($0.name), confidence \($0.confidence) of 100" } ?? ""
                    diagnostics.append(Diagnostic(
                        .warning, Diagnostic.Code(rawValue: "\(codePrefix).encoding.windows1252"),
                        "not UTF-8 and no encoding detected; read as Windows-1252 (check accented letters, or name the "
                            + "encoding with --encoding\(guess))", at: location))
                }
            }
            scan = bytes.withUnsafeBufferPointer(UTF8Scan.init)
        }
        if let firstNull = scan.firstNullOffset {
            let location = LineIndex(bytes).location(ofByte: firstNull)
            bytes = replacingNulls(bytes)
            diagnostics.append(Diagnostic(
                .warning, Diagnostic.Code(rawValue: "\(codePrefix).encoding.null"),
                "NUL characters replaced by U+FFFD", at: location))
        }
        return (bytes, diagnostics)
    }

    /// The text of `bytes` without a UTF-8 byte order mark when they need no other decoding (valid
    /// UTF-8, no NUL, not UTF-16), so that a reader can parse them in place; `nil` otherwise.
    static func cleanText(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return nil
        }
        let text = UnsafeBufferPointer(rebasing: bytes.dropFirst(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0))
        let scan = UTF8Scan(text)
        return scan.firstInvalidOffset == nil && scan.firstNullOffset == nil ? text : nil
    }

    /// Windows-1252's 0x80–0x9F; the other bytes map to the same Unicode code point.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func transcodeWindows1252(_ bytes: [UInt8]) -> [UInt8] {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return Array(String(scalars).utf8)
    }

    private static func replacingNulls(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0 { result.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { result.append(byte) }
        }
        return result
    }
}

/// One pass over bytes that finds the first invalid UTF-8 sequence and the first NUL.
private struct UTF8Scan {
    var firstInvalidOffset: Int?
    var firstNullOffset: Int?

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = buffer.count
        let raw = UnsafeRawBufferPointer(buffer)
        while index < count {
            // Runs of ASCII without NUL, the bulk of caption text, 32 bytes and then 8 at a time.
            while index + 32 <= count {
                let a = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                let c = raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                let d = raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                guard (a | b | c | d) & ByteScan.highBits == 0,
                    (ByteScan.zeroLanes(a) | ByteScan.zeroLanes(b) | ByteScan.zeroLanes(c) | ByteScan.zeroLanes(d)) == 0
                else { break }
                index += 32
            }
            if index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & ByteScan.highBits == 0, ByteScan.zeroLanes(word) == 0 {
                    index += 8
                    continue
                }
            }
            guard index < count else { break }
            let byte = buffer[index]
            if byte < 0x80 {
                if byte == 0, firstNullOffset == nil { firstNullOffset = index }
                index += 1
                continue
            }
            let length = Self.sequenceLength(buffer, at: index)
            if length == 0 {
                firstInvalidOffset = index
                return
            }
            index += length
        }
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when it is invalid.
    fileprivate static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = buffer[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= buffer.count else { return 0 }
        let second = buffer[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<length where buffer[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }
}

/// How much of text that is not valid UTF-8 is UTF-8 all the same: its valid multi-byte sequences
/// and its invalid places and bytes. A code page's text makes a valid sequence only by chance (a
/// capital letter followed by a symbol; more often in double-byte code pages), so many valid
/// sequences for each bad byte, or a cut last letter after valid ones, is UTF-8 with damage, not
/// another encoding.
private struct UTF8Damage {
    private(set) var validSequences = 0
    private(set) var invalidPlaces = 0
    private var invalidBytes = 0
    private var cutAtTheEnd = false

    init(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                guard buffer[index] >= 0x80 else {
                    index += 1
                    continue
                }
                let length = UTF8Scan.sequenceLength(buffer, at: index)
                if length > 0 {
                    validSequences += 1
                    index += length
                    continue
                }
                invalidPlaces += 1
                invalidBytes += 1
                // A lead byte whose sequence the end of the file cuts short.
                let lead = buffer[index]
                let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
                if expected > 0, index + expected > buffer.count,
                    buffer[(index + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 })
                {
                    cutAtTheEnd = true
                    break
                }
                index += 1
                while index < buffer.count, buffer[index] & 0xC0 == 0x80 {
                    index += 1
                    invalidBytes += 1
                }
            }
        }
    }

    /// At least four valid sequences for each invalid byte (and four in all), or valid ones before
    /// a last letter cut short. Short Shift-JIS or GBK text makes a few valid sequences by chance
    /// ("おはよう" two), never that many.
    var isMostlyUTF8: Bool {
        (validSequences >= 4 && validSequences >= 4 * invalidBytes) || (invalidPlaces == 1 && cutAtTheEnd && validSequences >= 2)
    }
}

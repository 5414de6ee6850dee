import CCaptionsCharset

/// Character encodings other than UTF-8: byte order marks, UTF-16 without one, detection of
/// legacy code pages (uchardet) and conversion (iconv).
public enum Charset {
    /// The encoding a byte order mark at the start of `bytes` names, and the mark's length.
    static func byteOrderMark(_ bytes: [UInt8]) -> (name: String, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return ("UTF-32LE", 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return ("UTF-32BE", 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        return nil
    }

    /// "UTF-16LE" or "UTF-16BE" for text without a byte order mark whose first bytes have NUL in
    /// every other place (Latin text in UTF-16), or NUL in one parity only, in at least one unit
    /// in twenty, with its line feeds UTF-16 units (Cyrillic, Greek or CJK text in UTF-16, whose
    /// letters have no NUL byte: only its digits, spaces and line ends do); nil otherwise.
    static func unmarkedUTF16(_ bytes: [UInt8]) -> String? {
        let sample = Array(bytes.prefix(1024))
        guard sample.count >= 8 else { return nil }
        var zeros = [0, 0]
        for (offset, byte) in sample.enumerated() where byte == 0 { zeros[offset % 2] += 1 }
        let half = sample.count / 2
        if zeros[1] * 10 >= half * 4, zeros[0] * 10 <= half { return "UTF-16LE" }
        if zeros[0] * 10 >= half * 4, zeros[1] * 10 <= half { return "UTF-16BE" }
        // Its line feeds are UTF-16 units, nine in ten at least (a text of another encoding with a
        // few NULs, which a fuzzer made, has its line feeds anywhere).
        let lineFeedBytes = sample.count { $0 == 0x0A }
        func hasLineFeed(littleEndian: Bool) -> Bool {
            let units = stride(from: 0, to: sample.count - 1, by: 2).count {
                littleEndian ? sample[$0] == 0x0A && sample[$0 + 1] == 0 : sample[$0] == 0 && sample[$0 + 1] == 0x0A
            }
            return units > 0 && units * 10 >= lineFeedBytes * 9
        }
        if zeros[0] == 0, zeros[1] >= 4, zeros[1] * 20 >= half, hasLineFeed(littleEndian: true) { return "UTF-16LE" }
        if zeros[1] == 0, zeros[0] >= 4, zeros[0] * 20 >= half, hasLineFeed(littleEndian: false) { return "UTF-16BE" }
        return nil
    }

    /// The encoding uchardet finds in `bytes` (such as "WINDOWS-1251"), nil when it cannot tell.
    static func detect(_ bytes: [UInt8]) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ccaptions_detect_charset($0.baseAddress, $0.count, &name, name.count) }
        }
        let found = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return found.isEmpty ? nil : found
    }

    /// One encoding ICU's detector considers, with its confidence (0–100).
    struct Candidate: Equatable {
        var name: String
        var confidence: Int
    }

    /// ICU's charset detector's candidates for `bytes`, best first (markup ignored); empty when it
    /// has no guess. uchardet 0.0.7 gives no confidence, so this is the one the diagnostics quote.
    static func candidates(_ bytes: [UInt8]) -> [Candidate] {
        guard !bytes.isEmpty else { return [] }  // ICU would guess UTF-8 for nothing
        let (capacity, nameCapacity) = (8, 64)
        var names = [CChar](repeating: 0, count: capacity * nameCapacity)
        var confidences = [Int32](repeating: 0, count: capacity)
        let count = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                ccaptions_charset_candidates($0.baseAddress, $0.count, &names, nameCapacity, &confidences, Int32(capacity))
            }
        }
        return (0..<Int(max(count, 0))).map { index in
            let slot = names[(index * nameCapacity)..<((index + 1) * nameCapacity)].prefix { $0 != 0 }
            return Candidate(name: String(decoding: slot.map { UInt8(bitPattern: $0) }, as: UTF8.self), confidence: Int(confidences[index]))
        }
    }

    /// Whether two encoding names read a text the same way for the detectors' purposes: the same
    /// name however it is spelled, or an ISO 8859 part and the Windows code page built on it (ICU
    /// says windows-125x only when bytes 0x80–0x9F occur), UTF-16/32 of either byte order.
    static func sameReading(_ first: String, _ second: String) -> Bool {
        func family(_ name: String) -> String {
            let key = name.uppercased().filter { $0.isLetter || $0.isNumber }
            let families = [
                "ISO88591": "WINDOWS1252", "ISO88592": "WINDOWS1250", "ISO88597": "WINDOWS1253", "ISO88598": "WINDOWS1255",
                "ISO88598I": "WINDOWS1255", "ISO88599": "WINDOWS1254", "ISO88596": "WINDOWS1256", "CP1252": "WINDOWS1252",
                "CP1251": "WINDOWS1251", "CP1250": "WINDOWS1250", "GB2312": "GB18030", "GBK": "GB18030", "UHC": "EUCKR",
                "CP949": "EUCKR", "SJIS": "SHIFTJIS", "CP932": "SHIFTJIS", "UTF16BE": "UTF16", "UTF16LE": "UTF16",
                "UTF32BE": "UTF32", "UTF32LE": "UTF32",
            ]
            return families[key] ?? key
        }
        return family(first) == family(second)
    }

    /// Why bytes could not be converted.
    public enum ConversionFailure: Error, Equatable {
        /// iconv does not know the encoding.
        case unknownEncoding
        /// The byte at this offset does not belong to the encoding.
        case invalidBytes(offset: Int)
    }

    /// The code page iconv reads a legacy encoding's files in: the superset Windows and the WHATWG
    /// Encoding Standard (every browser) read the label as, where glibc's own table is narrower:
    /// Shift-JIS as Windows code page 932 (glibc's SHIFT_JIS reads 0x5C as ¥ and 0x7E as ‾, so an
    /// ASS file's `\N` and `{\i1}` came out as `¥N`; glibc's CP932 differs from WHATWG's Shift_JIS
    /// only in a few symbols, such as 〜 read as U+FF5E), EUC-KR as code page 949, GB2312 and GBK as
    /// GB18030, Big5 as Big5-HKSCS; and KOI8-R as KOI8-U (WHATWG keeps them apart), which puts
    /// Ukrainian letters where KOI8-R has box-drawing characters that no subtitle holds.
    static func decoderName(_ name: String) -> String {
        let key = name.uppercased().filter { $0.isLetter || $0.isNumber }
        let supersets = [
            "SHIFTJIS": "CP932", "SJIS": "CP932", "MSKANJI": "CP932", "CSSHIFTJIS": "CP932", "XSJIS": "CP932",
            "EUCKR": "CP949", "CSEUCKR": "CP949", "GB2312": "GB18030", "GBK": "GB18030", "CSGB2312": "GB18030",
            "BIG5": "BIG5-HKSCS", "CSBIG5": "BIG5-HKSCS", "KOI8R": "KOI8-U", "CSKOI8R": "KOI8-U",
        ]
        return supersets[key] ?? name
    }

    /// `bytes` in encoding `name` (any name iconv knows: "CP1251", "ISO-8859-2", "SHIFT_JIS",
    /// "GB18030", "UTF-16"…) as UTF-8, read as ``decoderName(_:)`` says.
    public static func convert(_ bytes: [UInt8], from name: String) -> Result<[UInt8], ConversionFailure> {
        guard !bytes.isEmpty else { return .success([]) }
        let name = decoderName(name)
        var count = 0
        var failedAt = -1
        let converted = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ccaptions_convert_to_utf8(name, $0.baseAddress, $0.count, &count, &failedAt) }
        }
        guard let converted else { return .failure(failedAt < 0 ? .unknownEncoding : .invalidBytes(offset: failedAt)) }
        defer { free(converted) }
        return .success(converted.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) })
    }
}

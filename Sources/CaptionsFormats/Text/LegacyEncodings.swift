import CaptionsCore

/// The code page of text that is not UTF-8 (``TextDecoding/decode(_:invalidUTF8:codePrefix:)``'s
/// `.detect`): uchardet's name with ICU's opinion of it, corrected where either is known to go
/// wrong, and, for short files that give the detectors little to go on, another reading where
/// theirs shows the marks of a wrong code page (``DecodedTextPlausibility``).
extension TextDecoding {
    /// The least confidence (of 100) at which ICU's guess is used when uchardet cannot tell.
    static let leastConfidenceAlone = 30

    /// The encoding `bytes` are read in, the bytes as UTF-8, and how sure the detectors are:
    /// uchardet's name with ICU's confidence in it (and ICU's preference when it differs), or,
    /// when uchardet cannot tell, ICU's best guess if it is at least ``leastConfidenceAlone`` sure.
    /// Two corrections: uchardet's Mac code page gives way to Windows-1252 when ICU is at least half
    /// sure of it, and an ISO-8859 code page holding bytes 0x80–0x9F (C1 controls there) is read
    /// as the Windows code page of its script. `nil` when neither names an encoding iconv can convert the
    /// bytes from.
    static func detected(_ bytes: [UInt8], candidates: [Charset.Candidate]) -> (String, [UInt8], String)? {
        let named = namedReading(bytes, candidates: candidates)
        guard let (name, converted, penalty) = plausibleReading(bytes, named: named?.0, candidates: candidates) else { return named }
        let first = named?.0 ?? "Windows-1252"
        return (
            name, converted,
            "the detectors' reading, \(first), has \(penalty) mark\(penalty == 1 ? "" : "s") of a wrong code page "
                + "(box drawing, symbols in words, a capital after a small letter, two alphabets in a word); \(name) has none"
                + (named == nil ? "" : " or fewer")
        )
    }

    /// Single-byte code pages of subtitles a short file may be in when the detectors' reading of it
    /// looks wrong, tried after ICU's candidates, in this order. Double-byte code pages are tried
    /// only when ICU names them: nearly any bytes are valid GB18030, and Shift-JIS valid GBK.
    static let likelyCodePages = [
        "WINDOWS-1250", "WINDOWS-1251", "WINDOWS-1252", "WINDOWS-1253", "WINDOWS-1254", "WINDOWS-1255", "WINDOWS-1256",
        "WINDOWS-1257", "KOI8-U", "WINDOWS-874",
    ]

    /// Whether `name` is a double-byte (CJK) encoding.
    private static func isDoubleByte(_ name: String) -> Bool {
        let key = name.uppercased().filter { $0.isLetter || $0.isNumber }
        return ["SHIFTJIS", "SJIS", "CP932", "WINDOWS31J", "EUCJP", "EUCKR", "CP949", "UHC", "GB2312", "GBK", "GB18030", "BIG5",
            "BIG5HKSCS", "CP950", "ISO2022JP", "ISO2022KR", "ISO2022CN", "EUCTW", "HZGB2312"].contains(key)
    }

    /// The Windows code page of the language of a DOS, Mac or ISO code page a detector names.
    private static let windowsSibling = [
        "IBM852": "WINDOWS-1250", "MAC-CENTRALEUROPE": "WINDOWS-1250", "ISO-8859-2": "WINDOWS-1250",
        "IBM855": "WINDOWS-1251", "IBM866": "WINDOWS-1251", "MAC-CYRILLIC": "WINDOWS-1251", "ISO-8859-5": "WINDOWS-1251",
        "KOI8-R": "WINDOWS-1251", "IBM437": "WINDOWS-1252", "IBM850": "WINDOWS-1252", "ISO-8859-1": "WINDOWS-1252",
        "ISO-8859-7": "WINDOWS-1253", "ISO-8859-9": "WINDOWS-1254", "ISO-8859-8": "WINDOWS-1255", "ISO-8859-13": "WINDOWS-1257",
    ]

    /// Another reading of `bytes` when the detectors' one (`named`, or Windows-1252 when they have
    /// none) shows marks of a wrong code page (``DecodedTextPlausibility``) and another shows at
    /// most half as many (the first such of ICU's candidates and ``likelyCodePages`` with the
    /// fewest): its name, the bytes as UTF-8, and the detectors' reading's marks. `nil` to keep it.
    /// Marks are counted in the first 64 KiB (to a line end), which says as much as the rest.
    ///
    /// A reading ICU agrees with (at least half sure) stays, and so does a double-byte one (CJK
    /// text has its own symbols, such as × and half-width katakana); a double-byte reading is
    /// taken only when ICU names it.
    private static func plausibleReading(_ bytes: [UInt8], named: String?, candidates: [Charset.Candidate])
        -> (String, [UInt8], Int)?
    {
        if let named {
            if isDoubleByte(named) { return nil }
            if candidates.contains(where: { Charset.sameReading($0.name, named) && $0.confidence >= 50 }) { return nil }
        }
        var sample = bytes.prefix(65536)
        if sample.count < bytes.count, let lineEnd = sample.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) { sample = sample[...lineEnd] }
        let sampleBytes = Array(sample)
        func marks(_ name: String) -> Int? {
            guard case .success(let text) = Charset.convert(sampleBytes, from: name) else { return nil }
            return DecodedTextPlausibility.penalty(text)
        }
        let baseline: Int
        if let named {
            guard let count = marks(named) else { return nil }  // the sample cut short: keep the detectors' reading
            baseline = count
        } else {
            baseline = DecodedTextPlausibility.penalty(transcodeWindows1252(sampleBytes))
        }
        guard baseline > 0 else { return nil }
        var tried = Set([named.map { Charset.decoderName($0).uppercased() } ?? "WINDOWS-1252"])
        var best: (name: String, marks: Int)?
        // The detector's language is often right where its code page is not: that language's
        // Windows code page first.
        let siblings = named.flatMap { windowsSibling[$0.uppercased()] }.map { [$0] } ?? []
        for name in siblings + candidates.map(\.name) + likelyCodePages where !name.uppercased().hasPrefix("UTF") {
            // Double-byte code pages only as ICU names them (in `candidates`).
            guard tried.insert(Charset.decoderName(name).uppercased()).inserted, let count = marks(name) else { continue }
            if count < best?.marks ?? Int.max { best = (name, count) }
            if count == 0 { break }
        }
        guard let best, best.marks * 2 <= baseline, case .success(let converted) = Charset.convert(bytes, from: best.name) else {
            return nil
        }
        return (best.name, converted, baseline)
    }

    /// The detectors' reading (see ``detected(_:candidates:)``).
    private static func namedReading(_ bytes: [UInt8], candidates: [Charset.Candidate]) -> (String, [UInt8], String)? {
        guard let (name, converted, how) = detectedAsNamed(bytes, candidates: candidates) else { return nil }
        // ISO-8859 code pages have C1 controls at 0x80–0x9F, which no subtitle holds: a file so
        // detected with such bytes is in the Windows code page of its script, which puts letters,
        // €, quotes and dashes there (a superset for -1, -9, -11, -15, as the WHATWG Encoding
        // Standard reads those labels; for Czech, "š" is 0x9A in Windows-1250, read as ISO-8859-2).
        let supersets = [
            "ISO-8859-1": "WINDOWS-1252", "ISO-8859-15": "WINDOWS-1252", "ISO-8859-2": "WINDOWS-1250",
            "ISO-8859-7": "WINDOWS-1253", "ISO-8859-8": "WINDOWS-1255", "ISO-8859-9": "WINDOWS-1254",
            "ISO-8859-13": "WINDOWS-1257", "ISO-8859-11": "WINDOWS-874", "TIS-620": "WINDOWS-874",
        ]
        if let superset = supersets[name.uppercased()], bytes.contains(where: { $0 >= 0x80 && $0 <= 0x9F }),
            case .success(let windows) = Charset.convert(bytes, from: superset)
        {
            return (superset, windows, how + "; read as \(superset), as the bytes 0x80–0x9F would be control characters in \(name)")
        }
        return (name, converted, how)
    }

    private static func detectedAsNamed(_ bytes: [UInt8], candidates: [Charset.Candidate]) -> (String, [UInt8], String)? {
        if let name = Charset.detect(bytes), name.uppercased().hasPrefix("MAC"), let best = candidates.first,
            ["WINDOWS-1252", "ISO-8859-1"].contains(best.name.uppercased()), best.confidence >= 50,
            case .success(let converted) = Charset.convert(bytes, from: "WINDOWS-1252")
        {
            // uchardet takes short Windows-1252 text with curly quotes for a Mac code page ("It’s"
            // read as "Itís"). ICU has no Mac detectors, so only where it is at least half sure of
            // Windows-1252 (or its ISO subset) does that win; a Czech or Russian Mac file, which
            // ICU reads as another language's code page, stays uchardet's.
            let best = Charset.Candidate(name: "windows-1252", confidence: best.confidence)
            return (
                best.name, converted,
                "ICU's detector's guess, confidence \(best.confidence) of 100, over uchardet's \(name), which it does not consider"
            )
        }
        if let name = Charset.detect(bytes), !["ASCII", "UTF-8"].contains(name.uppercased()),
            case .success(let converted) = Charset.convert(bytes, from: name)
        {
            let opinion: String
            if let index = candidates.firstIndex(where: { Charset.sameReading($0.name, name) }) {
                let confidence = candidates[index].confidence
                let best = candidates[0]
                opinion = index == 0 ? "ICU's detector agrees, confidence \(confidence) of 100"
                    : confidence >= best.confidence ? "ICU's detector gives it \(confidence) of 100, as much as \(best.name)"
                    : "ICU's detector gives it \(confidence) of 100 and prefers \(best.name) (\(best.confidence))"
            } else if let best = candidates.first {
                opinion = "ICU's detector does not consider it and prefers \(best.name), confidence \(best.confidence) of 100"
            } else {
                opinion = "ICU's detector has no guess"
            }
            return (name, converted, "detected by uchardet; " + opinion)
        }
        if let best = candidates.first, best.confidence >= leastConfidenceAlone, !best.name.uppercased().hasPrefix("UTF-8"),
            case .success(let converted) = Charset.convert(bytes, from: best.name)
        {
            return (best.name, converted, "uchardet could not tell; ICU's detector's best guess, confidence \(best.confidence) of 100")
        }
        return nil
    }
}

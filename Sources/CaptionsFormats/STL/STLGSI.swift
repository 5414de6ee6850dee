import CaptionsCore

/// The fields of an EBU STL General Subtitle Information block that reading and writing use.
struct STLGSI {
    /// DFC, such as `STL25.01`.
    var diskFormat: String
    /// DSC: `0` (or space) open subtitles, `1` and `2` teletext levels 1 and 2.
    var displayStandard: UInt8
    /// CCT, such as `00`.
    var codeTable: String
    /// LC as a BCP 47 tag (nil when unknown).
    var language: String?
    /// OPT, the original programme title.
    var title: String
    /// MNR, the most rows a subtitle may use (open subtitles).
    var maximumRows: Int?
    /// TCP, the programme's start, in frames.
    var programmeStart: Int64

    /// The header's text fields, in the GSI's code page (CPN), that a writer keeps when the
    /// document came from EBU STL: name, byte offset, length. DSC is kept as the kind of subtitles.
    static let keptFields: [(name: String, offset: Int, length: Int)] = [
        ("OET", 48, 32), ("TPT", 80, 32), ("TET", 112, 32), ("TN", 144, 32), ("TCD", 176, 32), ("SLR", 208, 16),
        ("CD", 224, 6), ("RN", 236, 2), ("TCS", 255, 1), ("TCP", 256, 8), ("CO", 274, 3), ("PUB", 277, 32), ("EN", 309, 32),
        ("ECD", 341, 32), ("UDA", 448, 576),
    ]

    /// The kept fields and DSC, for ``TimedTextDocument/sourceHeader``.
    var header: [String: String] = [:]

    init(_ block: ArraySlice<UInt8>) {
        let codePage = Self.codePage(String(decoding: block.prefix(3), as: UTF8.self))
        func text(_ offset: Int, _ length: Int, trimmed: Bool = true) -> String {
            let start = block.startIndex + offset
            // Control bytes read as spaces; the rest in the GSI's code page.
            let bytes = block[start..<start + length].map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }
            let text: String
            if bytes.allSatisfy({ $0 < 0x80 }) {
                text = String(decoding: bytes, as: UTF8.self)
            } else if case .success(let utf8) = Charset.convert(bytes, from: codePage) {
                text = String(decoding: utf8, as: UTF8.self)
            } else {
                text = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            }
            return trimmed ? text.trimmingSpaces : text
        }
        for field in Self.keptFields {
            let value = text(field.offset, field.length, trimmed: false)
            if !value.allSatisfy({ $0 == " " }) { header[field.name] = value }
        }
        diskFormat = text(3, 8)
        displayStandard = block[block.startIndex + 11]
        if displayStandard != 0x20 { header["DSC"] = String(UnicodeScalar(displayStandard)) }
        codeTable = text(12, 2)
        language = Self.languages[text(14, 2).uppercased()]
        title = text(16, 32)
        maximumRows = Int(text(253, 2)).flatMap { $0 > 0 ? $0 : nil }
        let tcp = text(256, 8)
        let digits = tcp.utf8.map { Int64($0) - 0x30 }
        let rate = SMPTETimecode(frameRate: Self.frameRate(diskFormat))
        if digits.count == 8, digits.allSatisfy({ (0...9).contains($0) }) {
            let field = { (index: Int) in digits[index] * 10 + digits[index + 1] }
            programmeStart = rate.frame(hours: field(0), minutes: field(2), seconds: field(4), frames: field(6), dropFrame: rate.canDropFrames)
        } else {
            programmeStart = 0
        }
    }

    /// The iconv name of a GSI code page number (CPN); 850, the one writers use, when unknown.
    static func codePage(_ number: String) -> String {
        ["437": "CP437", "850": "CP850", "860": "CP860", "863": "CP863", "865": "CP865"][number] ?? "CP850"
    }

    /// Code page 850's bytes for the characters it has (the GSI written).
    static let codePage850: [Character: UInt8] = {
        var bytes: [Character: UInt8] = [:]
        for byte in UInt8(0x80)...0xFF {
            if case .success(let utf8) = Charset.convert([byte], from: "CP850"), let character = String(decoding: utf8, as: UTF8.self).first {
                bytes[character] = bytes[character] ?? byte
            }
        }
        return bytes
    }()

    /// Whether subtitles are teletext (DSC 1 or 2) rather than open.
    var isTeletext: Bool { displayStandard == UInt8(ascii: "1") || displayStandard == UInt8(ascii: "2") }

    /// Frames per second of the disk format code; nil when unknown.
    var frameRate: Double? { Self.frameRate(diskFormat) }

    static func frameRate(_ diskFormat: String) -> Double? {
        ["STL23.01": 24000.0 / 1001, "STL24.01": 24, "STL25.01": 25, "STL30.01": 30000.0 / 1001, "STL50.01": 50][diskFormat]
    }

    /// Tech 3264's language codes (Appendix 3) for the languages people subtitle most.
    static let languages: [String: String] = [
        "01": "sq", "02": "br", "03": "ca", "04": "hr", "05": "cy", "06": "cs", "07": "da", "08": "de", "09": "en", "0A": "es",
        "0B": "eo", "0C": "et", "0D": "eu", "0E": "fo", "0F": "fr", "10": "fy", "11": "ga", "12": "gd", "13": "gl", "14": "is",
        "15": "it", "16": "se", "17": "la", "18": "lv", "19": "lb", "1A": "lt", "1B": "hu", "1C": "mt", "1D": "nl", "1E": "no",
        "1F": "oc", "20": "pl", "21": "pt", "22": "ro", "23": "rm", "24": "sr", "25": "sk", "26": "sl", "27": "fi", "28": "sv",
        "29": "tr", "2A": "nl", "2B": "wa", "7F": "am", "7E": "ar", "7D": "hy", "7B": "az", "78": "bg", "75": "zh", "70": "el",
        "6F": "he", "69": "hi", "65": "ja", "5E": "ko", "57": "fa", "56": "ru", "50": "sr", "4C": "th", "4B": "uk", "49": "ur",
    ]

    /// The LC code of a BCP 47 tag's language ("00" when unknown).
    static func languageCode(_ tag: String?) -> String {
        guard let tag, let primary = tag.split(separator: "-").first?.lowercased() else { return "00" }
        return languages.filter { $0.value == primary }.map(\.key).sorted().first ?? "00"
    }
}

extension String {
    /// The text without spaces at either end.
    var trimmingSpaces: String {
        String(Substring(self).trimmedSpaces)
    }
}

/// How much decoded text looks like what a person wrote: the number of marks of a wrong code page.
///
/// Detectors name a code page from byte statistics, which a caption file of a few short lines does
/// not give them: uchardet reads two Slovak lines in Windows-1250 as IBM852 ("╚o sa stalo?"),
/// "Да. Что?" in KOI8-R as Greek ("δΑ. ώΤΟ?"), "네." in EUC-KR as Windows-1252 ("³×."). Each
/// such reading leaves marks no subtitle holds, which this counts:
/// - control characters, U+FFFD, private-use and unassigned code points (3 each);
/// - box-drawing and block characters (2 each), which DOS code pages put among letters;
/// - a Latin-1 or spacing-modifier symbol (`¤`, `´`, `³`, `×`, `˘`…: what 8-bit code pages hold)
///   or an inverted `¿`/`¡` within a word, a lower-case letter
///   followed by an upper-case one, letters of two alphabets in one word (1 each);
/// - half-width katakana (1 each), which Shift-JIS puts where other code pages have letters, and a
///   Han character right after a Latin letter (1 each), which GB18030 makes of Latin text.
///
/// Text in its own code page scores 0 but for rare typography; the caller uses the score only to
/// set aside a detector's reading that scores worse than another reading of the same bytes.
enum DecodedTextPlausibility {
    /// The marks of a wrong reading in UTF-8 text `bytes` (0: none). Only marks that involve a
    /// character outside ASCII count, so that readings of the same bytes differ only by them.
    static func penalty(_ bytes: some Collection<UInt8>) -> Int {
        var penalty = 0
        var previous = (nonASCII: false, letter: false, lowercase: false)
        var word = (script: Script.none, mixed: false)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            let nonASCII = value >= 0x80
            let properties = scalar.properties
            let letter = nonASCII ? properties.isAlphabetic : (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            if nonASCII {
                switch properties.generalCategory {
                case .control, .privateUse, .unassigned, .surrogate:
                    penalty += 3
                case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .otherNumber:
                    if (0x2500...0x259F).contains(value) {
                        penalty += 2
                    } else if value <= 0x385, !Self.commonSymbols.contains(value), previous.letter || previous.nonASCII {
                        penalty += 1
                    }
                default:
                    break
                }
                if value == 0xFFFD { penalty += 3 }
                if (0xFF61...0xFF9F).contains(value) { penalty += 1 }
                // A Han character right after a Latin letter ("I磎 sure": a Latin apostrophe read
                // as GB18030's second byte).
                if (0x3400...0x9FFF).contains(value), previous.letter, !previous.nonASCII { penalty += 1 }
                if value == 0xBF || value == 0xA1, previous.letter { penalty += 1 }
            }
            var lowercase = false
            if letter {
                lowercase = nonASCII ? properties.isLowercase : value >= 0x61
                let uppercase = nonASCII ? properties.isUppercase : value <= 0x5A
                if uppercase, previous.letter, previous.lowercase, nonASCII || previous.nonASCII { penalty += 1 }
                let script = Script(scalar)
                if script.isAlphabet {
                    if word.script == .none {
                        word.script = script
                    } else if word.script != script, !word.mixed {
                        penalty += 1
                        word.mixed = true
                    }
                }
            } else {
                word = (.none, false)
            }
            previous = (nonASCII, letter, lowercase)
        }
        return penalty
    }

    /// Latin-1 symbols common in captions next to letters or digits (°, ©, ®, £, ¥, §).
    private static let commonSymbols: Set<UInt32> = [0xB0, 0xA9, 0xAE, 0xA3, 0xA5, 0xA7]

    /// The alphabets a misread word mixes (other scripts, such as Han and kana, are left out: a
    /// Japanese word may mix them with Latin letters).
    private enum Script: Equatable {
        case none, latin, greek, cyrillic, hebrew, arabic, thai, hangul, other

        init(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x41...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
            case 0x400...0x52F: self = .cyrillic
            case 0x590...0x5FF: self = .hebrew
            case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
            case 0xE00...0xE7F: self = .thai
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: self = .hangul
            default: self = .other
            }
        }

        var isAlphabet: Bool { self != .none && self != .other }
    }
}

import CaptionsCore
import FoundationEssentials

/// A delivery profile: the limits a platform or guideline sets on captions, as data.
///
/// Profiles ship with the tool as JSON files (`Sources/CaptionsQuality/Profiles`), are chosen by
/// name (`--profile netflix`) or read from a file (`--profile my.json`), and can be printed as a
/// starting point (`captions check --print-profile netflix`). Every limit is optional: a profile
/// without a line length does not check line length. Limits that depend on the language live under
/// `languages`, keyed by BCP 47 tag or its primary subtag, and override the general ones.
public struct QualityProfile: Sendable, Hashable, Codable {
    /// The name shown in reports.
    public var name: String
    /// What the profile is, in a sentence.
    public var description: String?
    /// Where the limits come from (guideline, version, section).
    public var source: String?
    /// The frame rate frame counts are measured in when there is no video (`--media`) and no `--fps`.
    public var frameRate: String?
    /// The limits that apply to every language.
    public var limits: Limits
    /// Per-language overrides, keyed by BCP 47 tag (`pt-BR`) or primary subtag (`ja`).
    public var languages: [String: Limits]?
    /// Which repairs `captions fix` may make: `order`, `empty`, `lines`, `duration`, `gaps`,
    /// `readingSpeed`, `shots` (default: all).
    public var fixes: [String]?
    /// Severity per check code, overriding the default (`error` for limits, `warning` for advice).
    public var severities: [String: Diagnostic.Severity]?

    /// The limits of a profile; any left out is not checked.
    public struct Limits: Sendable, Hashable, Codable {
        /// How fast text may be read.
        public var readingSpeed: ReadingSpeed?
        /// The longest line, in characters (grapheme clusters).
        public var maxLineLength: Int?
        /// The most lines a cue may have.
        public var maxLines: Int?
        /// The shortest time on screen (`"5/6s"`, `"20f"`, `"1.5s"`).
        public var minDuration: ProfileDuration?
        /// The longest time on screen.
        public var maxDuration: ProfileDuration?
        /// The shortest gap between consecutive cues that do not touch (`"2f"`).
        public var minGap: ProfileDuration?
        /// Gaps shorter than this are too short to read as a pause: they should be closed to
        /// ``minGap`` (Netflix: 3–11 frames are closed to 2).
        public var closeGapsUnder: ProfileDuration?
        /// How close to a shot change a cue edge may be without being on it (`"12f"`).
        public var shotChangeZone: ProfileDuration?
        /// Where a cue ends relative to a shot change it is snapped to: this long before it (`"2f"`).
        public var shotChangeOutOffset: ProfileDuration?
        /// The characters the target can show: `cea608`, `teletext-latin`, `printable` (default:
        /// any character but controls).
        public var characters: String?

        /// Limits with every field given or left out.
        public init(
            readingSpeed: ReadingSpeed? = nil, maxLineLength: Int? = nil, maxLines: Int? = nil,
            minDuration: ProfileDuration? = nil, maxDuration: ProfileDuration? = nil, minGap: ProfileDuration? = nil,
            closeGapsUnder: ProfileDuration? = nil, shotChangeZone: ProfileDuration? = nil,
            shotChangeOutOffset: ProfileDuration? = nil, characters: String? = nil
        ) {
            self.readingSpeed = readingSpeed
            self.maxLineLength = maxLineLength
            self.maxLines = maxLines
            self.minDuration = minDuration
            self.maxDuration = maxDuration
            self.minGap = minGap
            self.closeGapsUnder = closeGapsUnder
            self.shotChangeZone = shotChangeZone
            self.shotChangeOutOffset = shotChangeOutOffset
            self.characters = characters
        }

        /// These limits with every limit `other` gives replacing this one's.
        public func overridden(by other: Limits) -> Limits {
            Limits(
                readingSpeed: other.readingSpeed ?? readingSpeed, maxLineLength: other.maxLineLength ?? maxLineLength,
                maxLines: other.maxLines ?? maxLines, minDuration: other.minDuration ?? minDuration,
                maxDuration: other.maxDuration ?? maxDuration, minGap: other.minGap ?? minGap,
                closeGapsUnder: other.closeGapsUnder ?? closeGapsUnder, shotChangeZone: other.shotChangeZone ?? shotChangeZone,
                shotChangeOutOffset: other.shotChangeOutOffset ?? shotChangeOutOffset, characters: other.characters ?? characters)
        }
    }

    /// A reading-speed limit and how its text is counted.
    public struct ReadingSpeed: Sendable, Hashable, Codable {
        /// `characters` (per second) or `words` (per minute).
        public var unit: Unit
        /// The most characters a second or words a minute.
        public var max: Double
        /// Whether spaces count as characters (default true).
        public var countSpaces: Bool?
        /// Whether punctuation counts (default true).
        public var countPunctuation: Bool?
        /// Whether a line break counts as one character (default false).
        public var countLineBreaks: Bool?

        /// What is counted.
        public enum Unit: String, Sendable, Hashable, Codable {
            /// Characters per second.
            case characters
            /// Words per minute.
            case words
        }

        /// A limit in `unit` with the default counting rules.
        public init(unit: Unit, max: Double) {
            self.unit = unit
            self.max = max
        }
    }

    /// The limits for a language: the general ones overridden by the entry for its full tag, else
    /// for its primary subtag (`pt-BR`, then `pt`), compared without case.
    public func limits(forLanguage language: String?) -> Limits {
        guard let language, let languages else { return limits }
        let tag = language.lowercased().replacingUnderscores()
        let primary = String(tag.split(separator: "-").first ?? "")
        let byTag = Dictionary(languages.map { ($0.key.lowercased().replacingUnderscores(), $0.value) }, uniquingKeysWith: { a, _ in a })
        guard let specific = byTag[tag] ?? byTag[primary] else { return limits }
        return limits.overridden(by: specific)
    }

    /// Whether `captions fix` may make a kind of repair.
    public func allowsFix(_ kind: String) -> Bool {
        fixes.map { $0.contains(kind) } ?? true
    }

    /// The severity of a check code: the profile's choice, else `fallback`.
    public func severity(of code: Diagnostic.Code, default fallback: Diagnostic.Severity) -> Diagnostic.Severity {
        severities?[code.rawValue] ?? fallback
    }

    /// The profile's frame rate, when it names one.
    public var defaultFrameRate: FrameRate? { frameRate.flatMap(FrameRate.init(parsing:)) }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}

extension Diagnostic.Severity: Codable {}

/// A duration in a profile: seconds (`"1.5s"`, `"5/6s"`, `"250ms"`) or frames (`"2f"`), turned
/// into time at the frame rate in use.
public struct ProfileDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Frames, or an exact time.
    public enum Amount: Sendable, Hashable {
        /// A count of frames.
        case frames(Int64)
        /// A time.
        case time(MediaTime)
    }

    /// The amount as written.
    public var amount: Amount
    /// The text as written in the profile.
    public let description: String

    /// Parses `"2f"`, `"5/6s"`, `"1.5s"`, `"250ms"`; `nil` for anything else.
    public init?(_ text: String) {
        let trimmed = String(text.trimmingASCIIWhitespace())
        if trimmed.hasSuffix("f"), let frames = Int64(trimmed.dropLast()), frames >= 0 {
            amount = .frames(frames)
        } else if trimmed.hasSuffix("s"), !trimmed.hasSuffix("ms"), trimmed.contains("/") {
            let parts = trimmed.dropLast().split(separator: "/")
            guard parts.count == 2, let numerator = Int64(parts[0]), let denominator = Int64(parts[1]),
                let time = MediaTime(value: numerator, timescale: denominator), !time.isNegative
            else { return nil }
            amount = .time(time)
        } else if let time = MediaTime(parsingDuration: trimmed), !time.isNegative, !trimmed.contains(":") {
            amount = .time(time)
        } else {
            return nil
        }
        description = trimmed
    }

    /// The time this amount lasts at `rate`.
    public func time(at rate: FrameRate) -> MediaTime {
        switch amount {
        case .time(let time): return time
        case .frames(let count):
            return MediaTime(value: count * rate.denominator, timescale: rate.numerator) ?? .zero
        }
    }

    /// Decodes from a JSON string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = ProfileDuration(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a duration such as \"2f\", \"5/6s\" or \"1.5s\""))
        }
        self = parsed
    }

    /// Encodes as the JSON string it was written as.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

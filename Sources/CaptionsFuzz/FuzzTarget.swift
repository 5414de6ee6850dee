import CaptionsCore
import CaptionsFormats

/// One fuzz target: which reader the input bytes are handed to.
///
/// The caption readers go through ``FuzzHarness/checkCaptions(_:reader:)`` (read, then write every
/// format and read it back); the description-script readers go through
/// ``FuzzHarness/checkDescriptionScript(_:kind:)`` (parse, place, write WebVTT and DAPT, read back).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `WebVTTReader`, also read in place (`read(borrowing:)`) and compared.
    case webvtt
    /// `SRTReader`, also read in place and compared.
    case srt
    /// `TTMLReader`.
    case ttml
    /// `PodcastTranscriptReader` (Podcasting 2.0 JSON transcripts).
    case podcastJSON = "podcast-json"
    /// `SCCReader` (CEA-608).
    case scc
    /// `STLReader` (EBU STL, and Spruce's text STL).
    case stl
    /// `SAMIReader`.
    case sami
    /// `ASSReader` (ASS and SSA).
    case ass
    /// `SBVReader` (SBV and SubViewer).
    case sbv
    /// `MicroDVDReader`.
    case microdvd
    /// `ClosedCaptionDecoder`: CEA-608 carried in video (A/53 `cc_data` triplets, ten a picture).
    case a53
    /// `DescriptionScript(csv:)`.
    case descriptionCSV = "description-csv"
    /// `DescriptionScript(json:)`.
    case descriptionJSON = "description-json"
    /// `DescriptionScript(plainText:)`.
    case descriptionText = "description-text"

    /// The caption format this target reads, or `nil` for a description-script target.
    public var captionFormat: CaptionFormat? {
        switch self {
        case .webvtt: .webvtt
        case .srt: .srt
        case .ttml: .ttml
        case .podcastJSON: .podcastJSON
        case .scc: .scc
        case .stl: .stl
        case .sami: .sami
        case .ass: .ass
        case .sbv: .sbv
        case .microdvd: .microdvd
        case .a53, .descriptionCSV, .descriptionJSON, .descriptionText: nil
        }
    }

    /// The target named `name`, accepting the raw value or a known alias such as `vtt`.
    public init?(name: String) {
        switch name.lowercased() {
        case "vtt": self = .webvtt
        case "podcast": self = .podcastJSON
        default: self.init(rawValue: name.lowercased())
        }
    }
}

/// What a fuzz run found wrong with one input, short of a crash (crashes end the process).
public struct FuzzFinding: Sendable, CustomStringConvertible {
    /// The kind of problem, a stable dotted name such as `roundtrip.srt`.
    public var check: String
    /// What went wrong, for people.
    public var message: String

    /// A finding.
    public init(_ check: String, _ message: String) {
        self.check = check
        self.message = message
    }

    /// `check: message`.
    public var description: String { "\(check): \(message)" }
}

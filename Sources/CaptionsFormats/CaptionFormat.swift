import CaptionsCore

/// The formats `captions convert` reads and writes, and how to tell them apart.
public enum CaptionFormat: String, Sendable, CaseIterable {
    /// W3C WebVTT.
    case webvtt
    /// SubRip.
    case srt
    /// TTML (IMSC1, DFXP, SMPTE-TT, EBU-TT-D).
    case ttml
    /// The JSON dump of the model when written; read as a Podcasting 2.0 transcript.
    case json
    /// A Podcasting 2.0 JSON transcript.
    case podcastJSON = "podcast-json"

    /// Options that change how a writer lays out its output.
    public struct WriterOptions: Sendable {
        /// End lines with CRLF instead of LF (SRT only).
        public var crlf = false
        /// The TTML profile to write.
        public var ttmlProfile = TTMLWriter.Profile.imsc1

        /// The defaults.
        public init() {}
    }

    /// The format a file name's extension names, such as `.vtt` or `.srt`.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "vtt", "webvtt": self = .webvtt
        case "srt": self = .srt
        case "ttml", "dfxp", "xml": self = .ttml
        case "json": self = .json
        default: return nil
        }
    }

    /// The format a name given on the command line stands for (`vtt`, `webvtt`, `srt`, `json`).
    public init?(name: String) {
        switch name.lowercased() {
        case "vtt", "webvtt": self = .webvtt
        case "srt", "subrip": self = .srt
        case "ttml", "dfxp", "imsc", "imsc1": self = .ttml
        case "json": self = .json
        case "podcast-json", "podcast": self = .podcastJSON
        default: return nil
        }
    }

    /// Guesses the format of content whose name says nothing: `WEBVTT` at the start means WebVTT,
    /// `<` first (after white space) means TTML, anything else is read as SRT.
    public static func sniff(_ bytes: some Collection<UInt8>) -> CaptionFormat {
        let body = bytes.dropFirst(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        if body.starts(with: "WEBVTT".utf8) { return .webvtt }
        return body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<") ? .ttml : .srt
    }

    /// The reader (`nil` for a write-only format).
    public var reader: (any TimedTextReader)? {
        switch self {
        case .webvtt: WebVTTReader()
        case .srt: SRTReader()
        case .ttml: TTMLReader()
        case .json, .podcastJSON: PodcastTranscriptReader()
        }
    }

    /// The writer, configured with `options`.
    public func writer(options: WriterOptions = WriterOptions()) -> any TimedTextWriter {
        switch self {
        case .webvtt: WebVTTWriter()
        case .srt: SRTWriter(lineEnding: options.crlf ? .crlf : .lf)
        case .ttml: TTMLWriter(profile: options.ttmlProfile)
        case .json: JSONDumpWriter()
        case .podcastJSON: PodcastTranscriptWriter()
        }
    }

    /// The name people know the format by.
    public var displayName: String {
        switch self {
        case .webvtt: "WebVTT"
        case .srt: "SRT"
        case .ttml: "TTML"
        case .json: "JSON"
        case .podcastJSON: "Podcasting 2.0 JSON"
        }
    }

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .webvtt: "vtt"
        case .srt: "srt"
        case .ttml: "ttml"
        case .json, .podcastJSON: "json"
        }
    }
}

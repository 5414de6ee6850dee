import CaptionsCore

/// The formats `captions convert` reads and writes, and how to tell them apart.
public enum CaptionFormat: String, Sendable, CaseIterable {
    /// W3C WebVTT.
    case webvtt
    /// SubRip.
    case srt
    /// TTML (IMSC1, DFXP, SMPTE-TT, EBU-TT-D).
    case ttml
    /// The JSON dump of the model when written; read as the dump or a Podcasting 2.0 transcript, by content.
    case json
    /// A Podcasting 2.0 JSON transcript.
    case podcastJSON = "podcast-json"
    /// YouTube's captions, and the SubViewer `.sub` they come from.
    case sbv
    /// MicroDVD (frame-timed `.sub`).
    case microdvd
    /// Advanced SubStation Alpha (SubStation Alpha is read too).
    case ass
    /// Scenarist SCC: CEA-608 line-21 captions.
    case scc
    /// EBU STL (Tech 3264) subtitles; Spruce's text `.stl` is read too.
    case stl
    /// SAMI (`.smi`): Microsoft Synchronized Accessible Media Interchange; read only.
    case sami

    /// Options that change how a writer lays out its output.
    public struct WriterOptions: Sendable {
        /// End lines with CRLF instead of LF (SRT only).
        public var crlf = false
        /// The TTML profile to write.
        public var ttmlProfile = TTMLWriter.Profile.imsc1
        /// Frames per second, for frame-timed formats (MicroDVD, SCC); nil: the format's default.
        public var frameRate: Double?
        /// How SCC captions appear.
        public var sccMode = SCCWriter.Mode.popOn
        /// Open or teletext EBU STL subtitles; nil: as the source STL file, else open.
        public var stlKind: STLWriter.Kind?

        /// The defaults.
        public init() {}
    }

    /// Options that change how a reader reads.
    public struct ReaderOptions: Sendable {
        /// Frames per second, for frame-timed formats (MicroDVD, SCC) that do not say.
        public var frameRate: Double?
        /// The CEA-608 channel to read, 1–4.
        public var channel = 1
        /// The language to read from a file that holds several (SAMI): a code such as `fr-FR`, or a class name.
        public var language: String?

        /// The defaults.
        public init(frameRate: Double? = nil, channel: Int = 1) {
            self.frameRate = frameRate
            self.channel = channel
        }
    }

    /// The format a file name's extension names, such as `.vtt` or `.srt`.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let suffix = path[path.index(after: dot)...].lowercased()
        guard let entry = Self.registry.first(where: { $0.extensions.contains(suffix) }) else { return nil }
        self = entry.format
    }

    /// The format a name given on the command line stands for (`vtt`, `webvtt`, `srt`, `json`…).
    public init?(name: String) {
        let name = name.lowercased()
        guard let entry = Self.registry.first(where: { $0.format.rawValue == name || $0.names.contains(name) }) else {
            return nil
        }
        self = entry.format
    }

    /// Guesses the format of content whose name says nothing, from its first bytes (after a byte
    /// order mark and white space); what nothing recognises is read as SRT.
    public static func sniff(_ bytes: some Collection<UInt8>) -> CaptionFormat {
        var head = Array(bytes.prefix(4096))
        // UTF-16 and UTF-32 with a byte order mark, and UTF-16 without one, are looked at as text
        // (a MicroDVD file in UTF-16 without a mark was read as JSON for its first "{").
        let marked = Charset.byteOrderMark(head).flatMap { $0.name == "UTF-8" ? nil : $0 }
        if let (name, length) = marked ?? Charset.unmarkedUTF16(head).map({ ($0, 0) }),
            case .success(let text) = Charset.convert(Array(head.dropFirst(length).prefix((head.count - length) & ~3)), from: name)
        {
            head = text
        }
        var body = head[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let trimmed = body.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return registry.first { $0.recognises?(head[...], trimmed) ?? false }?.format ?? .srt
    }

    /// Every name `--from` accepts, for help and errors.
    public static var acceptedNames: String {
        registry.map(\.format.rawValue).joined(separator: ", ")
    }

    /// Every name `--to` accepts: the formats that can be written.
    public static var writableNames: String {
        registry.filter { $0.writer != nil }.map(\.format.rawValue).joined(separator: ", ")
    }

    /// The reader (`nil` for a write-only format).
    public var reader: (any TimedTextReader)? { reader(options: ReaderOptions()) }

    /// The reader with `options` (`nil` for a write-only format).
    public func reader(options: ReaderOptions) -> (any TimedTextReader)? { entry.reader?(options) }

    /// The writer, configured with `options` (`nil` for a read-only format).
    public func writer(options: WriterOptions = WriterOptions()) -> (any TimedTextWriter)? { entry.writer?(options) }

    /// The name people know the format by.
    public var displayName: String { entry.displayName }

    /// The longest row its writer keeps, for the formats whose screen has columns: SCC 32, EBU
    /// STL 40 (37 for teletext subtitles, which `document`, an STL file, may be); nil for the others.
    public func maximumLineLength(for document: TimedTextDocument? = nil) -> Int? {
        switch self {
        case .scc: 32
        case .stl: ["1", "2"].contains(document.flatMap { STLWriter.keptHeader(of: $0)["DSC"] } ?? "") ? 37 : 40
        default: nil
        }
    }

    /// The step its times are written in: a frame for the formats timed in frames (SCC and iTT,
    /// TTML written with `ttmlProfile` `.itt`, at 29.97, EBU STL at 25, MicroDVD at 23.976, unless
    /// `frameRate` says otherwise), a hundredth of a second for ASS, a millisecond for the others.
    public func timeStep(frameRate: Double? = nil, ttmlProfile: TTMLWriter.Profile? = nil) -> MediaTime {
        let millisecond = MediaTime(milliseconds: 1)
        switch self {
        case .scc, .stl, .microdvd, .ttml where ttmlProfile == .itt:
            let fallback = self == .scc || self == .ttml ? 30000.0 / 1001 : self == .stl ? 25 : MicroDVDReader.defaultFrameRate
            let timecode = SMPTETimecode(frameRate: frameRate ?? fallback)
            return MediaTime(value: timecode.denominator, timescale: timecode.numerator) ?? millisecond
        case .ass: return MediaTime(milliseconds: 10)
        default: return millisecond
        }
    }

    /// The frame rate this format's writer writes `document` at with `options`: the one given,
    /// else, for iTT and EBU STL, the rate a source of the same kind counted in; nil for the
    /// format's own default.
    public func frameRate(writing document: TimedTextDocument, options: WriterOptions) -> Double? {
        switch self {
        case .ttml where options.ttmlProfile == .itt: TTMLWriter(profile: .itt, frameRate: options.frameRate).rate(for: document)
        case .stl: STLWriter(frameRate: options.frameRate).rate(for: document)
        default: options.frameRate
        }
    }

    /// The latest time the format can write: the last frame of a day of timecode for SCC and EBU
    /// STL (at `frameRate`, else 29.97 and 25), where their writers cut what runs later; nil for
    /// the others.
    public func latestTime(frameRate: Double? = nil) -> MediaTime? {
        guard self == .scc || self == .stl else { return nil }
        return SMPTETimecode(frameRate: frameRate ?? (self == .scc ? 30000.0 / 1001 : 25)).lastTimeOfDay
    }

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .microdvd: "sub"  // shared with SubViewer, so not one the format is recognised by
        case .podcastJSON: "json"
        default: entry.extensions[0]
        }
    }

    private var entry: FormatEntry { Self.registry.first { $0.format == self }! }
}

extension ArraySlice<UInt8> {
    /// The text up to the first line end (for recognising formats by their first line).
    var firstLine: Substring {
        Substring(String(decoding: prefix(200).prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self))
    }
}

/// What the registry knows about one format: its names, how to recognise it, its reader and writer.
struct FormatEntry: Sendable {
    let format: CaptionFormat
    let displayName: String
    /// File extensions, the usual one first.
    let extensions: [String]
    /// Other names on the command line (the raw value is always accepted).
    let names: [String]
    let reader: (@Sendable (CaptionFormat.ReaderOptions) -> any TimedTextReader)?
    /// `nil` for a read-only format.
    let writer: (@Sendable (CaptionFormat.WriterOptions) -> any TimedTextWriter)?
    /// Whether content is in this format: the first bytes as they are, and after a UTF-8 byte
    /// order mark and leading white space. Checked in registry order.
    let recognises: (@Sendable (_ raw: ArraySlice<UInt8>, _ trimmed: ArraySlice<UInt8>) -> Bool)?
}

extension CaptionFormat {
    /// Every format, one entry each (a new format is a folder of its own and one entry here).
    static let registry: [FormatEntry] = [
        FormatEntry(
            format: .webvtt, displayName: "WebVTT", extensions: ["vtt", "webvtt"], names: ["vtt"],
            reader: { _ in WebVTTReader() }, writer: { _ in WebVTTWriter() },
            recognises: { _, text in text.starts(with: "WEBVTT".utf8) }),
        FormatEntry(
            format: .srt, displayName: "SRT", extensions: ["srt"], names: ["subrip"], reader: { _ in SRTReader() },
            writer: { SRTWriter(lineEnding: $0.crlf ? .crlf : .lf) }, recognises: nil),
        FormatEntry(
            format: .microdvd, displayName: "MicroDVD", extensions: [], names: ["sub"],
            reader: { MicroDVDReader(frameRate: $0.frameRate) }, writer: { MicroDVDWriter(frameRate: $0.frameRate) },
            recognises: { _, text in MicroDVDReader.frames(text.firstLine) != nil }),
        FormatEntry(
            format: .scc, displayName: "SCC", extensions: ["scc"], names: ["cea608", "608"],
            reader: { SCCReader(frameRate: $0.frameRate, channel: $0.channel) },
            writer: { SCCWriter(frameRate: $0.frameRate, mode: $0.sccMode) }, recognises: { _, text in SCCReader.recognises(text) }),
        FormatEntry(
            format: .stl, displayName: "EBU STL", extensions: ["stl"], names: ["ebu-stl", "ebustl"], reader: { _ in STLReader() },
            writer: { STLWriter(frameRate: $0.frameRate, kind: $0.stlKind) }, recognises: { raw, _ in STLReader.recognises(raw) }),
        FormatEntry(
            format: .ass, displayName: "ASS/SSA", extensions: ["ass", "ssa"], names: ["ssa"], reader: { _ in ASSReader() },
            writer: { _ in ASSWriter() }, recognises: { _, text in ASSReader.recognises(text.firstLine) }),
        FormatEntry(
            format: .sbv, displayName: "SBV", extensions: ["sbv"], names: ["youtube"], reader: { _ in SBVReader() },
            writer: { _ in SBVWriter() },
            recognises: { _, text in
                SBVReader.timing(text.firstLine) != nil || text.firstLine.uppercased().hasPrefix("[INFORMATION]")
            }),
        // Before TTML, which takes anything that starts with '<'.
        FormatEntry(
            format: .sami, displayName: "SAMI", extensions: ["smi", "sami"], names: ["smi"], reader: { SAMIReader(language: $0.language) },
            writer: nil, recognises: { _, text in text.prefix(5).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }.elementsEqual("<sami".utf8) }),
        FormatEntry(
            format: .ttml, displayName: "TTML", extensions: ["ttml", "dfxp", "xml", "itt"], names: ["dfxp", "imsc", "imsc1", "itt"],
            reader: { _ in TTMLReader() }, writer: { TTMLWriter(profile: $0.ttmlProfile, frameRate: $0.frameRate) },
            recognises: { _, text in text.first == UInt8(ascii: "<") }),
        FormatEntry(
            format: .json, displayName: "JSON", extensions: ["json"], names: [], reader: { _ in JSONReader() },
            writer: { _ in JSONDumpWriter() }, recognises: { _, text in text.first == UInt8(ascii: "{") }),
        FormatEntry(
            format: .podcastJSON, displayName: "Podcasting 2.0 JSON", extensions: [], names: ["podcast"],
            reader: { _ in PodcastTranscriptReader() }, writer: { _ in PodcastTranscriptWriter() }, recognises: nil),
    ]
}

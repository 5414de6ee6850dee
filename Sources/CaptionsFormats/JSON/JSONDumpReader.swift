import CaptionsCore
import FoundationEssentials

/// Reads back what ``JSONDumpWriter`` writes (`--to json`): every cue with its settings, speaker
/// and text tree, the regions, header lines, style sheets, comments and language. Times are read
/// exactly from their decimal form; the diagnostics of the run that wrote the file are not read.
public struct JSONDumpReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Deeper files are refused before decoding: the dump of a tree ``InlineNode/maximumDepth``
    /// spans deep needs two levels a span and a few more around the cues.
    static let maximumJSONDepth = 2 * InlineNode.maximumDepth + 8

    private struct File: Decodable {
        var format: String?
        var kind: String?
        var language: String?
        var title: String?
        var headerLines: [String]?
        var regions: [RegionEntry]?
        var styleSheets: [String]?
        var comments: [CommentEntry]?
        var cues: [CueEntry]
    }

    private struct RegionEntry: Decodable {
        var id: String
        var width: Double?, lines: Double?, regionAnchorX: Double?, regionAnchorY: Double?
        var viewportAnchorX: Double?, viewportAnchorY: Double?
        var scroll: String?
    }

    private struct CommentEntry: Decodable {
        var text: String
        var beforeCue: Int
    }

    private enum LineValue: Decodable {
        case auto, value(Double)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) { self = .value(number) } else { _ = try container.decode(String.self); self = .auto }
        }
    }

    private struct CueEntry: Decodable {
        var id: String?
        var startTime: Double
        var endTime: Double?
        var vertical: String?
        var snapToLines: Bool?
        var line: LineValue?
        var lineAlign: String?
        var position: LineValue?
        var positionAlign: String?
        var size: Double?
        var align: String?
        var region: String?
        var speaker: String?
        var nodes: [NodeEntry]?
        var text: String?
        var location: LocationEntry?
    }

    private struct LocationEntry: Decodable {
        var line: Int
        var column: Int
    }

    private struct StyleEntry: Decodable {
        var color: String?
        var backgroundColor: String?
    }

    private struct NodeEntry: Decodable {
        var type: String
        var text: String?
        var time: Double?
        var classes: [String]?
        var annotation: String?
        var style: StyleEntry?
        var children: [NodeEntry]?
    }

    /// Parses a dump; throws `json.invalid` naming the JSON path of the problem.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let bytes = input
        guard JSONProblem.depth(of: bytes) <= Self.maximumJSONDepth else {
            throw CaptionsError("json.depth", "nested deeper than \(Self.maximumJSONDepth) levels: not a caption dump", at: .start)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            throw CaptionsError("json.invalid", JSONProblem.describe(error), at: .start)
        }
        var document = TimedTextDocument(
            kind: file.kind.flatMap(TimedTextDocument.Kind.init(rawValue:)) ?? .captions, language: file.language,
            title: file.title ?? "", headerLines: file.headerLines ?? [], sourceFormat: file.format ?? "json")
        document.regions = (file.regions ?? []).map { entry in
            let defaults = Region(id: entry.id)
            return Region(
                id: entry.id, width: entry.width ?? defaults.width, lines: entry.lines ?? defaults.lines,
                regionAnchorX: entry.regionAnchorX ?? defaults.regionAnchorX, regionAnchorY: entry.regionAnchorY ?? defaults.regionAnchorY,
                viewportAnchorX: entry.viewportAnchorX ?? defaults.viewportAnchorX,
                viewportAnchorY: entry.viewportAnchorY ?? defaults.viewportAnchorY,
                scroll: entry.scroll.flatMap(Region.Scroll.init(rawValue:)) ?? .none)
        }
        document.styleSheets = (file.styleSheets ?? []).map { StyleSheet(text: $0) }
        document.comments = (file.comments ?? []).map { Comment(text: $0.text, beforeCue: $0.beforeCue) }
        document.cues.reserveCapacity(file.cues.count)
        for (index, entry) in file.cues.enumerated() {
            guard let start = PodcastTranscriptReader.time(entry.startTime) else {
                throw CaptionsError("json.invalid", "cues[\(index)].startTime is not a time in seconds", at: .start)
            }
            var settings = CueSettings()
            settings.vertical = entry.vertical.flatMap(CueSettings.Vertical.init(rawValue:)) ?? .horizontal
            settings.snapToLines = entry.snapToLines ?? true
            if case .value(let line) = entry.line { settings.line = .value(line) }
            settings.lineAlign = entry.lineAlign.flatMap(CueSettings.LineAlign.init(rawValue:)) ?? .start
            if case .value(let position) = entry.position { settings.position = position }
            settings.positionAlign = entry.positionAlign.flatMap(CueSettings.PositionAlign.init(rawValue:)) ?? .auto
            settings.size = entry.size ?? 100
            settings.align = entry.align.flatMap(CueSettings.Align.init(rawValue:)) ?? .center
            settings.region = entry.region
            let content = entry.nodes.map(Self.nodes) ?? entry.text.map { [.text($0)] } ?? []
            document.cues.append(Cue(
                id: entry.id ?? "", start: start, end: entry.endTime.flatMap(PodcastTranscriptReader.time), settings: settings,
                speaker: entry.speaker, content: content,
                location: entry.location.map { SourceLocation(line: $0.line, column: $0.column) }))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    private static func nodes(_ entries: [NodeEntry]) -> [InlineNode] {
        entries.compactMap { entry -> InlineNode? in
            switch entry.type {
            case "text": return .text(entry.text ?? "")
            case "timestamp": return entry.time.flatMap(PodcastTranscriptReader.time).map { .timestamp($0) }
            default:
                guard let kind = Span.Kind(rawValue: entry.type) else { return entry.children.map { .span(Span(.class, children: nodes($0))) } }
                let style = entry.style.map {
                    TextStyle(color: $0.color.flatMap(RGBAColor.init(parsing:)), backgroundColor: $0.backgroundColor.flatMap(RGBAColor.init(parsing:)))
                }
                return .span(Span(kind, classes: entry.classes ?? [], annotation: entry.annotation, style: style, children: nodes(entry.children ?? [])))
            }
        }
    }
}

/// `--from json`: the model dump (`--to json`) or a Podcasting 2.0 transcript, told apart by
/// their content (a `cues` array or a `segments` array at the top).
public struct JSONReader: TimedTextReader {
    /// A reader.
    public init() {}

    private struct Probe: Decodable {
        var cues: Ignored?
        var segments: Ignored?
    }

    private struct Ignored: Decodable {
        init(from decoder: Decoder) throws {}
    }

    /// Reads either kind; throws `json.invalid` when the file is neither.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let bytes = input
        let probe = try? JSONDecoder().decode(Probe.self, from: Data(bytes))
        if probe?.cues != nil { return try JSONDumpReader().read(bytes) }
        if probe?.segments != nil || probe == nil { return try PodcastTranscriptReader().read(bytes) }
        throw CaptionsError(
            "json.invalid", "neither a caption dump (a \"cues\" array, as --to json writes) nor a Podcasting 2.0 transcript (a \"segments\" array)",
            at: .start)
    }
}

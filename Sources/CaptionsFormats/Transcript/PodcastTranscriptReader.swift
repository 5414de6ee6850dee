import CaptionsCore
import FoundationEssentials

/// Reads a Podcasting 2.0 JSON transcript: `{"version": "1.0.0", "segments": [{"speaker",
/// "startTime", "endTime", "body"}]}`, times in seconds (`endTime` optional).
///
/// Segments that share the same times (some hosts emit one per word group) are merged into one
/// cue. Times are read exactly from their decimal form.
public struct PodcastTranscriptReader: TimedTextReader {
    /// A reader.
    public init() {}

    private struct File: Decodable {
        var segments: [Segment]
    }

    private struct Segment: Decodable {
        var speaker: String?
        var startTime: Double
        var endTime: Double?
        var body: String
    }

    /// Parses a transcript; throws `podcast.json.invalid` with the JSON path of the problem.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(input))
        } catch let error as DecodingError {
            throw CaptionsError("podcast.json.invalid", JSONProblem.describe(error), at: .start)
        } catch {
            throw CaptionsError("podcast.json.invalid", "not JSON: \(error)", at: .start)
        }
        var document = TimedTextDocument(sourceFormat: "podcast-json")
        // The text of the cue being built: segments with its times join it (in linear time: the
        // cue is made once its last segment is known).
        var body = ""
        for (index, segment) in file.segments.enumerated() {
            guard let start = Self.time(segment.startTime) else {
                throw CaptionsError("podcast.json.invalid", "segments[\(index)].startTime is not a time in seconds", at: .start)
            }
            let end = segment.endTime.flatMap(Self.time)
            if let last = document.cues.last, last.start == start, last.end == end, last.speaker == segment.speaker {
                body += " "
                body += segment.body
                continue
            }
            Self.finishLast(&document, body: &body)
            body = segment.body
            document.cues.append(Cue(
                start: start, end: end, speaker: segment.speaker, content: [],
                location: SourceLocation(line: index + 1, column: 1)))
        }
        Self.finishLast(&document, body: &body)
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    private static func finishLast(_ document: inout TimedTextDocument, body: inout String) {
        guard !document.cues.isEmpty else { return }
        document.cues[document.cues.count - 1].content = body.isEmpty ? [] : [.text(body)]
        body = ""
    }

    /// Seconds as an exact time, from the shortest decimal that reads back as `seconds`.
    static func time(_ seconds: Double) -> MediaTime? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        return MediaTime(decimalSeconds: Substring(NumberFormatting.shortest(seconds)))
    }
}

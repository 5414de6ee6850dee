import CaptionsCore
import CaptionsFormats

/// The checks one fuzz input goes through; the same code runs under libFuzzer and in replay.
///
/// A crash (stack overflow, trap, sanitizer report) ends the process; every other problem is
/// returned as a ``FuzzFinding``. What counts as a problem:
/// - a reader's thrown error without a 1-based line and column;
/// - an in-place read (`read(borrowing:)`) that differs from the owned read;
/// - our own output that our reader refuses or reads with errors;
/// - for WebVTT, SRT and TTML, `write(read(write(read(x))))` differing from `write(read(x))`
///   when the first pass (read, reduce to the format's capabilities) gave no warning;
/// - a JSON dump that is not well-formed JSON.
public enum FuzzHarness {
    /// Runs `bytes` through the checks of `target`.
    public static func fuzzOne(target: FuzzTarget, bytes: [UInt8]) -> [FuzzFinding] {
        switch target {
        case .webvtt, .srt, .ttml, .podcastJSON, .scc, .stl, .sami, .ass, .sbv, .microdvd:
            guard let format = target.captionFormat, let reader = format.reader else { return [] }
            return checkCaptions(bytes, reader: reader)
        case .a53:
            return checkClosedCaptions(bytes)
        case .descriptionCSV, .descriptionJSON, .descriptionText:
            return checkDescriptionScript(bytes, kind: target)
        }
    }

    /// Decodes `bytes` as the caption data of pictures at 29.97 a second (ten triplets a picture;
    /// channel 1, or 3 for inputs of odd length; CEA-708 service 1 for every third length), then
    /// writes the document to every output.
    static func checkClosedCaptions(_ bytes: [UInt8]) -> [FuzzFinding] {
        let pictures = stride(from: 0, to: bytes.count, by: 30).map { start in
            ClosedCaptionData(
                time: MediaTime(value: Int64(start / 30) * 1001, timescale: 30000) ?? .zero,
                triplets: Array(bytes[start..<min(bytes.count, start + 30)]))
        }
        let end = MediaTime(value: Int64(pictures.count) * 1001, timescale: 30000) ?? .zero
        // Every third length asks for CEA-708 service 1 (the others read 608, and 708 when 608 is empty).
        let document = ClosedCaptionDecoder.document(
            from: pictures, end: end, channel: bytes.count % 2 == 0 ? 1 : 3, service: bytes.count % 3 == 2 ? 1 : nil)
        return outputs(variant: bytes.count).flatMap { check(document, output: $0) }
    }

    /// One output a document is written to: a format with its writer options.
    struct Output {
        var format: CaptionFormat
        var options = CaptionFormat.WriterOptions()
        var label: String

        /// Whether `write(read(write(read(x))))` must equal `write(read(x))`.
        var checksRoundTrip: Bool { [.webvtt, .srt, .ttml].contains(format) }
    }

    /// Every text output: each caption format once (SCC and STL in turn). The variants of SRT (LF or CRLF) and TTML
    /// (each profile) are taken in turn by input length, so that every variant is fuzzed without
    /// writing TTML three times per input (the TTML writer is the slowest step).
    static func outputs(variant: Int) -> [Output] {
        var srt = CaptionFormat.WriterOptions()
        srt.crlf = variant % 2 == 1
        var ttml = CaptionFormat.WriterOptions()
        let profiles = TTMLWriter.Profile.allCases
        ttml.ttmlProfile = profiles[variant % profiles.count]
        return [
            Output(format: .webvtt, label: "webvtt"),
            Output(format: .srt, options: srt, label: srt.crlf ? "srt-crlf" : "srt"),
            Output(format: .ttml, options: ttml, label: "ttml-\(ttml.ttmlProfile.rawValue)"),
            Output(format: .json, label: "json-dump"),
            Output(format: .podcastJSON, label: "podcast-json"),
            // The grid formats' writers, one per input in turn.
            variant % 2 == 0 ? Output(format: .scc, label: "scc") : Output(format: .stl, label: "stl"),
        ]
    }

    /// Reads `bytes`, then writes the document to every output (and to a transcript format) and
    /// reads each readable output back.
    static func checkCaptions(_ bytes: [UInt8], reader: any TimedTextReader) -> [FuzzFinding] {
        var findings: [FuzzFinding] = []
        let owned = Result { () throws(CaptionsError) in try reader.read(bytes) }
        if let inPlace = reader as? any InPlaceTimedTextReader {
            let borrowed = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(CaptionsError) in try inPlace.read(borrowing: buffer) }
            }
            if borrowed != owned {
                findings.append(FuzzFinding("read.in-place", "read(borrowing:) gave \(summary(borrowed)), read(_:) gave \(summary(owned))"))
            }
        }
        let document: TimedTextDocument
        switch owned {
        case .success(let read): document = read
        case .failure(let error):
            if let location = error.location, location.line < 1 || location.column < 1 {
                findings.append(FuzzFinding("read.error-location", "\(error) at \(location), not 1-based"))
            }
            return findings
        }
        // `captions convert` writes nothing when reading gave an error.
        guard !document.diagnostics.contains(where: { $0.severity == .error }) else { return findings }
        for output in outputs(variant: bytes.count) {
            findings += check(document, output: output)
        }
        // One transcript format per input, in turn by length, as for the writer variants.
        let transcripts = TranscriptFormat.allCases
        _ = transcripts[bytes.count % transcripts.count].render(document, title: "fuzz")
        return findings
    }

    /// Reduces and writes `document` as `output`, reads it back and, for WebVTT, SRT and TTML,
    /// checks that a second pass writes the same bytes unless the first pass warned.
    static func check(_ document: TimedTextDocument, output: Output) -> [FuzzFinding] {
        let first = pass(document, output: output)
        if output.format == .json {
            if let problem = JSONSyntax.problem(in: first.bytes) {
                return [FuzzFinding("json-dump.syntax", "the JSON dump is not JSON: \(problem)")]
            }
            return []
        }
        guard let reader = output.format.reader else { return [] }
        let reread: TimedTextDocument
        do {
            reread = try reader.read(first.bytes)
        } catch {
            return [FuzzFinding("reread.\(output.label)", "our \(output.label) output is refused: \(error)\(excerpt(first.bytes))")]
        }
        if let error = reread.diagnostics.first(where: { $0.severity == .error }) {
            return [FuzzFinding("reread.\(output.label)", "our \(output.label) output reads with an error: \(describe(error))\(excerpt(first.bytes))")]
        }
        guard output.checksRoundTrip else { return [] }
        let second = pass(reread, output: output)
        guard second.bytes != first.bytes, !first.warned else { return [] }
        return [FuzzFinding("roundtrip.\(output.label)",
                            "[\(modelDifference(first.document, reread))] write(read(write(read(x)))) differs from "
                                + "write(read(x)) with no warning on the first pass: " + firstDifference(first.bytes, second.bytes))]
    }

    /// Reduce to `output`'s capabilities and write, as `captions convert` does; `warned` when the
    /// document's diagnostics or the reduction include a warning; `document`, what was written.
    static func pass(_ document: TimedTextDocument, output: Output) -> (bytes: [UInt8], warned: Bool, document: TimedTextDocument) {
        var reduced = document
        let writer = output.format.writer(options: output.options)!  // every output is a format with a writer
        let losses = CapabilityReducer(capabilities: writer.capabilities, formatName: output.format.displayName)
            .reduce(&reduced)
        let fitted = writer.fit(&reduced)
        let warned = (document.diagnostics + losses + fitted).contains { $0.severity >= .warning }
        return (writer.write(reduced), warned, reduced)
    }

    /// Parses a description script, places it in a fixed dialogue's gaps, writes WebVTT and DAPT,
    /// and reads both back.
    static func checkDescriptionScript(_ bytes: [UInt8], kind: FuzzTarget) -> [FuzzFinding] {
        let script: DescriptionScript
        do {
            switch kind {
            case .descriptionJSON: script = try DescriptionScript(json: bytes)
            case .descriptionCSV: script = try DescriptionScript(csv: String(decoding: bytes, as: UTF8.self))
            default: script = try DescriptionScript(plainText: String(decoding: bytes, as: UTF8.self))
            }
        } catch {
            return []
        }
        let dialogue = [
            Cue(start: MediaTime(seconds: 2), end: MediaTime(seconds: 4), content: [.text("Hello")]),
            Cue(start: MediaTime(seconds: 10), end: MediaTime(seconds: 12), content: [.text("again")]),
        ]
        let result = DescriptionPlacer().place(script, dialogue: dialogue, duration: MediaTime(seconds: 60))
        let events = result.placements.map { ($0.identifier, $0.interval.start, $0.interval.end, $0.text) }
        var findings: [FuzzFinding] = []
        let cues = events.map { Cue(id: $0.0, start: $0.1, end: $0.2, content: $0.3.isEmpty ? [] : [.text($0.3)]) }
        let vtt = WebVTTWriter().write(TimedTextDocument(kind: .descriptions, language: "en", cues: cues))
        findings += reread(vtt, reader: WebVTTReader(), label: "description-webvtt")
        findings += reread(Array(DAPTWriter(language: "en").write(events: events).utf8), reader: TTMLReader(), label: "dapt")
        return findings
    }

    private static func reread(_ bytes: [UInt8], reader: any TimedTextReader, label: String) -> [FuzzFinding] {
        do {
            let document = try reader.read(bytes)
            if let error = document.diagnostics.first(where: { $0.severity == .error }) {
                return [FuzzFinding("reread.\(label)", "our \(label) output reads with an error: \(describe(error))\(excerpt(bytes))")]
            }
            return []
        } catch {
            return [FuzzFinding("reread.\(label)", "our \(label) output is refused: \(error)\(excerpt(bytes))")]
        }
    }
}

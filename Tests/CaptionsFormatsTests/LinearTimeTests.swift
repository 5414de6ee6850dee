import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// Every reader and transform takes time linear in its input, on the inputs that made some of
/// them quadratic: four times the input may take at most six times as long (linear gives 4×,
/// quadratic 16×; the margin keeps a noisy machine from failing the test).
///
/// This is a test of growth, not of speed (speed goals live in `Scripts/bench.sh`): each size is
/// timed as the best of three runs, and a ratio over the limit is measured again before failing,
/// so that a busy machine does not fail it.
@Suite(.serialized) struct LinearTimeTests {
    /// The most a ratio may be: input four times as large, at most six times the time.
    static let limit = 6.0

    /// The ratio of the time for input of size 4n to the time for size n.
    static func growth(size: Int, make: (Int) -> [UInt8], work: ([UInt8]) -> Void) -> Double {
        func best(_ input: [UInt8]) -> Double {
            (0..<3).map { _ in
                let duration = ContinuousClock().measure { work(input) }
                return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            }.min() ?? 0
        }
        let small = make(size)
        let large = make(4 * size)
        var ratio = Double.infinity
        for _ in 0..<3 where ratio > limit {
            ratio = min(ratio, best(large) / max(best(small), 1e-6))
        }
        return ratio
    }

    static func read(_ format: CaptionFormat) -> ([UInt8]) -> Void {
        { input in _ = try? format.reader?.read(input) }
    }

    /// Reads, reduces for every format and writes: the whole of `convert` but the files.
    static func convertToEveryFormat(from format: CaptionFormat) -> ([UInt8]) -> Void {
        { input in
            guard let document = try? format.reader?.read(input) else { return }
            for target in [CaptionFormat.webvtt, .srt, .ttml, .json] {
                var reduced = document
                let writer = target.writer()!
                _ = CapabilityReducer(capabilities: writer.capabilities, formatName: target.displayName).reduce(&reduced)
                _ = writer.write(reduced)
            }
        }
    }

    static let srtHead = "1\n00:00:01,000 --> 00:00:02,000\n"
    static let webVTTHead = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"

    /// Inputs that grow with `n`, by name.
    static func input(_ name: String, _ n: Int) -> [UInt8] {
        let text: String
        switch name {
        case "SRT: many nested tags on one line": text = srtHead + String(repeating: "<b><i>", count: n) + "x\n"
        case "SRT: unknown tags on one line": text = srtHead + String(repeating: "a<x>", count: n) + "\n"
        case "SRT: override blocks without an end": text = srtHead + String(repeating: "{\\", count: n) + "\n"
        case "SRT: many cues": text = (1...n).map { "\($0)\n00:00:01,000 --> 00:00:02,000\n<i>x</i>\n\n" }.joined()
        case "SRT: tags that are not SRT tags": text = srtHead + String(repeating: "<q a> <3 ", count: n) + "\n"
        case "WebVTT: many nested tags": text = webVTTHead + String(repeating: "<b>", count: n) + "x\n"
        case "WebVTT: unknown tags": text = webVTTHead + String(repeating: "a<x>", count: n) + "\n"
        case "WebVTT: escaped tags": text = webVTTHead + String(repeating: "&lt;i&gt;", count: n) + "\n"
        case "WebVTT: many cues": text = "WEBVTT\n\n" + (1...n).map { _ in "00:01.000 --> 00:02.000\n<v A>x</v>\n\n" }.joined()
        case "WebVTT: a long voice name": text = webVTTHead + "<v " + String(repeating: "a \n", count: n) + ">x\n"
        case "WebVTT: many lines in a cue": text = webVTTHead + String(repeating: "line \n", count: n)
        case "TTML: many paragraphs": text = ttml((0..<n).map { #"<p begin="\#($0)s" end="\#($0 + 1)s">x<br/>y</p>"# }.joined())
        case "TTML: many spans in one paragraph":
            text = ttml(#"<p begin="0s" end="1s">"# + String(repeating: #"<span tts:fontStyle="italic">a</span> "#, count: n) + "</p>")
        case "TTML: a region for every paragraph":
            let regions = (0..<n).map { #"<region xml:id="r\#($0)" tts:origin="10% 10%" tts:extent="80% 20%"/>"# }.joined()
            let paragraphs = (0..<n).map { #"<p begin="\#($0)s" end="\#($0 + 1)s" region="r\#($0)">x</p>"# }.joined()
            text = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><head><layout>"#
                + regions + "</layout></head><body><div>" + paragraphs + "</div></body></tt>"
        default: text = ""
        }
        return Array(text.utf8)
    }

    static func ttml(_ body: String) -> String {
        #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>\#(body)</div></body></tt>"#
    }

    @Test(arguments: [
        "SRT: many nested tags on one line", "SRT: unknown tags on one line", "SRT: override blocks without an end",
        "SRT: many cues", "SRT: tags that are not SRT tags",
    ])
    func srtIsLinear(name: String) {
        let ratio = Self.growth(size: 4_000, make: { Self.input(name, $0) }, work: Self.convertToEveryFormat(from: .srt))
        #expect(ratio <= Self.limit, "\(name): \(ratio)")
    }

    @Test(arguments: [
        "WebVTT: many nested tags", "WebVTT: unknown tags", "WebVTT: escaped tags", "WebVTT: many cues",
        "WebVTT: a long voice name", "WebVTT: many lines in a cue",
    ])
    func webVTTIsLinear(name: String) {
        let ratio = Self.growth(size: 2_500, make: { Self.input(name, $0) }, work: Self.convertToEveryFormat(from: .webvtt))
        #expect(ratio <= Self.limit, "\(name): \(ratio)")
    }

    @Test(arguments: ["TTML: many paragraphs", "TTML: many spans in one paragraph", "TTML: a region for every paragraph"])
    func ttmlIsLinear(name: String) {
        let ratio = Self.growth(size: 1_000, make: { Self.input(name, $0) }, work: Self.convertToEveryFormat(from: .ttml))
        #expect(ratio <= Self.limit, "\(name): \(ratio)")
    }

    @Test func podcastSegmentsSharingTheirTimesMergeInLinearTime() {
        // 320,000 segments with the same times took 26 s: the merged text was rebuilt each time.
        let make = { (n: Int) in
            let body = String(repeating: "word ", count: 20)
            return Array(("{\"version\":\"1.0.0\",\"segments\":[" + (0..<n).map { _ in #"{"startTime":1,"endTime":2,"body":"\#(body)"}"# }
                .joined(separator: ",") + "]}").utf8)
        }
        let ratio = Self.growth(size: 4_000, make: make, work: Self.read(.podcastJSON))
        #expect(ratio <= Self.limit, "\(ratio)")
    }

    @Test func transformsAreLinear() {
        let make = { (n: Int) in
            Array(("WEBVTT\n\n" + (0..<n).map { _ in "00:01.000 --> 00:02.000\n<v Ann>same words here</v>\n\n" }.joined()).utf8)
        }
        let ratio = Self.growth(size: 2_500, make: make) { input in
            guard let document = try? WebVTTReader().read(input) else { return }
            _ = IdenticalCueMerger().apply(to: document)
            _ = TimeShift(offset: MediaTime(seconds: 1)).apply(to: document)
            _ = CueLineWrapper(lineLength: 5, maxLines: 2).apply(to: document)
            _ = SpeakerPrefixer().apply(to: document)
        }
        #expect(ratio <= Self.limit, "\(ratio)")
    }
}

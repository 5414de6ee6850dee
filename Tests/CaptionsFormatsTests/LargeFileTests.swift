import CaptionsCore
@testable import CaptionsFormats
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Large files go through the parallel paths (SRT chunks parsed at once, writers serialising
/// pieces on every core); these tests hold them to the results of one sequential pass.
@Suite struct LargeFileTests {
    /// A seeded SRT file of `count` cues with markup, placements, repairs to report (a missing
    /// index, extra blank lines, a missing blank line, trailing spaces) and custom colours.
    static func srt(cues count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        let words = ["light", "door", "river", "we", "never", "quiet", "<3", "&", "train", "Ann:"]
        var text = ""
        var time = 0
        func stamp(_ ms: Int) -> String {
            let fields = [ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60]
            return fields.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":") + "," + String(String(ms % 1000 + 1000).dropFirst())
        }
        for index in 1...count {
            time += 100 + random.next(700)
            let end = time + 900 + random.next(3_000)
            var lines = (0...random.next(2)).map { _ in (0...random.next(6)).map { _ in words[random.next(words.count)] }.joined(separator: " ") }
            switch random.next(40) {
            case 0: lines[0] = "<i>" + lines[0] + "</i>"
            case 1: lines[0] = "<font color=\"#\(String(random.next(0xFFFFFF), radix: 16))\">" + lines[0] + "</font>"
            case 2: lines[0] = "{\\an8}" + lines[0]
            case 3: lines[0] += "   "
            default: break
            }
            let indexLine = random.next(500) == 0 ? "" : "\(index)\n"
            let separator = random.next(500) == 0 ? "\n\n\n" : random.next(700) == 0 ? "" : "\n"
            text += indexLine + "\(stamp(time)) --> \(stamp(end))\n" + lines.joined(separator: "\n") + "\n" + separator
            time = end
        }
        return Array(text.utf8)
    }

    @Test(arguments: [2, 3, 7])
    func chunkedParsingEqualsOnePass(pieces: Int) {
        let bytes = Self.srt(cues: 30_000, seed: UInt64(pieces))
        bytes.withUnsafeBufferPointer { buffer in
            let whole = SRTChunkedParse.parse(buffer, pieces: 1)
            let chunked = SRTChunkedParse.parse(buffer, pieces: pieces)
            #expect(SRTChunking.chunks(of: buffer, pieces: pieces).count == pieces)
            #expect(chunked.cues.count == whole.cues.count)
            let firstDifference = zip(chunked.cues, whole.cues).enumerated().first { $1.0 != $1.1 }?.offset
            #expect(firstDifference == nil, "cue \(firstDifference ?? 0) differs")
            #expect(chunked.diagnostics.sorted { ($0.location ?? .start) < ($1.location ?? .start) }
                == whole.diagnostics.sorted { ($0.location ?? .start) < ($1.location ?? .start) })
        }
    }

    /// A seeded WebVTT file with a region, comments between cues, misplaced style blocks, bad
    /// timings, unknown settings, blank-looking lines of spaces and markup; LF or CRLF line ends.
    static func webVTT(cues count: Int, seed: UInt64, crlf: Bool) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var text = "WEBVTT - generated\nKind: captions\n\nREGION\nid:top lines:2\n\nNOTE before the first cue\n\n"
        func stamp(_ ms: Int) -> String {
            let fields = [ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60]
            return fields.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":") + "." + String(String(ms % 1000 + 1000).dropFirst())
        }
        var time = 0
        for index in 1...count {
            time += 100 + random.next(700)
            let end = time + 900 + random.next(3_000)
            var settings = ["", " align:start", " region:top", " line:-2", " bogus:1", " position:200%"][random.next(6) == 0 ? random.next(6) : 0]
            if random.next(50) == 0 { settings += " size:50%" }
            let timing = random.next(300) == 0 ? "\(stamp(time)) -> \(stamp(end))" : "\(stamp(time)) --> \(stamp(end))\(settings)"
            let body = ["<v Ann>hello</v> there", "<i>quiet</i> &amp; calm", "plain words", "a\nsecond line", "<c.yellow>lit</c>"][random.next(5)]
            text += (random.next(3) == 0 ? "cue-\(index)\n" : "") + timing + "\n" + body + "\n\n"
            switch random.next(200) {
            case 0: text += "NOTE between cues\nsecond line\n\n"
            case 1: text += "STYLE\n::cue { color: red }\n\n"
            case 2: text += "   \n\n"
            default: break
            }
            time = end
        }
        return Array((crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text).utf8)
    }

    @Test(arguments: [(2, false), (3, true), (7, false)])
    func chunkedWebVTTEqualsOnePass(pieces: Int, crlf: Bool) throws {
        let bytes = Self.webVTT(cues: 20_000, seed: UInt64(pieces), crlf: crlf)
        try bytes.withUnsafeBufferPointer { buffer in
            let whole = try WebVTTReader().document(parsing: buffer, diagnostics: [], pieces: 1)
            let chunked = try WebVTTReader().document(parsing: buffer, diagnostics: [], pieces: pieces)
            #expect(WebVTTChunking.chunks(of: buffer, from: 0, firstLine: 1, pieces: pieces).count == pieces)
            #expect(chunked.cues.count == whole.cues.count && whole.cues.count > 19_000)
            let firstDifference = zip(chunked.cues, whole.cues).enumerated().first { $1.0 != $1.1 }?.offset
            #expect(firstDifference == nil, "cue \(firstDifference ?? 0) differs")
            #expect(chunked.comments == whole.comments && whole.comments.count > 50)
            #expect(chunked.diagnostics == whole.diagnostics && whole.diagnostics.count > 100)
            #expect(chunked.regions == whole.regions && chunked.styleSheets == whole.styleSheets)
        }
    }

    @Test(arguments: [0, 1, 39_999, 40_000, 100_003])
    func parallelSerialisationKeepsItemOrder(count: Int) {
        var output: [UInt8] = []
        var pieces = 0
        ParallelSerialization.write(count: count, state: { 0 }, emit: { output += $0; pieces += 1 }) { index, out, itemsInPiece in
            if index < 200 { usleep(50) }  // the first piece finishes last: later ones must wait for it
            itemsInPiece += 1
            out.write("\(index):\(itemsInPiece)\n")
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == count)
        let outOfOrder = lines.enumerated().first { Int($1.prefix { $0 != ":" }) != $0 }?.offset
        #expect(outOfOrder == nil, "line \(outOfOrder ?? 0) is out of order")
        #expect(count == 0 || pieces > 0)
    }

    /// The reducer works on pieces of the cue list at once; an open-ended cue at the end of a piece
    /// still ends where the first cue of the next piece starts.
    @Test func openEndsCloseAcrossPieces() {
        let count = 70_001
        var document = TimedTextDocument(cues: (0..<count).map {
            Cue(start: MediaTime(milliseconds: Int64($0) * 700), end: nil, content: [.text("cue \($0)")])
        })
        let diagnostics = CapabilityReducer(capabilities: SRTWriter().capabilities, formatName: "SRT").reduce(&document)
        let wrong = (0..<count - 1).first { document.cues[$0].end != document.cues[$0 + 1].start }
        #expect(wrong == nil, "cue \(wrong ?? 0)")
        #expect(document.cues[count - 1].end == document.cues[count - 1].start + MediaTime(seconds: 5))
        #expect(diagnostics.map(\.code.rawValue) == ["convert.lost.openEnds"])
        #expect(diagnostics.first?.message.contains("\(count)") == true)
    }

    /// SRT → WebVTT → model on a file large enough for every parallel path gives the SRT's cues.
    @Test func largeConversionRoundTrips() throws {
        let source = try SRTReader().read(Self.srt(cues: 60_000, seed: 7))
        var document = source
        _ = CapabilityReducer(capabilities: WebVTTWriter().capabilities, formatName: "WebVTT").reduce(&document)
        var bytes: [UInt8] = []
        WebVTTWriter().write(document) { bytes += $0 }
        let back = try WebVTTReader().read(bytes)
        #expect(back.cues.count == source.cues.count)
        #expect(back.cues.map(\.start) == source.cues.map(\.start))
        #expect(back.cues.map(\.end) == source.cues.map(\.end))
        #expect(back.cues.map(\.plainText) == source.cues.map(\.plainText))
        #expect(back.cues.map(\.settings) == source.cues.map(\.settings))
    }
}

import CaptionsCore
import Testing

@testable import CaptionsFormats

/// SCC and EBU STL write times as SMPTE timecode: frames, within a day. What does not fit is
/// reported, and what is written reads back as written (an SCC with a three-digit hour was refused
/// by our own reader; an STL cue shorter than a frame came back lasting no time).
@Suite struct FrameTimecodeFitTests {
    static func document() -> TimedTextDocument {
        func cue(_ start: Int64, _ end: Int64, _ text: String) -> Cue {
            Cue(start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end), content: [.text(text)])
        }
        return TimedTextDocument(cues: [
            cue(1000, 3000, "first"), cue(10_594, 10_600, "brief"), cue(86_000_000, 360_000_000, "into the next day"),
            cue(90_000_000, 90_002_000, "tomorrow"),
        ])
    }

    @Test(arguments: ["scc", "stl"])
    func timesBeyondADayAndShorterThanAFrameAreFittedAndReported(format: String) throws {
        let writer: any TimedTextWriter = format == "scc" ? SCCWriter() : STLWriter()
        var fitted = Self.document()
        let codes = writer.fit(&fitted).map(\.code.rawValue)
        #expect(codes.contains("\(format).time.tooShort"), "\(codes)")
        #expect(codes.contains("\(format).time.outOfRange"), "\(codes)")
        #expect(fitted.cues.map(\.plainText) == ["first", "brief", "into the next day"])
        let reader: any TimedTextReader = format == "scc" ? SCCReader() : STLReader()
        let reread = try reader.read(writer.write(Self.document()))
        #expect(!reread.diagnostics.contains { $0.severity == .error || $0.code.rawValue.hasSuffix("malformed") }, "\(reread.diagnostics)")
        #expect(reread.cues.map(\.plainText) == ["first", "brief", "into the next day"])
        for cue in reread.cues {
            let end = try #require(cue.end)
            #expect(end > cue.start, "\(cue.plainText) lasts")
            #expect(end.seconds < 86_400, "\(cue.plainText) ends within the day")
        }
    }

    /// A cue shorter than a frame lasts one, and a cue that started in that frame after it (they
    /// did not overlap) starts when it ends: the lengthening makes no overlap. Cues that did
    /// overlap keep their frames.
    @Test func aLengthenedCueDoesNotOverlapTheNext() {
        func cue(_ start: Int64, _ end: Int64, _ text: String) -> Cue {
            Cue(start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end), content: [.text(text)])
        }
        let timecode = SMPTETimecode(frameRate: 25)
        var document = TimedTextDocument(cues: [cue(1000, 1005, "A"), cue(1010, 2000, "B"), cue(3000, 3005, "C"), cue(3002, 4000, "D")])
        let fit = timecode.fitToFrames(&document, withinADay: false)
        let frames = document.cues.map { (timecode.frame(nearest: $0.start), timecode.frame(nearest: $0.end!)) }
        #expect(frames.map(\.0) == [25, 26, 75, 75] && frames.map(\.1) == [26, 50, 76, 100], "\(frames)")
        #expect(fit.lengthened == 2 && fit.delayed == 1)
        let message = timecode.diagnostics(for: fit, codePrefix: "itt", formatName: "iTT", noteMoves: false).first?.message
        #expect(message?.contains("(1 cue after them starting when they end, a frame later)") == true, "\(message ?? "")")
    }
}

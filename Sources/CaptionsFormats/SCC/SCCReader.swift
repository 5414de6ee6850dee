import CaptionsCore

/// Reads Scenarist SCC: a `Scenarist_SCC V1.0` header, then lines of a SMPTE timecode and the
/// CEA-608 byte pairs sent from that frame on, one pair a frame, as four hex digits each.
///
/// The pairs go through ``CEA608Decoder``, which shows cues as a television would. Timecodes
/// are 29.97 frames per second unless `frameRate` says otherwise (25, 30); `;` before the frames
/// marks drop-frame. Words that are not four hex digits and lines without a timecode are reported
/// with their place and skipped; a file without any caption is an error.
public struct SCCReader: TimedTextReader {
    /// Frames per second; nil: 29.97.
    public var frameRate: Double?
    /// The caption channel read, 1–4 (CC1–CC4).
    public var channel: Int

    /// A reader of channel `channel` (CC1 by default).
    public init(frameRate: Double? = nil, channel: Int = 1) {
        self.frameRate = frameRate
        self.channel = channel
    }

    /// Whether content starts as an SCC file does: its header, or (where the header is missing)
    /// a timecode and a four-hex-digit word.
    static func recognises(_ text: ArraySlice<UInt8>) -> Bool {
        let line = text.firstLine
        if line.hasPrefix("Scenarist_SCC") { return true }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return fields.count >= 2 && SMPTETimecode(frameRate: nil).frame(parsing: fields[0]) != nil
            && fields[1].utf8.count == 4 && UInt16(fields[1], radix: 16) != nil
    }

    /// Parses an SCC file; throws `scc.captions.none` when no caption is shown on channel `channel`.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "scc")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "scc")
        let timecode = SMPTETimecode(frameRate: frameRate)
        var decoder = CEA608Decoder(channel: channel)
        var tally = DiagnosticTally()
        var lastFrame: Int64?
        var sawHeader = false
        for (index, line) in text.lines.enumerated() {
            let trimmed = line.trimmedSpaces
            guard !trimmed.isEmpty else { continue }
            if !sawHeader, trimmed.hasPrefix("Scenarist_SCC") {
                sawHeader = true
                continue
            }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let (start, inRange) = timecode.frame(parsing: fields[0]) else {
                tally.add(.warning, "scc.line.malformed", "a line that does not start with a timecode (HH:MM:SS:FF) skipped", at: TextLines.location(index))
                continue
            }
            if !inRange {
                tally.add(.warning, "scc.timecode.range", "a timecode field past its range (frames past the frame rate) counted on", at: TextLines.location(index))
            }
            if let lastFrame, start < lastFrame {
                tally.add(.warning, "scc.time.backwards", "a line timed before the codes of the line above end; read at its own time", at: TextLines.location(index))
            }
            var frame = start
            for word in fields.dropFirst() {
                let column = line.distance(from: line.startIndex, to: word.startIndex) + 1
                let location = TextLines.location(index, column: column)
                guard word.utf8.count == 4, let value = UInt16(word, radix: 16) else {
                    tally.add(.warning, "scc.word.malformed", "'\(word.prefix(12))' is not four hex digits; skipped", at: location)
                    continue
                }
                decoder.decode(UInt8(value >> 8), UInt8(value & 0xFF), at: timecode.time(frame: frame), location: location)
                frame += 1
            }
            lastFrame = frame
        }
        document.cues = decoder.finish(at: nil)
        document.diagnostics += tally.diagnostics + decoder.tally.diagnostics
        guard !document.cues.isEmpty else {
            guard sawHeader else {
                throw CaptionsError("scc.captions.none", "no caption found: an SCC file starts with 'Scenarist_SCC V1.0'", at: .start)
            }
            // An SCC file may carry no caption (a programme without speech); say so, do not fail.
            document.diagnostics.append(Diagnostic(
                .warning, "scc.captions.none",
                "no caption is shown on channel CC\(channel)\(channel == 1 ? " (other channels: --channel 2, 3 or 4)" : "")", at: .start))
            return document
        }
        document.cues.sort { $0.start < $1.start }
        return document
    }
}

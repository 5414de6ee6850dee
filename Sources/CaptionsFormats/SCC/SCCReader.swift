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

    /// Parses an SCC file; throws `scc.captions.none` when it has neither a header nor a caption.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        // SCC is ASCII: lines and words are read as bytes (after a byte order mark or UTF-16 is undone).
        let (bytes, decoding) = TextDecoding.decode(input, invalidUTF8: .detect, codePrefix: "scc")
        var document = TimedTextDocument(diagnostics: decoding, sourceFormat: "scc")
        let timecode = SMPTETimecode(frameRate: frameRate)
        var decoder = CEA608Decoder(channel: channel, clock: timecode.time(frame:))
        var tally = DiagnosticTally()
        var lastFrame: Int64?
        var sawHeader = false
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            defer {
                // CRLF is one line end.
                lineStart = lineEnd + (lineEnd + 1 < bytes.count && bytes[lineEnd] == 0x0D && bytes[lineEnd + 1] == 0x0A ? 2 : 1)
                lineNumber += 1
            }
            let words = Self.words(bytes[lineStart..<lineEnd])
            guard let first = words.first else { continue }
            if !sawHeader, bytes[first].starts(with: "Scenarist_SCC".utf8) {
                sawHeader = true
                continue
            }
            guard let (start, inRange) = timecode.frame(parsing: Substring(decoding: bytes[first], as: UTF8.self)) else {
                tally.add(.warning, "scc.line.malformed", "a line that does not start with a timecode (HH:MM:SS:FF) skipped", at: TextLines.location(lineNumber))
                continue
            }
            if !inRange {
                tally.add(.warning, "scc.timecode.range", "a timecode field past its range (frames past the frame rate) counted on", at: TextLines.location(lineNumber))
            }
            if let lastFrame, start < lastFrame {
                tally.add(.warning, "scc.time.backwards", "a line timed before the codes of the line above end; read at its own time", at: TextLines.location(lineNumber))
            }
            var frame = start
            for word in words.dropFirst() {
                let location = TextLines.location(lineNumber, column: word.lowerBound - lineStart + 1)
                guard let value = Self.hexWord(bytes[word]) else {
                    let text = String(decoding: bytes[word].prefix(12), as: UTF8.self)
                    tally.add(.warning, "scc.word.malformed", "'\(text)' is not four hex digits; skipped", at: location)
                    continue
                }
                decoder.decode(UInt8(value >> 8), UInt8(value & 0xFF), at: frame, location: location)
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
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// The ranges of the words of a line (separated by spaces and tabs).
    private static func words(_ line: ArraySlice<UInt8>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = line.startIndex
        while index < line.endIndex {
            while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            let start = index
            while index < line.endIndex, line[index] != 0x20, line[index] != 0x09 { index += 1 }
            if index > start { words.append(start..<index) }
        }
        return words
    }

    /// Four hex digits as a byte pair.
    private static func hexWord(_ word: ArraySlice<UInt8>) -> UInt16? {
        guard word.count == 4 else { return nil }
        var value: UInt16 = 0
        for byte in word {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x37
            case 0x61...0x66: digit = byte - 0x57
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}

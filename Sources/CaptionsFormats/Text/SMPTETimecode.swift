import CaptionsCore

/// SMPTE timecode (`HH:MM:SS:FF`, drop-frame `HH:MM:SS;FF`) as frame counts and media times,
/// for the frame-timed formats (SCC, EBU STL).
///
/// At 29.97 (and 59.94) frames per second, non-drop-frame timecode counts 30 labels a second
/// while 29.97 frames pass, so a label is a frame count, not a clock time; drop-frame timecode
/// skips labels 00 and 01 at each minute not divisible by ten to stay near the clock.
struct SMPTETimecode: Equatable {
    /// Frames counted per second of labels: 30 for 29.97, 25, 24…
    let framesPerSecondLabel: Int
    /// The real rate, as an exact ratio.
    let numerator: Int64, denominator: Int64

    /// The timecode of a frame rate (29.97 when nil): whole-numbered labels, exact real rate.
    init(frameRate: Double?) {
        let rate = frameRate ?? 30000.0 / 1001
        for (nominal, numerator) in [(24, Int64(24000)), (30, 30000), (60, 60000)] where abs(rate - Double(numerator) / 1001) < 0.001 {
            self.framesPerSecondLabel = nominal
            self.numerator = numerator
            self.denominator = 1001
            return
        }
        framesPerSecondLabel = max(Int(rate.rounded()), 1)
        numerator = Int64(framesPerSecondLabel)
        denominator = 1
    }

    /// Whether drop-frame counting applies to this rate (29.97 and 59.94).
    var canDropFrames: Bool { denominator == 1001 && framesPerSecondLabel % 30 == 0 }

    /// The frame count of `HH:MM:SS:FF` (or `;`, `.` or `,` before the frames for drop-frame), and
    /// whether every field is in its range (one that is not is counted on, as peers read it);
    /// nil when it is not a timecode.
    func frame(parsing text: Substring) -> (frame: Int64, inRange: Bool)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 11, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":") || bytes[5] == UInt8(ascii: ";")
        else { return nil }
        let separator = bytes[8]
        guard [":", ";", ".", ","].map({ UInt8(ascii: $0) }).contains(separator) else { return nil }
        var fields: [Int64] = []
        for start in stride(from: 0, to: 11, by: 3) {
            let (high, low) = (bytes[start], bytes[start + 1])
            guard (0x30...0x39).contains(high), (0x30...0x39).contains(low) else { return nil }
            fields.append(Int64(high - 0x30) * 10 + Int64(low - 0x30))
        }
        let inRange = fields[1] < 60 && fields[2] < 60 && fields[3] < framesPerSecondLabel
        let dropFrame = separator != UInt8(ascii: ":") && canDropFrames
        return (frame(hours: fields[0], minutes: fields[1], seconds: fields[2], frames: fields[3], dropFrame: dropFrame), inRange)
    }

    /// The frame count of a timecode's fields.
    func frame(hours: Int64, minutes: Int64, seconds: Int64, frames: Int64, dropFrame: Bool) -> Int64 {
        let label = ((hours * 60 + minutes) * 60 + seconds) * Int64(framesPerSecondLabel) + frames
        guard dropFrame else { return label }
        let dropped = Int64(framesPerSecondLabel / 15)  // 2 at 29.97, 4 at 59.94
        let totalMinutes = hours * 60 + minutes
        return label - dropped * (totalMinutes - totalMinutes / 10)
    }

    /// The media time of a frame count.
    func time(frame: Int64) -> MediaTime {
        MediaTime(value: frame * denominator, timescale: numerator) ?? .zero
    }

    /// The frame count nearest to `time`.
    func frame(nearest time: MediaTime) -> Int64 {
        Int64((time.seconds * Double(numerator) / Double(denominator)).rounded())
    }

    /// Hours, minutes, seconds and frames of the label of a frame count.
    func fields(frame: Int64, dropFrame: Bool) -> (hours: Int64, minutes: Int64, seconds: Int64, frames: Int64) {
        let count = labelCount(frame: frame, dropFrame: dropFrame), rate = Int64(framesPerSecondLabel)
        return (count / rate / 3600, count / rate / 60 % 60, count / rate % 60, count % rate)
    }

    /// The label, counted in frames: the frame count with the labels drop-frame skips added back.
    private func labelCount(frame: Int64, dropFrame: Bool) -> Int64 {
        var count = max(frame, 0)
        if dropFrame && canDropFrames {
            let dropped = Int64(framesPerSecondLabel / 15)
            let perMinute = Int64(framesPerSecondLabel) * 60 - dropped
            let perTenMinutes = perMinute * 10 + dropped
            let tens = count / perTenMinutes, rest = count % perTenMinutes
            count += 9 * dropped * tens + (rest > dropped ? dropped * ((rest - dropped) / perMinute) : 0)
        }
        return count
    }

    /// The timecode label of a frame count: `HH:MM:SS:FF`, or `HH:MM:SS;FF` for drop-frame.
    func label(frame: Int64, dropFrame: Bool) -> String {
        let (hours, minutes, seconds, frames) = fields(frame: frame, dropFrame: dropFrame)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))\(dropFrame && canDropFrames ? ";" : ":")\(two(frames))"
    }
}

extension SMPTETimecode {
    /// What moving a document's times to frames changed.
    struct FrameFit {
        /// Cues whose times moved to the nearest frame.
        var moved = 0
        /// Cues shorter than a frame, lengthened to one.
        var lengthened = 0
        /// Cues that started in the frame a lengthened cue now takes, started after it instead
        /// (they did not overlap before, and do not now).
        var delayed = 0
        /// Cues that start after the last timecode of the day, dropped.
        var dropped = 0
        /// Cues that run past it, cut there.
        var cut = 0
        var firstMoved: SourceLocation?, firstShort: SourceLocation?, firstOutside: SourceLocation?
    }

    /// The time of the last frame of a day of timecode (23:59:59 and its last frame).
    var lastTimeOfDay: MediaTime {
        time(frame: frame(hours: 23, minutes: 59, seconds: 59, frames: Int64(framesPerSecondLabel - 1), dropFrame: canDropFrames))
    }

    /// Moves every cue's times to the nearest frame. A cue shorter than a frame would start and end
    /// on the same frame and vanish: it lasts one frame instead, and a cue after it that started in
    /// that frame (without overlapping it) starts when it ends. With `withinADay`, times stay
    /// inside the labels a day of timecode has (to 23:59:59 and its last frame; SCC and EBU STL
    /// cannot write later ones): later cues are dropped, and cues running past the end cut there.
    func fitToFrames(_ document: inout TimedTextDocument, withinADay: Bool) -> FrameFit {
        var fit = FrameFit()
        let lastFrame = frame(hours: 23, minutes: 59, seconds: 59, frames: Int64(framesPerSecondLabel - 1), dropFrame: canDropFrames)
        var kept: [Cue] = []
        kept.reserveCapacity(document.cues.count)
        // The frame a lengthened cue now ends on, and where it ended before.
        var lengthenedEnd: (frame: Int64, original: MediaTime)?
        for var cue in document.cues {
            var startFrame = frame(nearest: cue.start)
            if let last = lengthenedEnd, startFrame < last.frame, cue.start >= last.original {
                startFrame = last.frame
                fit.delayed += 1
            }
            lengthenedEnd = nil
            var endFrame = cue.end.map { frame(nearest: $0) }
            if withinADay, startFrame >= lastFrame {
                fit.dropped += 1
                if fit.firstOutside == nil { fit.firstOutside = cue.location }
                continue
            }
            if withinADay, let end = endFrame, end > lastFrame {
                endFrame = lastFrame
                fit.cut += 1
                if fit.firstOutside == nil { fit.firstOutside = cue.location }
            }
            if let end = endFrame, let original = cue.end, original > cue.start, end <= startFrame {
                endFrame = startFrame + 1
                fit.lengthened += 1
                if fit.firstShort == nil { fit.firstShort = cue.location }
                lengthenedEnd = (startFrame + 1, original)
            }
            let start = time(frame: startFrame), end = endFrame.map { time(frame: $0) }
            if start != cue.start || end != cue.end {
                fit.moved += 1
                if fit.firstMoved == nil { fit.firstMoved = cue.location }
                (cue.start, cue.end) = (start, end)
            }
            kept.append(cue)
        }
        document.cues = kept
        return fit
    }

    /// The frame rate in words: "25 frames a second", "30/1.001 frames a second".
    var rateDescription: String { "\(framesPerSecondLabel)\(denominator == 1001 ? "/1.001" : "") frames a second" }

    /// The warnings a fit deserves (`PREFIX.time.tooShort`, `PREFIX.time.outOfRange`), and with
    /// `noteMoves` a note of the cues moved to frames (`PREFIX.time.frames`).
    func diagnostics(for fit: FrameFit, codePrefix: String, formatName: String, noteMoves: Bool) -> [Diagnostic] {
        func cues(_ count: Int) -> String { "\(count) cue\(count == 1 ? "" : "s")" }
        var diagnostics: [Diagnostic] = []
        if noteMoves, fit.moved > 0 {
            diagnostics.append(Diagnostic(
                .note, Diagnostic.Code(rawValue: "\(codePrefix).time.frames"),
                "\(cues(fit.moved)) moved to the nearest frame at \(rateDescription) (\(formatName) times are frames)", at: fit.firstMoved))
        }
        if fit.lengthened > 0 {
            diagnostics.append(Diagnostic(
                .warning, Diagnostic.Code(rawValue: "\(codePrefix).time.tooShort"),
                "\(cues(fit.lengthened)) shorter than a frame at \(rateDescription) lengthened to one frame"
                    + (fit.delayed > 0 ? " (\(cues(fit.delayed)) after them starting when they end, a frame later)" : ""),
                at: fit.firstShort))
        }
        if fit.dropped + fit.cut > 0 {
            diagnostics.append(Diagnostic(
                .warning, Diagnostic.Code(rawValue: "\(codePrefix).time.outOfRange"),
                "\(formatName) timecodes end at 23:59:59: \(cues(fit.dropped)) starting later dropped, \(cues(fit.cut)) cut there",
                at: fit.firstOutside))
        }
        return diagnostics
    }
}

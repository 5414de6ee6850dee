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

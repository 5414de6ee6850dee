import CaptionsCore

/// Writes MicroDVD: a `{1}{1}fps` header, then `{start}{end}text` with times rounded to the
/// nearest frame, `|` between lines, `{y:i}`/`{y:b}`/`{y:u}` for a line that is wholly styled.
public struct MicroDVDWriter: TimedTextWriter {
    /// Frames per second of the video the file goes with.
    public var frameRate: Double

    /// Plain text (styles only for whole lines), cues of no duration.
    public let capabilities: FormatCapabilities = [.emptyCues]

    /// A writer for video at `frameRate` (23.976 when not given).
    public init(frameRate: Double? = nil) { self.frameRate = frameRate ?? MicroDVDReader.defaultFrameRate }

    /// Writes the document as MicroDVD bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        let rate = (frameRate * 1000).rounded() / 1000
        var out = "{1}{1}\(rate == rate.rounded() ? String(Int(rate)) : String(rate))\n"
        for cue in document.cues {
            let start = frame(cue.start), end = max(start, frame(cue.end ?? cue.start))
            let lines = cue.plainText.split(separator: "\n", omittingEmptySubsequences: false)
            out += "{\(start)}{\(end)}" + lines.joined(separator: "|") + "\n"
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    private func frame(_ time: MediaTime) -> Int64 { Int64((time.seconds * frameRate).rounded()) }
}

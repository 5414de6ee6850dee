import CaptionsCore

/// Progress on standard error while a file is worked on: a one-line bar (percentage, frames per
/// second, time left) on a terminal, or with `--progress json` one JSON line a second (file, channel,
/// frames or speech segments done, rate, position, ETA) and a last one with `"done": true` when the file is finished.
struct ProgressBar {
    let io: CommandIO
    let style: ProgressStyle
    let duration: Double?
    let file: String
    /// What is counted: `frames` for video, `segments` for speech.
    var unit = "frames"
    /// The channel worked on, when a recording's channels are worked on one by one.
    var channel: Int?
    private var frames = 0
    private var started = Clock.now()
    private var lastDrawn = 0.0
    private var position = 0.0

    /// `style` nil: a bar when standard error is a terminal, else nothing.
    init(io: CommandIO, style: ProgressStyle?, duration: Double?, file: String, unit: String = "frames", channel: Int? = nil) {
        self.io = io
        self.unit = unit
        self.channel = channel
        self.style = style ?? (io.standardErrorIsTerminal ? .bar : .none)
        self.duration = duration
        self.file = file
        lastDrawn = started
    }

    mutating func update(time: Double) {
        frames += 1
        position = time
        guard style != .none else { return }
        let now = Clock.now()
        guard now - lastDrawn >= (style == .json ? 1 : 0.2) else { return }
        lastDrawn = now
        let elapsed = now - started
        let fps = Double(frames) / max(elapsed, 0.001)
        let fraction = duration.flatMap { $0 > 0 ? min(1, max(0, time / $0)) : nil }
        let remaining = fraction.flatMap { $0 > 0 ? elapsed * (1 - $0) / $0 : nil }
        if style == .json {
            writeJSON(fps: fps, eta: remaining, done: false)
            return
        }
        var line = "\rscanning: \(frames) frames, \(Int(fps)) fps"
        if let fraction {
            let filled = Int(fraction * 30)
            let left = Int(remaining ?? 0)
            line = "\r[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 30 - filled))] "
                + "\(Int(fraction * 100))% \(Int(fps)) fps, ETA \(left / 60):\(String(format2: left % 60))"
        }
        io.writeStandardError(line + "  ")
    }

    /// One JSON line: the file, the frames done, the rate, the position, the ETA, whether done.
    private func writeJSON(fps: Double, eta: Double?, done: Bool) {
        var json = JSONWriter(compact: true)
        json.beginObject()
        json.key("file"); json.string(file)
        if let channel { json.key("channel"); json.integer(channel) }
        json.key(unit); json.integer(frames)
        json.key("rate"); json.number((fps * 10).rounded() / 10)
        json.key("position"); json.number((position * 1000).rounded() / 1000)
        json.key("duration"); json.number(duration)
        json.key("eta"); json.number(eta.map { $0.rounded() })
        json.key("done"); json.bool(done)
        json.endObject()
        io.writeStandardError(json.output + "\n")
    }

    /// Clears the bar, or writes the last JSON line (`"done": true`, ETA 0) however short the work.
    func finish() {
        if style == .json {
            writeJSON(fps: Double(frames) / max(Clock.now() - started, 0.001), eta: 0, done: true)
        }
        guard style == .bar, lastDrawn > started else { return }
        io.writeStandardError("\r" + String(repeating: " ", count: 72) + "\r")
    }
}

extension String {
    /// Two digits, zero-padded.
    fileprivate init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}

import CaptionsCore
import Dispatch
import Synchronization

/// A batch's progress on standard error, redrawn every second from its own thread: a bar on a
/// terminal, or with `--progress json` one line a second (`{"done":3,"total":12,"rate":1.5,
/// "eta":6,"files":["b.mp4"]}`) for wrappers and dashboards, and a last one when the batch ends.
final class ProgressTicker: @unchecked Sendable {
    private let style: ProgressStyle
    private let io: CommandIO
    private let total: Int
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Clock.now()
    private var running = false

    init(style: ProgressStyle?, io: CommandIO, total: Int) {
        self.style = style ?? (io.standardErrorIsTerminal ? .bar : .none)
        self.io = io
        self.total = total
    }

    /// Starts drawing. `locked` calls its argument with the files done and the ones being worked
    /// on while holding the lock the batch prints under, so that a line is never drawn in the
    /// middle of a file's messages.
    func start(_ locked: @escaping @Sendable (_ draw: (Int, [String]) -> Void) -> Void) {
        guard style != .none else { return }
        running = true
        DispatchQueue(label: "captions.progress").async { [self] in
            while stopped.wait(timeout: .now() + .seconds(1)) == .timedOut {
                locked { done, files in draw(done: done, files: files) }
            }
            finished.signal()
        }
    }

    /// Stops drawing: clears the bar, or writes the last JSON line with the `done` files.
    func stop(done: Int) {
        guard running else { return }
        stopped.signal()
        finished.wait()
        if style == .bar { io.writeStandardError("\r" + String(repeating: " ", count: 72) + "\r") }
        if style == .json { draw(done: done, files: []) }
    }

    private func draw(done: Int, files: [String]) {
        let elapsed = Clock.now() - started
        let rate = Double(done) / max(elapsed, 0.001)
        let eta = done > 0 ? Double(total - done) / rate : nil
        switch style {
        case .json:
            var json = JSONWriter(compact: true)
            json.beginObject()
            json.key("done"); json.integer(done)
            json.key("total"); json.integer(total)
            json.key("rate"); json.number((rate * 100).rounded() / 100)
            json.key("eta"); json.number(eta.map { $0.rounded() })
            json.key("elapsed"); json.number(elapsed.rounded())
            json.key("files"); json.strings(files)
            json.endObject()
            io.writeStandardError(json.output + "\n")
        case .bar:
            let filled = total > 0 ? done * 30 / total : 0
            let left = eta.map { " ETA \(Int($0) / 60):\(Int($0) % 60 < 10 ? "0" : "")\(Int($0) % 60)" } ?? ""
            io.writeStandardError(
                "\r[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 30 - filled))] \(done)/\(total) files\(left)  ")
        case .none:
            break
        }
    }
}

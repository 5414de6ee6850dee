import CCaptionsFFmpeg
import Dispatch
import Synchronization

/// Decoded frames handed from the decoding thread to the thread that looks at them, through a
/// ring of a few reused `AVFrame`s: decoding never waits for the analysis of the frame before,
/// so the analysis runs in the time the decoder's own threads leave the cores idle.
///
/// One producer (``push(_:)``, ``finish()``) and one consumer (``next()``, ``release(_:)``); the
/// two semaphores order every slot's hand-over, so the slots need no lock of their own.
final class FrameRing: @unchecked Sendable {
    private let slots: [UnsafeMutablePointer<AVFrame>]
    /// Whether the slot marks the end of the frames rather than holding one.
    private let isEnd: UnsafeMutableBufferPointer<Bool>
    private let free: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private var produced = 0
    private var consumed = 0
    private let stopped = Atomic(false)

    /// A ring of `depth` frames; nil when FFmpeg cannot allocate them.
    init?(depth: Int) {
        var slots: [UnsafeMutablePointer<AVFrame>] = []
        for _ in 0..<depth {
            guard let slot = ccaptions_av_frame_alloc() else {
                for var allocated in slots as [UnsafeMutablePointer<AVFrame>?] { ccaptions_av_frame_free(&allocated) }
                return nil
            }
            ccaptions_av_frame_unref(slot)  // resolves the forwarder on this thread before two threads use it
            slots.append(slot)
        }
        self.slots = slots
        isEnd = .allocate(capacity: depth)
        isEnd.initialize(repeating: false)
        free = DispatchSemaphore(value: depth)
    }

    deinit {
        for var slot in slots as [UnsafeMutablePointer<AVFrame>?] { ccaptions_av_frame_free(&slot) }
        isEnd.deallocate()
    }

    /// Whether the consumer has asked for no more frames.
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Producer: moves `frame`'s contents into the next slot, waiting while every slot is in use.
    func push(_ frame: UnsafeMutablePointer<AVFrame>) {
        let slot = claimSlot()
        ccaptions_av_frame_move_ref(slots[slot], frame)
        isEnd[slot] = false
        ready.signal()
    }

    /// Producer: marks the end of the frames; call once, last.
    func finish() {
        isEnd[claimSlot()] = true
        ready.signal()
    }

    /// Consumer: the next frame, waiting for it; nil at the end. Hand it back with ``release(_:)``.
    func next() -> UnsafeMutablePointer<AVFrame>? {
        ready.wait()
        let slot = consumed % slots.count
        consumed += 1
        guard !isEnd[slot] else {
            free.signal()  // every slot back: libdispatch traps on a semaphore freed below its start value
            return nil
        }
        return slots[slot]
    }

    /// Consumer: gives a frame from ``next()`` back to the producer.
    func release(_ frame: UnsafeMutablePointer<AVFrame>) {
        ccaptions_av_frame_unref(frame)
        free.signal()
    }

    /// Consumer: asks the producer to stop; keep calling ``next()`` until it returns nil.
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func claimSlot() -> Int {
        free.wait()
        defer { produced += 1 }
        return produced % slots.count
    }
}

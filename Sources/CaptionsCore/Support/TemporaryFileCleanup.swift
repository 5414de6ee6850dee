import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary files to remove when a signal ends the process while they exist (SIGINT, SIGTERM,
/// SIGHUP, SIGPIPE for a reader of our output that went away, as `2>&1 | head` does, and SIGXFSZ
/// for a file size limit reached mid-write).
///
/// While at least one file is registered, a handler is installed for each of those signals whose
/// disposition is the default one (an ignored or otherwise handled signal is left alone). The
/// handler only does what is async-signal-safe: it reads paths from fixed buffers allocated once,
/// `unlink`s them, restores the default action and raises the signal again, so the process still
/// ends as the signal says. `kill -9` cannot be handled; ``FileAccess`` removes what it leaves
/// on a later run instead. Any temporary file may be registered: the commands' outputs being
/// written, the speech helper's samples and log.
public enum TemporaryFileCleanup {
    /// How many files can be registered at once (one per concurrent write); beyond that,
    /// ``register(_:)`` returns nil and the file is only cleaned up by a later run.
    public static let capacity = 16

    /// The signals handled while a file is registered.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ]

    private static let slotSize = Int(PATH_MAX) + 1

    /// `capacity` NUL-terminated paths, `slotSize` bytes apart; never freed, so the handler only
    /// ever reads valid memory.
    private nonisolated(unsafe) static let paths: UnsafeMutablePointer<CChar> = {
        let paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotSize)
        paths.initialize(repeating: 0, count: capacity * slotSize)
        return paths
    }()

    /// Bit `i` is set while slot `i` holds a complete path the handler may remove.
    private static let published = Atomic<UInt32>(0)

    private struct State {
        var used: UInt32 = 0
        var installed: [Int32] = []
    }

    private static let state = Mutex(State())

    /// Registers `path` for removal if a handled signal ends the process; returns the slot to pass
    /// to ``unregister(_:)`` once the file is renamed or removed, or nil when the path is too long
    /// or every slot is taken.
    public static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotSize, !bytes.contains(0) else { return nil }
        let paths = self.paths
        return state.withLock { state -> Int? in
            guard let slot = (0..<capacity).first(where: { state.used & (1 << UInt32($0)) == 0 }) else { return nil }
            let base = paths + slot * slotSize
            for (offset, byte) in bytes.enumerated() { base[offset] = CChar(bitPattern: byte) }
            base[bytes.count] = 0
            state.used |= 1 << UInt32(slot)
            published.bitwiseOr(1 << UInt32(slot), ordering: .releasing)
            if state.installed.isEmpty { installHandlers(&state) }
            return slot
        }
    }

    /// Forgets the file in `slot`; the handlers are removed with the last one.
    public static func unregister(_ slot: Int) {
        guard (0..<capacity).contains(slot) else { return }
        state.withLock { state in
            published.bitwiseAnd(~(1 << UInt32(slot)), ordering: .releasing)
            state.used &= ~(1 << UInt32(slot))
            if state.used == 0 { restoreHandlers(&state) }
        }
    }

    /// Whether `path` is registered now (being written by this process).
    public static func isRegistered(_ path: String) -> Bool {
        let paths = self.paths
        return state.withLock { state in
            (0..<capacity).contains { slot in
                state.used & (1 << UInt32(slot)) != 0 && String(cString: paths + slot * slotSize) == path
            }
        }
    }

    /// Unlinks every registered file: what the signal handler does before ending the process.
    /// Async-signal-safe (no locks, no allocation).
    public static func removeRegisteredFiles() {
        removeRegisteredFiles(mask: published.load(ordering: .acquiring))
    }

    /// ``removeRegisteredFiles()`` limited to `slots`: for tests, which run beside other tests
    /// whose files are registered too.
    public static func removeRegisteredFiles(inSlots slots: [Int]) {
        let wanted = slots.reduce(UInt32(0)) { $0 | ((0..<capacity).contains($1) ? 1 << UInt32($1) : 0) }
        removeRegisteredFiles(mask: published.load(ordering: .acquiring) & wanted)
    }

    private static func removeRegisteredFiles(mask: UInt32) {
        for slot in 0..<capacity where mask & (1 << UInt32(slot)) != 0 {
            unlink(paths + slot * slotSize)
        }
    }

    private static func installHandlers(_ state: inout State) {
        for number in signals where isDefault(number) {
            _ = signal(number, cleanUpAndReraise)
            state.installed.append(number)
        }
    }

    private static func restoreHandlers(_ state: inout State) {
        for number in state.installed { _ = signal(number, SIG_DFL) }
        state.installed = []
    }

    /// Whether `number` has its default disposition (not ignored, not handled by someone else).
    private static func isDefault(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        return current.sa_flags & SA_SIGINFO == 0 && handler == nil
    }
}

/// The handler: removes the registered files, then lets the signal end the process as it would
/// have without us.
private let cleanUpAndReraise: @convention(c) (Int32) -> Void = { number in
    TemporaryFileCleanup.removeRegisteredFiles()
    _ = signal(number, SIG_DFL)
    _ = raise(number)
}

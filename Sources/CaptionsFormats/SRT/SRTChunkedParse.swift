import CaptionsCore

/// Cues written into a stretch of storage set aside for them, so that chunks parsed at the same
/// time land in one array without copying.
struct CueSlots {
    private let base: UnsafeMutablePointer<Cue>?
    private let capacity: Int
    /// Cues written so far.
    private(set) var count = 0
    /// True once a cue did not fit; the parse is then redone with more room.
    private(set) var overflowed = false

    init(base: UnsafeMutablePointer<Cue>?, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ cue: consuming Cue) {
        guard let base, count < capacity else {
            overflowed = true
            return
        }
        (base + count).initialize(to: consume cue)
        count += 1
    }

    /// Changes the last cue in place.
    mutating func modifyLast(_ change: (inout Cue) -> Void) {
        guard let base, count > 0 else { return }
        change(&base[count - 1])
    }
}

/// Parses an SRT file on every core: it is cut into chunks that each start at a cue
/// (``SRTChunking``), the chunks are parsed at once into their own part of one cue array, and the
/// parts are moved together. The result, diagnostics included, is the same as one pass.
enum SRTChunkedParse {
    /// Parses `bytes` in `pieces` chunks (by default one per core, none under 1 MiB).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, pieces: Int? = nil) -> (cues: [Cue], diagnostics: [Diagnostic]) {
        let chunks = SRTChunking.chunks(of: bytes, pieces: pieces ?? ParallelWork.pieceCount(for: bytes.count, minimum: 1 << 20))
        // Room for about one cue per arrow; a file with unusual arrows (`→`) may need one per line,
        // where a line ends at LF or CR.
        if let parsed = parse(bytes, chunks, capacities: chunks.map { $0.arrowHeads + 1 }) { return parsed }
        let lineCounts = chunks.map { chunk in
            let (lineFeeds, carriageReturns) = ByteScan.counts(of: 0x0A, 0x0D, in: UnsafeBufferPointer(rebasing: bytes[chunk.range]))
            return lineFeeds + carriageReturns + 1
        }
        return parse(bytes, chunks, capacities: lineCounts) ?? ([], [])
    }

    /// The cues and diagnostics, or nil when a chunk had more cues than its capacity.
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ chunks: [SRTChunk], capacities: [Int]
    ) -> (cues: [Cue], diagnostics: [Diagnostic])? {
        var offsets = [0]
        for capacity in capacities { offsets.append(offsets[offsets.count - 1] + capacity) }
        var parsers: [SRTParser] = []
        let cues = [Cue](unsafeUninitializedCapacity: offsets[offsets.count - 1]) { storage, initialized in
            nonisolated(unsafe) let storage = storage
            parsers = ParallelWork.map(chunks.count) { index in
                var parser = SRTParser(
                    bytes: bytes, chunk: chunks[index],
                    cues: CueSlots(base: storage.baseAddress.map { $0 + offsets[index] }, capacity: capacities[index]))
                parser.parse()
                return parser
            }
            guard let base = storage.baseAddress else { return }
            if parsers.contains(where: \.cues.overflowed) {
                for (index, parser) in parsers.enumerated() { (base + offsets[index]).deinitialize(count: parser.cues.count) }
                return
            }
            for (index, parser) in parsers.enumerated() {
                (base + initialized).moveInitialize(from: base + offsets[index], count: parser.cues.count)
                initialized += parser.cues.count
            }
        }
        guard !parsers.contains(where: \.cues.overflowed) else { return nil }
        var tally = DiagnosticTally()
        var diagnostics: [Diagnostic] = []
        for (index, parser) in parsers.enumerated() {
            if index > 0, let first = parser.firstIndex, let previous = parsers[index - 1].lastIndex, first != previous + 1 {
                tally.add(
                    .warning, "srt.index.unexpected",
                    "cue index \(first) where \(previous + 1) was expected; kept in order of the file",
                    at: SourceLocation(line: chunks[index].firstLine, column: 1))
            }
            tally.merge(parser.tally)
            diagnostics += parser.diagnostics
        }
        return (cues, tally.diagnostics + diagnostics)
    }
}

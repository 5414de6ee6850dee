import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stretch of an SRT file that starts at a cue (or at the file start), and its first line number.
struct SRTChunk {
    var range: Range<Int>
    var firstLine: Int
    /// LF bytes in the chunk: each cue takes at least one line.
    var lineFeeds: Int
    /// `>` bytes in the chunk: about one per cue (the arrow), more with tags, fewer only with `→` arrows.
    var arrowHeads: Int
}

/// Cuts a large SRT file into pieces that parse independently and give the same cues as one pass.
///
/// A cut is made only where exactly one blank line is followed by an index line and a timing
/// line, so no cue, stray text or blank-line note can straddle it; files with lone CR line breaks
/// are not cut (line numbers are counted by LF).
enum SRTChunking {
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>, pieces: Int) -> [SRTChunk] {
        var starts = [0]
        guard pieces > 1, !ByteScan.hasLoneCarriageReturn(bytes) else { return chunks(of: bytes, startingAt: starts) }
        for piece in 1..<pieces {
            let target = bytes.count * piece / pieces
            if target > starts[starts.count - 1], let cut = nextCut(in: bytes, from: target) { starts.append(cut) }
        }
        return chunks(of: bytes, startingAt: starts)
    }

    /// The chunks that start at `starts`, with their line numbers and counts (counted on every core).
    private static func chunks(of bytes: UnsafeBufferPointer<UInt8>, startingAt starts: [Int]) -> [SRTChunk] {
        let ranges = zip(starts, starts.dropFirst() + [bytes.count]).map { $0..<$1 }
        let counts = ParallelWork.map(ranges.count) {
            ByteScan.counts(of: 0x0A, UInt8(ascii: ">"), in: UnsafeBufferPointer(rebasing: bytes[ranges[$0]]))
        }
        var chunks: [SRTChunk] = []
        var line = 1
        for (range, (lineFeeds, arrowHeads)) in zip(ranges, counts) {
            chunks.append(SRTChunk(range: range, firstLine: line, lineFeeds: lineFeeds, arrowHeads: arrowHeads))
            line += lineFeeds
        }
        return chunks
    }

    /// The first line start at or after `from` that is an index line after exactly one blank line,
    /// with a timing line after it.
    private static func nextCut(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var search = from
        while let lineFeed = find(0x0A, in: bytes, from: search) {
            let start = lineFeed + 1
            search = start
            guard start < bytes.count, isDigit(bytes[start]), isBlankLine(endingAt: lineFeed, in: bytes) else { continue }
            let blankStart = lineFeed - (lineFeed > 0 && bytes[lineFeed - 1] == 0x0D ? 1 : 0)
            guard blankStart > 0, !isBlankLine(endingAt: blankStart - 1, in: bytes),
                let indexEnd = find(0x0A, in: bytes, from: start),
                bytes[start..<indexEnd].allSatisfy({ isDigit($0) || $0 == 0x0D })
            else { continue }
            var timingEnd = find(0x0A, in: bytes, from: indexEnd + 1) ?? bytes.count
            if timingEnd > indexEnd + 1, bytes[timingEnd - 1] == 0x0D { timingEnd -= 1 }
            if SRTTimingParser(bytes: bytes, line: SRTParserLine(range: (indexEnd + 1)..<timingEnd, number: 0)) != nil {
                return start
            }
        }
        return nil
    }

    /// Whether the line ending at the LF at `lineFeed` is empty.
    private static func isBlankLine(endingAt lineFeed: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var before = lineFeed - 1
        if before >= 0, bytes[before] == 0x0D { before -= 1 }
        return before >= 0 && bytes[before] == 0x0A
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

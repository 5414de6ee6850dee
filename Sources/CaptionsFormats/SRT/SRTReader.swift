import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads SubRip (`.srt`) as leniently as the best players, and says what it repaired.
///
/// Accepted, each with a diagnostic: a UTF-8 byte order mark (silently), UTF-16 with a byte order
/// mark, text that is not UTF-8 (read as Windows-1252), CR / LF / CRLF line ends, missing or
/// out-of-order indices, `.` instead of `,`, one to three fraction digits, a missing hour field,
/// arrows such as `->` and `-- >`, extra blank lines, trailing spaces, position coordinates after
/// the times, cues without a blank line between them, text after a blank line (appended to the cue
/// before), and overlapping cues (kept as they are). A number alone on a line that is not
/// followed by times is text, not an index.
///
/// Line breaks are CR, LF and CRLF, each counting as one line.
///
/// - Complexity: O(n) in the input size.
public struct SRTReader: InPlaceTimedTextReader {
    /// A reader.
    public init() {}

    /// Parses an SRT file; throws `srt.cues.none` when nothing in it is a cue.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        if let empty = Self.emptyDocument(input) { return empty }
        let (bytes, diagnostics) = TextDecoding.decode(input, invalidUTF8: .detect, codePrefix: "srt")
        return try bytes.withUnsafeBufferPointer { text throws(CaptionsError) in try document(parsing: text, diagnostics: diagnostics) }
    }

    /// Parses an SRT file in place when it is clean UTF-8, else from a decoded copy.
    public func read(borrowing bytes: UnsafeBufferPointer<UInt8>) throws(CaptionsError) -> TimedTextDocument {
        guard !bytes.isEmpty, let text = TextDecoding.cleanText(bytes) else { return try read(Array(bytes)) }
        if let empty = Self.emptyDocument(text) { return empty }
        return try document(parsing: text, diagnostics: [])
    }

    /// An SRT file with no cues is empty (at most a BOM and white space): SRT has nothing else to
    /// write for a document without cues. Read as no cues, with a warning; any other text without
    /// a cue is not SRT.
    private static func emptyDocument<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> TimedTextDocument? {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard content.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return nil }
        var document = TimedTextDocument(sourceFormat: "srt")
        document.diagnostics = [Diagnostic(.warning, "srt.empty", "the file holds no cues", at: .start)]
        return document
    }

    private func document(parsing text: UnsafeBufferPointer<UInt8>, diagnostics: [Diagnostic]) throws(CaptionsError) -> TimedTextDocument {
        let (cues, parserDiagnostics) = SRTChunkedParse.parse(text)
        var document = TimedTextDocument(cues: cues, sourceFormat: "srt")
        document.diagnostics = diagnostics + parserDiagnostics
        document.diagnostics.sort { ($0.location ?? .start) < ($1.location ?? .start) }
        guard !document.cues.isEmpty else {
            throw CaptionsError("srt.cues.none", "no cues found: this does not look like an SRT file", at: .start)
        }
        return document
    }
}

/// A line's bytes (trailing spaces and tabs removed) and its 1-based number.
struct SRTParserLine {
    var range: Range<Int>
    var number: Int
    var isBlank: Bool { range.isEmpty }
}

/// One pass of the SRT parser over decoded UTF-8 bytes.
///
/// It works on a buffer pointer that is valid only during ``SRTReader/read(_:)``: slices of it
/// cost no reference counting, which matters at a few hundred thousand lines.
struct SRTParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the cues go.
    private(set) var cues: CueSlots
    private(set) var tally = DiagnosticTally()
    private(set) var diagnostics: [Diagnostic] = []
    /// The first and last cue index read, to check numbering across chunks.
    private(set) var firstIndex: Int?
    private(set) var lastIndex: Int?
    private var position: Int
    private let limit: Int
    private var lineNumber: Int
    private var expectedIndex: Int?
    private var textLines: [SRTParserLine] = []
    /// The last line looked at by ``peekLine(skipping:)`` at the read position.
    private var lookahead: ScannedLine?

    /// A line, where it ends before its trailing spaces, and where the next line starts.
    private struct ScannedLine {
        var line: SRTParserLine
        var untrimmedEnd: Int
        var next: Int
    }

    /// Whether any CR occurs; without one, lines are found with `memchr` for LF alone.
    private let hasCarriageReturns: Bool

    /// A parser for one chunk, writing into `cues`; the first chunk expects index 1, later ones
    /// take their first index as given.
    init(bytes: UnsafeBufferPointer<UInt8>, chunk: SRTChunk, cues: CueSlots) {
        self.bytes = bytes
        self.cues = cues
        position = chunk.range.lowerBound
        limit = chunk.range.upperBound
        lineNumber = chunk.firstLine
        expectedIndex = chunk.range.lowerBound == 0 ? 1 : nil
        hasCarriageReturns = bytes.baseAddress.map { memchr($0 + chunk.range.lowerBound, 0x0D, chunk.range.count) != nil } ?? false
    }

    // MARK: Lines

    private var isAtEnd: Bool { position >= limit }

    /// Where the line starting at `start` ends (before CR or LF) and where the next one starts.
    private func scanLine(at start: Int) -> (end: Int, next: Int) {
        guard let base = bytes.baseAddress, start < limit else { return (start, start) }
        if !hasCarriageReturns {
            guard let found = memchr(base + start, 0x0A, limit - start) else { return (limit, limit) }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            return (end, end + 1)
        }
        var end = start
        while end < limit, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var next = end
        if next < limit {
            if bytes[next] == 0x0D, next + 1 < limit, bytes[next + 1] == 0x0A { next += 1 }
            next += 1
        }
        return (end, next)
    }

    /// The line at `start` with trailing spaces and tabs trimmed, and where the next line starts.
    private func line(at start: Int, number: Int) -> ScannedLine {
        let (end, next) = scanLine(at: start)
        var trimmedEnd = end
        while trimmedEnd > start, bytes[trimmedEnd - 1] == 0x20 || bytes[trimmedEnd - 1] == 0x09 { trimmedEnd -= 1 }
        return ScannedLine(line: SRTParserLine(range: start..<trimmedEnd, number: number), untrimmedEnd: end, next: next)
    }

    /// Reads the next line, trimming trailing spaces and tabs (reported once per file).
    private mutating func nextLine() -> SRTParserLine {
        let scanned = lookahead?.line.range.lowerBound == position ? lookahead! : line(at: position, number: lineNumber)
        let line = scanned.line
        if scanned.untrimmedEnd != line.range.upperBound, !line.isBlank {
            tally.add(.note, "srt.whitespace.trailing", "trailing spaces removed", at: SourceLocation(line: lineNumber, column: line.range.count + 1))
        }
        position = scanned.next
        lineNumber += 1
        return line
    }

    /// The line after the next one would be read, without reading it; the next line is kept so
    /// that reading it after a look costs nothing.
    private mutating func peekLine(skipping count: Int = 0) -> SRTParserLine? {
        var start = position
        for _ in 0..<count { start = scanLine(at: start).next }
        guard start < limit else { return nil }
        let scanned = line(at: start, number: lineNumber + count)
        if count == 0 { lookahead = scanned }
        return scanned.line
    }

    private func isIndexLine(_ line: SRTParserLine) -> Bool { indexDigits(of: line) != nil }

    /// The number that up to nine digits write.
    private static func value(of digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The digits of an index line: up to nine, after a byte order mark where files were joined
    /// (a second file's BOM in the middle of the first).
    private func indexDigits(of line: SRTParserLine) -> Slice<UnsafeBufferPointer<UInt8>>? {
        var digits = bytes[line.range]
        if digits.starts(with: [0xEF, 0xBB, 0xBF]) { digits = digits.dropFirst(3) }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits
    }

    // MARK: Blocks

    mutating func parse() {
        var blankRun = 0
        while !isAtEnd, !cues.overflowed {
            let line = nextLine()
            if line.isBlank {
                blankRun += 1
                continue
            }
            if blankRun > 1, !cues.isEmpty {
                tally.add(.note, "srt.blankLines.extra", "several blank lines between cues", at: SourceLocation(line: line.number - blankRun + 1, column: 1))
            }
            blankRun = 0
            let digits = indexDigits(of: line)
            if let digits, let next = peekLine(), let timing = SRTTimingParser(bytes: bytes, line: next) {
                _ = nextLine()
                if digits.startIndex != line.range.lowerBound {
                    tally.add(.warning, "srt.bom.inside", "a byte order mark inside the file (files joined?) ignored", at: SourceLocation(line: line.number, column: 1))
                }
                readCue(index: (Self.value(of: digits), digits.string, line), timing: timing)
            } else if let digits, peekLine()?.isBlank ?? true, let expected = expectedIndex, Self.value(of: digits) == expected {
                // A block that is only the next cue's number is a cue whose times are lost (a file
                // cut short, an editor's empty entry), not text of the cue before: ExoPlayer,
                // pysubs2 and ttconv leave it out too. Another number ("1985") stays text.
                tally.add(.warning, "srt.block.indexOnly", "cue \(expected) has no times or text: skipped", at: SourceLocation(line: line.number, column: 1))
                expectedIndex = expected + 1
            } else if let timing = SRTTimingParser(bytes: bytes, line: line) {
                tally.add(.warning, "srt.index.missing", "cue without an index line", at: SourceLocation(line: line.number, column: 1))
                readCue(index: nil, timing: timing)
            } else {
                appendOrphan(line)
            }
        }
    }

    /// Reads the cue whose times are `timing`, after its index line (`value`, its digits as the
    /// cue's id, and the line) when it has one.
    private mutating func readCue(index: (value: Int, id: String, line: SRTParserLine)?, timing: SRTTimingParser) {
        if let index, let expected = expectedIndex, index.value != expected {
            tally.add(.warning, "srt.index.unexpected", "cue index \(index.value) where \(expected) was expected; kept in order of the file", at: SourceLocation(line: index.line.number, column: 1))
        }
        if firstIndex == nil { firstIndex = index?.value }
        if let current = index?.value ?? expectedIndex {
            lastIndex = current
            expectedIndex = current + 1
        }
        for (severity, code, message, column) in timing.leniencies {
            tally.add(severity, code, message, at: SourceLocation(line: timing.line.number, column: column))
        }
        textLines.removeAll(keepingCapacity: true)
        if isAtEnd, let last = bytes.last, last != 0x0A, last != 0x0D {
            // Times cut short (an end time with fewer digits than the start time) are damage, an
            // error; whole times with nothing after them, however leniently written, may be an
            // empty last cue without its line break, so the cues before are kept (as ExoPlayer,
            // pysubs2 and pycaption keep them), with a warning.
            let line = bytes[timing.line.range]
            let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
            let arrow = line.firstIndex(of: UInt8(ascii: ">")) ?? line.endIndex
            let whole = line[arrow...].filter(isDigit).count >= line[..<arrow].filter(isDigit).count
            diagnostics.append(Diagnostic(
                whole ? .warning : .error, "srt.input.truncated",
                whole
                    ? "the file ends right after this cue's times: the cue has no text (truncated?)"
                    : "the file ends inside a cue: its times are cut short (truncated?)",
                at: SourceLocation(line: timing.line.number, column: 1)))
        }
        while !isAtEnd {
            guard let next = peekLine(), !next.isBlank else { break }
            if SRTTimingParser(bytes: bytes, line: next) != nil {
                tally.add(.warning, "srt.blankLine.missing", "a new cue starts without a blank line before it", at: SourceLocation(line: next.number, column: 1))
                break
            }
            if isIndexLine(next) {
                if let after = peekLine(skipping: 1), SRTTimingParser(bytes: bytes, line: after) != nil {
                    tally.add(.warning, "srt.blankLine.missing", "a new cue starts without a blank line before it", at: SourceLocation(line: next.number, column: 1))
                    break
                }
            }
            textLines.append(nextLine())
        }
        let location = SourceLocation(line: (index?.line ?? timing.line).number, column: 1)
        if max(timing.start, timing.end) > TimeLimits.plausibleMaximum {
            diagnostics.append(Diagnostic(.error, "time.outOfRange", "a time beyond \(TimeLimits.plausibleMaximumHours) hours is not plausible media time", at: SourceLocation(line: timing.line.number, column: 1)))
        }
        if timing.end < timing.start {
            tally.add(.warning, "srt.cue.endBeforeStart", "the cue ends before it starts; it will never be shown", at: SourceLocation(line: timing.line.number, column: 1))
        }
        var text = SRTCueTextParser(bytes: bytes, lines: textLines)
        let content = text.parse()
        for (severity, code, message, textLocation) in text.leniencies {
            tally.add(severity, code, message, at: textLocation)
        }
        cues.append(Cue(
            id: index?.id ?? "", start: timing.start, end: timing.end,
            settings: text.placement?.settings ?? CueSettings(), content: content, location: location))
    }

    /// A text line that follows a blank line but starts no cue: it belongs to the cue before.
    private mutating func appendOrphan(_ line: SRTParserLine) {
        let location = SourceLocation(line: line.number, column: 1)
        guard !cues.isEmpty else {
            tally.add(.warning, "srt.block.skipped", "text before the first cue skipped", at: location)
            return
        }
        tally.add(.warning, "srt.text.afterBlankLine", "text after a blank line added to the cue before it", at: location)
        var text = SRTCueTextParser(bytes: bytes, lines: [line])
        let content = text.parse()
        cues.modifyLast { cue in
            var builder = InlineTreeBuilder(joinsAdjacentText: true)
            for node in cue.content + [.text("\n")] + content {
                if case .text(let text) = node { builder.appendText(text) } else { builder.append(node) }
            }
            cue.content = builder.finish()
        }
    }
}

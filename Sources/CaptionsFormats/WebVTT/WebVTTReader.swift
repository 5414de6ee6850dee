import CaptionsCore

/// Reads WebVTT following the W3C WebVTT parser algorithm step by step.
///
/// Line breaks are CR, LF and CRLF (each counts as one); a UTF-8 byte order mark is skipped,
/// invalid UTF-8 and NUL become U+FFFD. Beyond what the algorithm returns, the reader keeps what a
/// round trip needs (header text and lines, `STYLE` blocks verbatim, `NOTE` blocks and their place)
/// and reports everything the algorithm silently skips: cues with bad timings, unknown settings,
/// stray blocks.
///
/// Large files are read on every core: after the first cue, the rest is cut at blank lines (which
/// always end a block) into chunks parsed at once; the document is the same as one pass.
///
/// - Complexity: O(n) in the input size.
public struct WebVTTReader: InPlaceTimedTextReader {
    /// A reader.
    public init() {}

    /// Parses a WebVTT file; throws `webvtt.signature.missing` when it does not start with `WEBVTT`.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let (bytes, diagnostics) = TextDecoding.decode(input, invalidUTF8: .replace, codePrefix: "webvtt")
        return try bytes.withUnsafeBufferPointer { text throws(CaptionsError) in try document(parsing: text, diagnostics: diagnostics) }
    }

    /// Parses a WebVTT file in place when it is clean UTF-8, else from a decoded copy.
    public func read(borrowing bytes: UnsafeBufferPointer<UInt8>) throws(CaptionsError) -> TimedTextDocument {
        guard let text = TextDecoding.cleanText(bytes) else { return try read(Array(bytes)) }
        return try document(parsing: text, diagnostics: [])
    }

    /// Parses `text` with the blocks after the first cue cut into `pieces` chunks (by default one
    /// per core, none under 1 MiB).
    func document(
        parsing text: UnsafeBufferPointer<UInt8>, diagnostics: [Diagnostic], pieces: Int? = nil
    ) throws(CaptionsError) -> TimedTextDocument {
        var header = WebVTTFileParser(bytes: text)
        header.document.diagnostics = diagnostics
        try header.parseUpToFirstCue()
        let start = header.mark
        let chunks = WebVTTChunking.chunks(
            of: text, from: start.position, firstLine: start.line,
            pieces: pieces ?? ParallelWork.pieceCount(for: text.count - start.position, minimum: 1 << 20))
        let regions = header.document.regions
        // The first chunk goes on from the header's parser, so its cues are not copied again.
        let parts = ParallelWork.map(chunks.count) { index in
            var parser = index == 0 ? header : WebVTTFileParser(bytes: text, chunk: chunks[index], regions: regions)
            parser.parseBlocks(upTo: chunks[index].range.upperBound)
            return parser.document
        }
        var document = parts[0]
        for part in parts.dropFirst() {
            let cuesBefore = document.cues.count
            document.cues += part.cues
            document.comments += part.comments.map { comment in
                var comment = comment
                comment.beforeCue += cuesBefore
                return comment
            }
            document.diagnostics += part.diagnostics
        }
        document.diagnostics.sort { ($0.location ?? .start) < ($1.location ?? .start) }
        // A file whose every cue was skipped is a valid WebVTT file with no cues (the spec's
        // parser gives none), but the output would be empty: say so once, plainly.
        let skipped = document.diagnostics.filter { ["webvtt.timestamp.malformed", "webvtt.block.ignored"].contains($0.code.rawValue) }.count
        if document.cues.isEmpty, skipped > 0 {
            document.diagnostics.append(Diagnostic(
                .warning, "webvtt.cues.none",
                "no cue could be read: \(skipped) block\(skipped == 1 ? " was" : "s were") skipped, so the output holds no cues",
                at: nil))
        }
        return document
    }
}

/// Where the blocks after the first cue are cut for parsing at once: only after a blank line (the
/// block before it has ended there, and the next one starts at the next line that is not blank),
/// and not at all in files with lone CR line breaks (chunk line numbers are counted by LF).
enum WebVTTChunking {
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, firstLine: Int, pieces: Int) -> [WebVTTChunk] {
        var starts = [start]
        if pieces > 1, !ByteScan.hasLoneCarriageReturn(bytes, from: start) {
            for piece in 1..<pieces {
                let target = start + (bytes.count - start) * piece / pieces
                if target > starts[starts.count - 1], let cut = nextBlockStart(in: bytes, from: target) { starts.append(cut) }
            }
        }
        let ranges = zip(starts, starts.dropFirst() + [bytes.count]).map { $0..<$1 }
        let lineFeeds = ParallelWork.map(ranges.count) {
            ByteScan.counts(of: WebVTTSyntax.lineFeed, WebVTTSyntax.carriageReturn, in: UnsafeBufferPointer(rebasing: bytes[ranges[$0]])).0
        }
        var chunks: [WebVTTChunk] = []
        var line = firstLine
        for (range, count) in zip(ranges, lineFeeds) {
            chunks.append(WebVTTChunk(range: range, firstLine: line))
            line += count
        }
        return chunks
    }

    /// The start of the first line that is not blank after a blank line at or after `from`, if
    /// one starts before the end.
    private static func nextBlockStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let lineFeed = ByteScan(WebVTTSyntax.lineFeed, WebVTTSyntax.lineFeed, WebVTTSyntax.lineFeed)
        var search = from
        while let found = lineFeed.firstIndex(in: bytes, from: search), found + 1 < bytes.count {
            search = found + 1
            guard bytes[search] == WebVTTSyntax.lineFeed || bytes[search] == WebVTTSyntax.carriageReturn else { continue }
            while search < bytes.count, bytes[search] == WebVTTSyntax.lineFeed || bytes[search] == WebVTTSyntax.carriageReturn {
                search += 1
            }
            return search < bytes.count ? search : nil
        }
        return nil
    }
}

/// A stretch of a WebVTT file that starts at a block after the first cue, and its first line number.
struct WebVTTChunk {
    var range: Range<Int>
    var firstLine: Int
}

/// The state of one run of the WebVTT parser over a file's bytes.
private struct WebVTTFileParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var document = TimedTextDocument(sourceFormat: "webvtt")
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var textBuffer: [UInt8] = []
    /// The lines of the block being collected, kept between blocks for their storage.
    private var blockLines: [ByteSlice] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// A parser for the blocks of `chunk`, which come after the first cue of a file whose header
    /// declared `regions`.
    init(bytes: UnsafeBufferPointer<UInt8>, chunk: WebVTTChunk, regions: [Region]) {
        self.bytes = bytes
        position = chunk.range.lowerBound
        line = chunk.firstLine
        lineStart = chunk.range.lowerBound
        document.regions = regions
    }

    private var isAtEnd: Bool { position >= bytes.count }
    private var atLineBreak: Bool {
        !isAtEnd && (bytes[position] == WebVTTSyntax.lineFeed || bytes[position] == WebVTTSyntax.carriageReturn)
    }

    struct Mark {
        var position: Int
        var line: Int
        var lineStart: Int
    }

    /// Where the parser stands: the byte it reads next, its line and where that line starts.
    var mark: Mark { Mark(position: position, line: line, lineStart: lineStart) }

    private mutating func restore(_ mark: Mark) {
        (position, line, lineStart) = (mark.position, mark.line, mark.lineStart)
    }

    /// Reads the signature, the header and the blocks up to and including the first cue.
    mutating func parseUpToFirstCue() throws(CaptionsError) {
        let signature = Array("WEBVTT".utf8)
        guard bytes.starts(with: signature),
            bytes.count == 6 || [WebVTTSyntax.space, WebVTTSyntax.tab, WebVTTSyntax.lineFeed, WebVTTSyntax.carriageReturn]
                .contains(bytes[6])
        else {
            let message =
                bytes.isEmpty ? "the file is empty; a WebVTT file starts with WEBVTT"
                : "not a WebVTT file: the first line must start with WEBVTT"
            throw CaptionsError("webvtt.signature.missing", message, at: .start)
        }
        let firstLine = collectLine()
        if firstLine.count > 7 { document.title = firstLine.dropFirst(7).string }
        if isAtEnd { return }
        skipLineBreak()
        if isAtEnd { return }
        if !atLineBreak {
            collectHeader()
        } else {
            skipLineBreak()
        }
        skipLineBreaks()
        var seenCue = false
        while !isAtEnd, !seenCue {
            collectBlock(seenCue: &seenCue)
            skipLineBreaks()
        }
    }

    /// Reads the blocks from here to `end`, all after the first cue.
    mutating func parseBlocks(upTo end: Int) {
        var seenCue = true
        while position < end {
            collectBlock(seenCue: &seenCue)
            skipLineBreaks()
        }
    }

    // MARK: Lines

    private static let lineBreaks = ByteScan(WebVTTSyntax.lineFeed, WebVTTSyntax.carriageReturn, WebVTTSyntax.carriageReturn)

    /// Collects the bytes up to the next CR or LF (not consumed).
    private mutating func collectLine() -> ByteSlice {
        let start = position
        position = Self.lineBreaks.firstIndex(in: bytes, from: start) ?? bytes.count
        return bytes[start..<position]
    }

    private mutating func skipLineBreak() {
        guard atLineBreak else { return }
        if bytes[position] == WebVTTSyntax.carriageReturn, position + 1 < bytes.count,
            bytes[position + 1] == WebVTTSyntax.lineFeed
        {
            position += 1
        }
        position += 1
        line += 1
        lineStart = position
    }

    private mutating func skipLineBreaks() {
        while atLineBreak { skipLineBreak() }
    }

    private func location(of offset: Int, onLine line: Int, lineStart: Int) -> SourceLocation {
        SourceLocation(line: line, column: LineIndex.column(in: bytes, lineStart: lineStart, offset: offset))
    }

    // MARK: Blocks

    /// The header lines after the signature line, up to a blank line or a line with `-->`.
    private mutating func collectHeader() {
        while true {
            let before = mark
            let text = collectLine()
            if !isAtEnd { skipLineBreak() }
            if WebVTTSyntax.containsArrow(text) {
                restore(before)
                return
            }
            if text.isEmpty { return }
            let header = text.string
            document.headerLines.append(header)
            readHeaderField(header)
            if isAtEnd { return }
        }
    }

    private mutating func readHeaderField(_ header: String) {
        guard let colon = header.firstIndex(of: ":") else { return }
        let value = String(header[header.index(after: colon)...].trimmingASCIIWhitespace())
        switch header[..<colon].lowercased() {
        case "kind": if let kind = TimedTextDocument.Kind(rawValue: value.lowercased()) { document.kind = kind }
        case "language": document.language = value.isEmpty ? nil : value
        default: break
        }
    }

    /// The WebVTT "collect a WebVTT block" algorithm outside the header.
    private mutating func collectBlock(seenCue: inout Bool) {
        let blockStart = mark
        var lineCount = 0
        var previous = mark
        blockLines.removeAll(keepingCapacity: true)
        var seenArrow = false
        var timing: CueTiming?
        var kind: BlockKind = .other
        var cueLocation = SourceLocation.start
        while true {
            let lineMark = mark
            let text = collectLine()
            lineCount += 1
            if !isAtEnd { skipLineBreak() }
            if WebVTTSyntax.containsArrow(text) {
                guard lineCount == 1 || (lineCount == 2 && !seenArrow) else {
                    restore(previous)
                    break
                }
                seenArrow = true
                previous = mark
                cueLocation = location(of: lineMark.position, onLine: lineMark.line, lineStart: lineMark.lineStart)
                timing = parseTimings(text, mark: lineMark)
                if timing != nil {
                    kind = .cue(id: join(blockLines))
                    blockLines.removeAll(keepingCapacity: true)
                } else {
                    kind = .other
                }
            } else if text.isEmpty {
                break
            } else {
                if lineCount == 2, case .other = kind, !seenArrow, let first = blockLines.first {
                    if Self.isBlockKeyword(first, "STYLE") {
                        kind = .styleSheet
                        blockLines.removeAll(keepingCapacity: true)
                    } else if Self.isBlockKeyword(first, "REGION") {
                        kind = .region
                        blockLines.removeAll(keepingCapacity: true)
                    }
                }
                blockLines.append(text)
                previous = mark
            }
            if isAtEnd { break }
        }
        finishBlock(
            kind, timing: timing, seenArrow: seenArrow, buffer: blockLines, start: blockStart, cueLocation: cueLocation,
            seenCue: &seenCue)
    }

    private enum BlockKind {
        case cue(id: String)
        case styleSheet
        case region
        case other
    }

    private struct CueTiming {
        var start: MediaTime
        var end: MediaTime
        var settings: CueSettings
    }

    private mutating func finishBlock(
        _ kind: BlockKind, timing: CueTiming?, seenArrow: Bool, buffer: [ByteSlice], start: Mark,
        cueLocation: SourceLocation, seenCue: inout Bool
    ) {
        let blockLocation = SourceLocation(line: start.line, column: 1)
        switch kind {
        case .cue(let id):
            guard let timing else { return }
            seenCue = true
            addCue(id: id, timing: timing, text: buffer, location: cueLocation)
        case .styleSheet where !seenCue:
            document.styleSheets.append(StyleSheet(text: join(buffer), location: blockLocation))
        case .region where !seenCue:
            let region = parseRegion(joinedBytes(buffer), blockLine: start.line, location: blockLocation)
            document.regions.removeAll { $0.id == region.id }
            document.regions.append(region)
        case .styleSheet, .region:
            document.diagnostics.append(Diagnostic(
                .warning, "webvtt.block.misplaced", "STYLE and REGION blocks must come before the first cue; block ignored",
                at: blockLocation))
        case .other:
            guard let first = buffer.first, !seenArrow else { return }
            if Self.isNoteLine(first) {
                var lines = buffer.map(\.string)
                lines[0] = String(lines[0].dropFirst(5))
                if lines[0].isEmpty, lines.count > 1 { lines.removeFirst() }
                document.comments.append(Comment(
                    text: lines.joined(separator: "\n"), beforeCue: document.cues.count, location: blockLocation))
            } else {
                document.diagnostics.append(Diagnostic(
                    .warning, "webvtt.block.ignored", "ignored block: it is not a cue, comment, style or region",
                    at: blockLocation))
            }
        }
    }

    /// Parses a region block's settings, reporting each skipped setting at its line and column.
    private mutating func parseRegion(_ text: [UInt8], blockLine: Int, location: SourceLocation) -> Region {
        var reports: [(Diagnostic.Code, String, Int)] = []
        let region = text.withUnsafeBufferPointer { buffer in
            WebVTTSettingsParser { reports.append(($0, $1, $2)) }.parseRegion(buffer[...], location: location)
        }
        for (code, message, offset) in reports {
            let lineOffset = text[..<offset].count { $0 == WebVTTSyntax.lineFeed }
            let lineStart = text[..<offset].lastIndex(of: WebVTTSyntax.lineFeed).map { $0 + 1 } ?? 0
            let column = LineIndex.column(in: text, lineStart: lineStart, offset: offset)
            document.diagnostics.append(Diagnostic(
                .warning, code, message, at: SourceLocation(line: blockLine + 1 + lineOffset, column: column)))
        }
        return region
    }

    /// A line that is `keyword` followed by nothing but spaces and tabs (`STYLE`, `REGION`).
    private static func isBlockKeyword(_ line: ByteSlice, _ keyword: StaticString) -> Bool {
        let count = keyword.utf8CodeUnitCount
        guard line.count >= count, line.prefix(count).equals(keyword) else { return false }
        return line.dropFirst(count).allSatisfy { $0 == WebVTTSyntax.space || $0 == WebVTTSyntax.tab }
    }

    /// A comment's first line: `NOTE` alone or followed by a space or tab.
    private static func isNoteLine(_ line: ByteSlice) -> Bool {
        guard line.prefix(4).equals("NOTE") else { return false }
        return line.count == 4 || line[line.startIndex + 4] == WebVTTSyntax.space
            || line[line.startIndex + 4] == WebVTTSyntax.tab
    }

    private func join(_ lines: [ByteSlice]) -> String {
        lines.count == 1 ? lines[0].string : String(decoding: joinedBytes(lines), as: UTF8.self)
    }

    private func joinedBytes(_ lines: [ByteSlice]) -> [UInt8] {
        guard lines.count > 1 else { return lines.first.map(Array.init) ?? [] }
        return Array(lines.joined(separator: [WebVTTSyntax.lineFeed]))
    }

    // MARK: Cues

    /// The WebVTT "collect WebVTT cue timings and settings" algorithm; reports why it failed.
    private mutating func parseTimings(_ text: ByteSlice, mark lineMark: Mark) -> CueTiming? {
        var index = text.startIndex
        func skipWhitespace() {
            while index < text.endIndex, WebVTTSyntax.isWhitespace(text[index]) { index += 1 }
        }
        func fail(_ what: String) -> CueTiming? {
            document.diagnostics.append(Diagnostic(
                .warning, "webvtt.timestamp.malformed", "cue skipped: \(what)",
                at: location(of: min(index, text.endIndex), onLine: lineMark.line, lineStart: lineMark.lineStart)))
            return nil
        }
        skipWhitespace()
        guard let start = WebVTTSyntax.collectTimestamp(text, at: &index) else {
            return fail("malformed start time (expected [hh:]mm:ss.ttt)")
        }
        skipWhitespace()
        guard text[index...].starts(with: "-->".utf8) else { return fail("expected --> after the start time") }
        index += 3
        skipWhitespace()
        guard let end = WebVTTSyntax.collectTimestamp(text, at: &index) else {
            return fail("malformed end time (expected [hh:]mm:ss.ttt)")
        }
        var reports: [(Diagnostic.Code, String, Int)] = []
        let settingsParser = WebVTTSettingsParser { reports.append(($0, $1, $2)) }
        let settings = settingsParser.parseCueSettings(text[index...], regions: document.regions)
        for (code, message, offset) in reports {
            document.diagnostics.append(Diagnostic(
                .warning, code, message, at: location(of: offset, onLine: lineMark.line, lineStart: lineMark.lineStart)))
        }
        let timeLocation = location(of: text.startIndex, onLine: lineMark.line, lineStart: lineMark.lineStart)
        if end < start {
            document.diagnostics.append(Diagnostic(
                .warning, "webvtt.cue.endBeforeStart", "the cue ends before it starts; it will never be shown",
                at: timeLocation))
        }
        if max(start, end) > TimeLimits.plausibleMaximum {
            document.diagnostics.append(Diagnostic(
                .error, "time.outOfRange", "a time beyond \(TimeLimits.plausibleMaximumHours) hours is not plausible media time",
                at: timeLocation))
        }
        return CueTiming(start: start, end: end, settings: settings)
    }

    private mutating func addCue(id: String, timing: CueTiming, text: [ByteSlice], location: SourceLocation) {
        let content: [InlineNode]
        var droppedForDepth = 0
        var unclosed: [Span.Kind] = []
        if text.count <= 1 {
            content = text.first.map { WebVTTCueTextParser.parse($0, droppedForDepth: &droppedForDepth, unclosed: &unclosed) } ?? []
        } else {
            textBuffer.removeAll(keepingCapacity: true)
            for (index, line) in text.enumerated() {
                if index > 0 { textBuffer.append(WebVTTSyntax.lineFeed) }
                textBuffer.append(contentsOf: line)
            }
            content = textBuffer.withUnsafeBufferPointer {
                WebVTTCueTextParser.parse($0[...], droppedForDepth: &droppedForDepth, unclosed: &unclosed)
            }
        }
        // Voice and language spans are routinely left open (`<v Ann>Hello`); formatting is not.
        let formatting = unclosed.filter { [.italic, .bold, .underline, .class].contains($0) }
        if !formatting.isEmpty {
            document.diagnostics.append(Diagnostic(
                .note, "webvtt.tag.unclosed",
                "\(formatting.map { "<\($0.rawValue)>" }.joined(separator: ", ")) not closed: closed at the end of the cue",
                at: location))
        }
        if droppedForDepth > 0 {
            document.diagnostics.append(Diagnostic(
                .warning, "webvtt.nesting.tooDeep",
                "tags nested deeper than \(InlineNode.maximumDepth) levels: \(droppedForDepth) dropped, their text kept",
                at: location))
        }
        document.cues.append(Cue(
            id: id, start: timing.start, end: timing.end, settings: timing.settings,
            speaker: Cue.firstVoice(in: content), content: content, location: location))
    }
}

import CaptionsCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes EBU STL (Tech 3264): open subtitles by default, or teletext (level 1) subtitles.
///
/// - 25 frames a second (`STL25.01`), or 29.97 or 30 (`STL30.01`) as Tech 3264 has them; 23.976,
///   24 and 50 as `STL23.01`, `STL24.01`, `STL50.01`, which ttconv and this tool read but Tech 3264
///   does not name (a warning); any other rate at 25 (a warning).
/// - The character code table is the first of Latin (ISO 6937), Cyrillic, Greek, Arabic and
///   Hebrew that holds every character, or else the one that holds most of the text; characters
///   it lacks are written as the nearest letter and reported by ``fit(_:)``.
/// - Open subtitles carry italics and underline; teletext carries colours and is written in
///   double height, boxed, as broadcasters send it. Rows are broken at 40 characters (37 for
///   teletext, whose control codes take cells); text too long for one block continues in
///   extension blocks.
public struct STLWriter: TimedTextWriter {
    /// Open or teletext subtitles.
    public enum Kind: String, Sendable, CaseIterable {
        /// Open (burnt-in) subtitles: DSC 0.
        case open
        /// Teletext level 1: DSC 1.
        case teletext
    }

    /// Frames per second; nil: 25.
    public var frameRate: Double?
    /// Open or teletext; nil: as the document's source STL file was (its DSC), else open.
    public var kind: Kind?

    /// Styles as the kind allows, placement by row and alignment, the title (OPT).
    public var capabilities: FormatCapabilities { [.basicStyles, .colors, .placement, .literalMarkup, .documentLanguage, .title] }

    /// A writer of `kind` subtitles at `frameRate` (25 when nil).
    public init(frameRate: Double? = nil, kind: Kind? = nil) {
        self.frameRate = frameRate
        self.kind = kind
    }

    /// Whether ``settled(for:)`` has made this writer's choices for the document.
    private var isSettled = false

    /// This writer with its kind settled for `document`, and its frame rate (``rate(for:)``).
    private func settled(for document: TimedTextDocument) -> STLWriter {
        var writer = self
        writer.kind = kind ?? (["1", "2"].contains(Self.keptHeader(of: document)["DSC"]) ? .teletext : .open)
        writer.frameRate = rate(for: document)
        writer.isSettled = true
        return writer
    }

    /// The frame rate written: the one given, else an EBU STL source's own (re-saving an
    /// STL30.01 file wrote STL25.01, every time moved to another frame), else 25.
    public func rate(for document: TimedTextDocument) -> Double? {
        frameRate ?? (document.sourceFormat == "ebu-stl" ? document.sourceTimeStep.flatMap { $0 > .zero ? 1 / $0.seconds : nil } : nil)
    }

    private var width: Int { kind == .teletext ? 37 : 40 }
    private var maximumRows: Int { kind == .teletext ? 11 : 23 }

    /// Fits rows to the width, the characters to one code table, the looks to the kind.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        guard isSettled else { return settled(for: document).fit(&document) }
        let table = Self.table(for: document)
        let teletext = kind == .teletext
        let rules = CharacterGrid.Rules(
            prefix: "stl", formatName: "EBU STL", characterSetName: "the \(table.code) code table", width: width,
            maximumRows: maximumRows, has: { table.bytes(for: $0) != nil },
            checkLooks: { row, location, tally in
                if teletext, row.contains(where: { $0.style.italic || $0.style.underline }) {
                    tally.add(.warning, "convert.lost.italics", "italics and underline written plain: teletext has neither", at: location)
                }
                if !teletext, row.contains(where: { $0.style.color != 0 }) {
                    tally.add(.warning, "convert.lost.colors", "colours written plain: open subtitles carry none (--stl teletext does)", at: location)
                }
                if STLTextField.changesInWords(row, teletext: teletext) {
                    tally.add(
                        .note, "stl.style.inWord",
                        "a style that changes inside a word extended to the whole word (a style code takes a character's place)",
                        at: location)
                }
            },
            collapsesSpaces: true)
        var diagnostics = CharacterGrid.fit(&document, to: rules)
        if document.title.count > 32 {
            diagnostics.append(Diagnostic(
                .warning, "stl.title.truncated", "the title is cut to the 32 characters of the GSI's programme title (OPT): '\(document.title.prefix(32))'",
                at: nil))
        }
        let requested = frameRate.map { NumberFormatting.shortest(($0 * 1000).rounded() / 1000) } ?? "25"
        switch diskFormat.kind {
        case .standard: break
        case .extension:
            diagnostics.append(Diagnostic(
                .warning, "stl.fps.nonstandard",
                "\(requested) frames a second written as \(diskFormat.code), which Tech 3264 does not name (only STL25.01 and STL30.01): readers that do not know it take the times at 25 or 30",
                at: nil))
        case .unsupported:
            diagnostics.append(Diagnostic(
                .warning, "stl.fps.unsupported",
                "EBU STL has no disk format for \(requested) frames a second: times written at 25 (STL25.01)", at: nil))
        }
        let timecode = self.timecode
        diagnostics += timecode.diagnostics(
            for: timecode.fitToFrames(&document, withinADay: true), codePrefix: "stl", formatName: "EBU STL", noteMoves: false)
        return diagnostics
    }

    /// The disk format code (DFC) written, and whether Tech 3264 names it.
    private var diskFormat: (code: String, kind: DiskFormatKind) {
        let wanted = SMPTETimecode(frameRate: frameRate.map { abs($0 - 30) < 0.01 ? 30000.0 / 1001 : $0 } ?? 25)
        for code in ["STL25.01", "STL30.01", "STL23.01", "STL24.01", "STL50.01"]
        where STLGSI.frameRate(code).map(SMPTETimecode.init(frameRate:)) == wanted {
            return (code, code == "STL25.01" || code == "STL30.01" ? .standard : .extension)
        }
        return ("STL25.01", .unsupported)
    }

    private enum DiskFormatKind { case standard, `extension`, unsupported }

    /// The timecode written: the disk format's rate.
    private var timecode: SMPTETimecode { SMPTETimecode(frameRate: STLGSI.frameRate(diskFormat.code)) }

    /// Writes the document as EBU STL bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        guard isSettled else { return settled(for: document).write(document, emit: emit) }
        var fitted = document
        _ = fit(&fitted)
        let table = Self.table(for: document)
        let timecode = self.timecode  // worked out once, not per cue
        var blocks: [[UInt8]] = []
        for (number, cue) in fitted.cues.enumerated() {
            var lostBold = false
            let rows = CharacterGrid.styledRows(of: cue.content, lostBold: &lostBold)
            guard !rows.isEmpty else { continue }
            var field = STLTextField.bytes(rows, table: table, teletext: kind == .teletext)
            let start = timecode.frame(nearest: cue.start)
            let end = max(timecode.frame(nearest: cue.end ?? cue.start), start)
            var extensionNumber: UInt8 = 0
            repeat {
                let part = Array(field.prefix(112))
                field.removeFirst(part.count)
                var block = [UInt8](repeating: 0, count: 16)
                block[0] = 0
                block[1] = UInt8(number & 0xFF)
                block[2] = UInt8(number >> 8 & 0xFF)
                block[3] = field.isEmpty ? 0xFF : extensionNumber
                block[4] = 0
                for (offset, frame) in [(5, start), (9, end)] {
                    let time = timecode.fields(frame: frame, dropFrame: timecode.canDropFrames)
                    block[offset] = UInt8(min(time.hours, 99))
                    block[offset + 1] = UInt8(time.minutes)
                    block[offset + 2] = UInt8(time.seconds)
                    block[offset + 3] = UInt8(time.frames)
                }
                block[13] = UInt8(verticalPosition(cue.settings, rows: rows.count))
                block[14] = cue.settings.align == .left || cue.settings.align == .start ? 1 : cue.settings.align == .right || cue.settings.align == .end ? 3 : 2
                block[15] = 0
                blocks.append(block + part + [UInt8](repeating: 0x8F, count: 112 - part.count))
                extensionNumber += 1
            } while !field.isEmpty
        }
        let first = fitted.cues.first.map { timecode.fields(frame: timecode.frame(nearest: $0.start), dropFrame: timecode.canDropFrames) }
        var bytes = gsi(document: fitted, table: table, blocks: blocks.count, subtitles: fitted.cues.count, firstCue: first, timecode: timecode)
        for block in blocks { bytes += block }
        bytes.withUnsafeBytes { emit($0) }
    }

    /// VP: the first row, so that the subtitle sits where its line setting puts it (the bottom
    /// rows when automatic; a line number counts rows from the top, or from the bottom when
    /// negative, as WebVTT does); teletext rows are double height.
    private func verticalPosition(_ settings: CueSettings, rows: Int) -> Int {
        let step = kind == .teletext ? 2 : 1
        let lastFirst = max(kind == .teletext ? 24 - step * rows : 23 - rows + 1, 1)
        guard case .value(let setting) = settings.line else { return lastFirst }
        let row: Int
        if settings.snapToLines {
            let line = Int(setting.isFinite ? min(max(setting, -100), 100) : 0)  // any size would trap in Int()
            row = line >= 0 ? 1 + line * step : lastFirst + (line + 1) * step
        } else {
            let line = setting.isFinite ? min(max(setting, -1_000), 1_000) : 0
            row = Int(((line - 10) / 80 * 23).rounded()) + (kind == .teletext ? 1 : 0)
        }
        return min(max(row, 1), lastFirst)
    }

    /// The GSI block.
    private func gsi(
        document: TimedTextDocument, table: EBUSTLCharacters, blocks: Int, subtitles: Int,
        firstCue: (hours: Int64, minutes: Int64, seconds: Int64, frames: Int64)?, timecode: SMPTETimecode
    ) -> [UInt8] {
        var block = [UInt8](repeating: 0x20, count: 1024)
        func put(_ offset: Int, _ text: String, _ length: Int) {
            var index = offset
            for character in text where index < offset + length {
                guard let byte = character.asciiValue.map({ $0 >= 0x20 && $0 < 0x7F ? $0 : 0x20 }) ?? STLGSI.codePage850[character] else { continue }
                block[index] = byte
                index += 1
            }
        }
        func digits(_ value: Int64, _ count: Int) -> String {
            let text = String(max(value, 0))
            return String(repeating: "0", count: max(count - text.count, 0)) + text
        }
        let kept = Self.keptHeader(of: document)
        for field in STLGSI.keptFields { if let value = kept[field.name] { put(field.offset, value, field.length) } }
        put(0, "850", 3)
        put(3, diskFormat.code, 8)
        put(11, kind == .teletext ? (kept["DSC"] == "2" ? "2" : "1") : "0", 1)
        put(12, table.code, 2)
        put(14, STLGSI.languageCode(document.language), 2)
        put(16, document.title, 32)
        let today = Self.today()
        if kept["CD"] == nil { put(224, today, 6) }
        put(230, today, 6)
        if kept["RN"] == nil { put(236, "00", 2) }
        put(238, digits(Int64(blocks), 5), 5)
        put(243, digits(Int64(subtitles), 5), 5)
        put(248, "001", 3)
        put(251, digits(Int64(width), 2), 2)
        put(253, "23", 2)
        if kept["TCS"] == nil { put(255, "1", 1) }
        if kept["TCP"] == nil { put(256, "00000000", 8) }
        let first = firstCue ?? (0, 0, 0, 0)
        put(264, digits(first.hours, 2) + digits(first.minutes, 2) + digits(first.seconds, 2) + digits(first.frames, 2), 8)
        put(272, "1", 1)
        put(273, "1", 1)
        return block
    }

    /// The first table that holds every character of the document; when none does, the one
    /// that holds the most of its letters (a Russian film with one Greek word is written in
    /// Cyrillic), Latin on a tie.
    static func table(for document: TimedTextDocument) -> EBUSTLCharacters {
        var counts: [Character: Int] = [:]
        for cue in document.cues {
            for character in cue.plainText where character != "\n" { counts[character, default: 0] += 1 }
        }
        if let table = EBUSTLCharacters.all.first(where: { table in counts.keys.allSatisfy { table.bytes(for: $0) != nil } }) {
            return table
        }
        func held(_ table: EBUSTLCharacters) -> Int {
            counts.reduce(0) { $0 + (table.bytes(for: $1.key) != nil ? $1.value : 0) }
        }
        var best = EBUSTLCharacters.latin
        var bestHeld = held(best)
        for table in EBUSTLCharacters.all.dropFirst() {
            let count = held(table)
            if count > bestHeld { (best, bestHeld) = (table, count) }
        }
        return best
    }

    /// The source's GSI fields, when the document was read from EBU STL (none otherwise).
    static func keptHeader(of document: TimedTextDocument) -> [String: String] {
        document.sourceFormat == "ebu-stl" ? document.sourceHeader : [:]
    }

    /// Today as YYMMDD (creation and revision dates).
    private static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(parts.tm_year % 100) + two(parts.tm_mon + 1) + two(parts.tm_mday)
    }
}

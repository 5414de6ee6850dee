import CaptionsCore

/// Reads EBU STL (EBU Tech 3264): a 1024-byte General Subtitle Information block, then 128-byte
/// Text and Timing Information blocks.
///
/// - The GSI gives the frame rate (DFC: `STL25.01`, `STL30.01`…), whether subtitles are open or
///   teletext (DSC), the character code table (CCT), the language (LC) and the programme title.
/// - A subtitle's text may continue over extension blocks (EBN); comment blocks (CF) and user
///   data blocks are skipped; cumulative sets (CS) show each subtitle with those before it.
/// - Times are kept as the file gives them (`STL30.01` time codes are 29.97 drop-frame labels, as
///   NTSC material and ttconv read them); where the programme starts past zero (TCP), a note
///   says so (`--shift` moves them).
/// - The vertical position (VP) and justification (JC) become the cue's line and alignment.
///
/// A `.stl` file that is not EBU's binary format but Spruce's text (`HH:MM:SS:FF , HH:MM:SS:FF , text`)
/// is read as such.
public struct STLReader: TimedTextReader {
    /// The character code table (CCT) to read the text in instead of the header's: for a file
    /// whose header names the wrong one (`--encoding`).
    public var codeTable: String?

    /// A reader; `codeTable` overrides the header's.
    public init(codeTable: String? = nil) {
        self.codeTable = codeTable
    }

    /// The code table (CCT) an encoding's name stands for: iso6937 (Latin, 00), iso-8859-5
    /// (Cyrillic, 01), -6 (Arabic, 02), -7 (Greek, 03), -8 (Hebrew, 04); nil for any other.
    public static func codeTable(forEncoding name: String) -> String? {
        switch name.lowercased().filter({ $0.isLetter || $0.isNumber }) {
        case "iso6937", "iso69372", "latin", "6937": "00"
        case "iso88595", "cyrillic": "01"
        case "iso88596", "arabic": "02"
        case "iso88597", "greek": "03"
        case "iso88598", "hebrew": "04"
        default: nil
        }
    }

    /// Whether content is an EBU STL file: the GSI's disk format code at byte 3.
    public static func recognises(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 11 && bytes.dropFirst(3).prefix(3).elementsEqual("STL".utf8) && bytes.dropFirst(8).prefix(3).elementsEqual(".01".utf8)
    }

    /// Parses an EBU STL file; throws `stl.gsi.malformed` when it has no GSI block or no subtitle.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let bytes = input
        guard Self.recognises(bytes[...]) else {
            if SpruceSTLReader.recognises(bytes) { return try SpruceSTLReader().read(bytes) }
            throw CaptionsError(
                "stl.gsi.malformed", "not an EBU STL file: its first 1024 bytes must be a GSI block with 'STL25.01' or 'STL30.01' at byte 4",
                at: .start)
        }
        guard bytes.count >= 1024 else {
            throw CaptionsError("stl.gsi.malformed", "the file ends inside its 1024-byte GSI block (\(bytes.count) bytes)", at: .start)
        }
        let gsi = STLGSI(bytes[0..<1024])
        var document = TimedTextDocument(sourceFormat: "ebu-stl")
        var tally = DiagnosticTally()
        document.title = gsi.title
        document.sourceHeader = gsi.header
        document.language = gsi.language
        let timecode = SMPTETimecode(frameRate: gsi.frameRate)
        document.sourceTimeStep = MediaTime(value: timecode.denominator, timescale: timecode.numerator)
        if gsi.frameRate == nil {
            tally.add(.warning, "stl.gsi.frameRate", "unknown disk format code '\(gsi.diskFormat)'; 25 frames a second assumed", at: Self.location(byte: 3))
        }
        let code = codeTable ?? gsi.codeTable
        let table = EBUSTLCharacters.table(code) ?? .latin
        if EBUSTLCharacters.table(code) == nil {
            tally.add(.warning, "stl.gsi.codeTable", "unknown character code table '\(gsi.codeTable)'; Latin (ISO 6937) assumed", at: Self.location(byte: 12))
        }
        if (bytes.count - 1024) % 128 != 0 {
            tally.add(.warning, "stl.tti.truncated", "the file ends inside a TTI block; the partial block is skipped", at: Self.location(byte: bytes.count))
        }
        let blockCount = (bytes.count - 1024) / 128
        var pending: (first: Int, number: UInt16, field: [UInt8])?
        var subtitles: [STLSubtitle] = []
        var comments = 0
        for block in 0..<blockCount {
            let offset = 1024 + block * 128
            let tti = bytes[offset..<offset + 128]
            let extensionNumber = tti[offset + 3]
            // User data (0xFE) and reserved extension numbers carry no text.
            if extensionNumber >= 0xF0, extensionNumber != 0xFF { continue }
            if tti[offset + 15] != 0 {
                comments += 1
                continue
            }
            let number = UInt16(tti[offset + 1]) | UInt16(tti[offset + 2]) << 8
            var field = Array(tti[(offset + 16)...])
            while field.last == 0x8F { field.removeLast() }
            if var open = pending, open.number == number {
                open.field += field
                pending = open
            } else {
                if let open = pending {
                    tally.add(.warning, "stl.tti.extension", "a subtitle's extension blocks end without a last block; read as they are", at: Self.location(byte: 1024 + open.first * 128))
                }
                pending = (block, number, field)
            }
            guard extensionNumber == 0xFF, let whole = pending else { continue }
            pending = nil
            let first = 1024 + whole.first * 128
            let firstBlock = bytes[first..<first + 128]
            subtitles.append(STLSubtitle(
                block: firstBlock, field: whole.field, timecode: timecode, table: table, location: Self.location(byte: first), tally: &tally))
        }
        if let open = pending {
            let first = 1024 + open.first * 128
            subtitles.append(STLSubtitle(
                block: bytes[first..<first + 128], field: open.field, timecode: timecode, table: table, location: Self.location(byte: first),
                tally: &tally))
        }
        if comments > 0 {
            document.diagnostics.append(Diagnostic(.note, "stl.comments", "\(comments) comment block\(comments == 1 ? "" : "s") (CF=1) skipped", at: nil))
        }
        document.cues = STLSubtitle.cues(subtitles, gsi: gsi)
        if gsi.programmeStart > 0, let first = document.cues.first, first.start >= timecode.time(frame: gsi.programmeStart) {
            let label = timecode.label(frame: gsi.programmeStart, dropFrame: timecode.canDropFrames)
            let seconds = timecode.time(frame: gsi.programmeStart).seconds
            document.diagnostics.append(Diagnostic(
                .note, "stl.timecode.programmeStart",
                "times are as the file gives them; the programme starts at \(label) (TCP): --shift -\(formatSeconds(seconds))s moves it to zero",
                at: Self.location(byte: 256)))
        }
        document.diagnostics += tally.diagnostics
        if blockCount == 0 {
            document.diagnostics.append(Diagnostic(.warning, "stl.tti.none", "the file has a GSI block but no subtitle (TTI) block", at: Self.location(byte: 1024)))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    private func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int64(seconds)) : String((seconds * 1000).rounded() / 1000)
    }

    /// Binary files have no lines: a place in one is its byte offset, as line 1, column offset + 1.
    static func location(byte offset: Int) -> SourceLocation { SourceLocation(line: 1, column: offset + 1) }
}

import CaptionsCore

/// Writes Scenarist SCC: CEA-608 captions on CC1, 29.97 drop-frame timecode by default.
///
/// - **Pop-on** (the default): each caption is loaded into the decoder's hidden memory before
///   its time, then shown by End Of Caption on the frame it starts; Erase Displayed Memory
///   takes it away on the frame it ends, unless the next caption replaces it. Loading takes a
///   frame per two characters, so it starts early enough for the caption to appear on time;
///   when the gap before a caption is too short, it appears late, and that is reported.
/// - **Roll-up**: rows roll in from the bottom row, one carriage return each.
///
/// Control codes are sent twice, as 608 asks; ``fit(_:)`` first makes every cue fit the grid.
public struct SCCWriter: TimedTextWriter {
    /// How captions appear.
    public enum Mode: String, Sendable, CaseIterable {
        /// Built off screen, shown whole.
        case popOn = "pop-on"
        /// Rows roll up from the bottom.
        case rollUp = "roll-up"
    }

    /// Frames per second of the timecode; nil: 29.97 drop-frame.
    public var frameRate: Double?
    /// Pop-on or roll-up.
    public var mode: Mode

    /// Italics, underline, seven colours, placement on the 32 × 15 grid.
    public let capabilities: FormatCapabilities = [.basicStyles, .colors, .placement, .literalMarkup]

    /// A writer; `frameRate` nil means 29.97 drop-frame.
    public init(frameRate: Double? = nil, mode: Mode = .popOn) {
        self.frameRate = frameRate
        self.mode = mode
    }

    /// Fits cues to 608's grid and character set (see ``CEA608Layout``), and their times to
    /// frames within a day of timecode.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        var diagnostics = CEA608Layout.fit(&document)
        let timecode = SMPTETimecode(frameRate: frameRate)
        if timecode != SMPTETimecode(frameRate: nil), let frameRate {
            // 608 captions ride on 29.97 video; an SCC file cannot say it counts another rate.
            diagnostics.append(Diagnostic(
                .warning, "scc.fps.nonstandard",
                "timecode counted at \(NumberFormatting.shortest((frameRate * 1000).rounded() / 1000)) frames a second: SCC cannot say so, and readers take it as 29.97 unless told (captions --fps)",
                at: nil))
        }
        diagnostics += timecode.diagnostics(
            for: timecode.fitToFrames(&document, withinADay: true), codePrefix: "scc", formatName: "SCC", noteMoves: false)
        let late = lateness(of: document)
        if late.count > 0 {
            diagnostics.append(Diagnostic(
                .warning, "scc.timing.late",
                "\(late.count) caption\(late.count == 1 ? "" : "s") shown late (up to \(late.frames) frames): the gap before them is too short to load them",
                at: late.location))
        }
        return diagnostics
    }

    /// Writes the document as SCC bytes.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var fitted = document
        _ = CEA608Layout.fit(&fitted)
        let timecode = SMPTETimecode(frameRate: frameRate)
        _ = timecode.fitToFrames(&fitted, withinADay: true)
        let stream = schedule(fitted, timecode: timecode).stream
        var out = "Scenarist_SCC V1.0\n"
        var index = 0
        while index < stream.count {
            var end = index + 1
            while end < stream.count, stream[end].frame == stream[end - 1].frame + 1 { end += 1 }
            out += "\n" + timecode.label(frame: stream[index].frame, dropFrame: timecode.canDropFrames) + "\t"
            out += stream[index..<end].map { Self.hex(Self.withParity($0.word)) }.joined(separator: " ") + "\n"
            index = end
        }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { emit($0) }
    }

    // MARK: Scheduling

    /// The words to send, each on its frame, and how late captions come.
    private func schedule(_ document: TimedTextDocument, timecode: SMPTETimecode)
        -> (stream: [(frame: Int64, word: UInt16)], late: (count: Int, frames: Int64, location: SourceLocation?))
    {
        var stream: [(frame: Int64, word: UInt16)] = []
        var late: (count: Int, frames: Int64, location: SourceLocation?) = (0, 0, nil)
        var cursor: Int64 = 0
        var pendingErase: Int64?
        let rollRows = max(2, document.cues.map { CEA608Encoder.rows(of: $0).count }.max() ?? 2)
        func send(_ words: [UInt16]) {
            for word in words {
                stream.append((cursor, word))
                cursor += 1
            }
        }
        /// Sends the erase due by `frame`: on its frame, or (`early`) now, up to a frame early,
        /// rather than hold up loading.
        func eraseIfDue(before frame: Int64, early: Bool = false) {
            guard let erase = pendingErase, erase <= frame else { return }
            if !early { cursor = max(cursor, erase) }
            send(CEA608Encoder.doubled(CEA608Encoder.EDM))
            pendingErase = nil
        }
        for cue in document.cues {
            let start = timecode.frame(nearest: cue.start)
            let end = cue.end.map { max(timecode.frame(nearest: $0), start + 1) }
            let (items, anchor) = mode == .popOn ? CEA608Encoder.popOnItems(cue) : CEA608Encoder.rollUpItems(cue, rows: rollRows)
            if let erase = pendingErase, erase >= start { pendingErase = nil }  // replaced, not erased
            // Loading starts so that the anchor lands on the start frame, with room for an
            // erase of the caption before that falls while this one loads.
            var lead = Int64(items[..<anchor].reduce(0) { $0 + $1.count })
            if let erase = pendingErase, erase > start - lead - 2 { lead += 2 }
            eraseIfDue(before: start - lead)
            cursor = max(cursor, start - lead)
            for (offset, item) in items.enumerated() {
                // An erase due while this item is sent goes before it (a frame early at most).
                eraseIfDue(before: cursor + Int64(item.count) - 1, early: true)
                if offset == anchor {
                    cursor = max(cursor, start)
                    if cursor > start {
                        if late.count == 0 { late.location = cue.location }
                        late.count += 1
                        late.frames = max(late.frames, cursor - start)
                    }
                }
                send(item)
            }
            pendingErase = end
        }
        eraseIfDue(before: .max)
        return (stream, late)
    }

    private func lateness(of document: TimedTextDocument) -> (count: Int, frames: Int64, location: SourceLocation?) {
        schedule(document, timecode: SMPTETimecode(frameRate: frameRate)).late
    }

    /// A byte with the odd parity bit 608 sends.
    static func withParity(_ word: UInt16) -> UInt16 {
        func odd(_ byte: UInt16) -> UInt16 { byte.nonzeroBitCount % 2 == 0 ? byte | 0x80 : byte }
        return odd(word >> 8) << 8 | odd(word & 0x7F)
    }

    static func hex(_ word: UInt16) -> String {
        let digits = Array("0123456789abcdef")
        return String([word >> 12, word >> 8 & 15, word >> 4 & 15, word & 15].map { digits[Int($0)] })
    }
}

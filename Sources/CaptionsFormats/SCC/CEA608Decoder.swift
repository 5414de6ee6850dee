import CaptionsCore

/// A CEA-608 caption decoder: byte pairs in, cues out.
///
/// It keeps what a television's decoder keeps (displayed and non-displayed memory, cursor,
/// mode, attributes) and turns what the displayed memory shows into cues:
/// - **pop-on**: a cue from each End Of Caption to the next change of the screen;
/// - **roll-up**: a cue per row, from the carriage return (or roll-up code) that starts it,
///   showing the rows in the window as they stand when the row is complete;
/// - **paint-on**: a cue per word, from its first character (a cue per character would be
///   exact and unreadable).
///
/// Codes sent twice in a row count once (608's redundancy); codes of other channels, text-mode
/// data and XDS are skipped; unknown codes and codes out of place are tallied, never fatal: a
/// noisy stream recovers at the next address code, as a decoder does.
struct CEA608Decoder {
    /// The mode captions are shown in.
    enum Mode: Equatable {
        case popOn, paintOn
        case rollUp(rows: Int)
        /// Text mode (TR/RTD): its data is not captions.
        case text
    }

    /// The channel read, 1–4 (CC1, CC2 on field 1; CC3, CC4 on field 2).
    let channel: Int
    /// The media time of a clock count (times come in as counts: frames, or ticks).
    let clock: (Int64) -> MediaTime
    private(set) var cues: [Cue] = []
    private(set) var tally = DiagnosticTally()

    private var displayed = CEA608Memory(), buffer = CEA608Memory()
    private var mode: Mode = .popOn
    /// The cursor of the memory the mode writes to (the hidden one in pop-on, else the displayed one).
    private var row = 15, column = 0, baseRow = 15
    /// The other memory's cursor: each memory keeps its own, and End Of Caption swaps them with
    /// the memories (as hls.js, Shaka Player and ttconv decode; 608 does not say).
    private var idleCursor = (row: 15, column: 0)
    private var style = CellStyle.plain
    /// Whether the current data belongs to the channel read (CC1 until a code says otherwise).
    private var listening: Bool
    /// The field the last miscellaneous control code named (1 until one names 2).
    private var field = 1
    /// The field every pair comes from, when the transport says (A/53 `cc_type`); nil when only
    /// the codes tell (SCC).
    private let knownField: Int?
    private var previousControl: UInt16?
    /// What is on screen since when (the last cue not yet closed).
    private var shown = CEA608Memory(), shownSince: Int64?, shownLocation: SourceLocation?
    /// Where text went into hidden memory that no End Of Caption has shown yet.
    private var unshownLoad: SourceLocation?
    /// When the displayed memory began to change, for changes shown together later.
    private var pendingSince: Int64?, pendingLocation: SourceLocation?

    /// A decoder of `channel`; `field` is the field every pair comes from when the transport says
    /// (then field 2's miscellaneous codes are read whichever first byte an encoder used).
    init(channel: Int = 1, field: Int? = nil, clock: @escaping (Int64) -> MediaTime) {
        self.channel = channel
        self.clock = clock
        knownField = field
        self.field = field ?? 1
        listening = channel == (field == 2 ? 3 : 1)
    }

    /// Decodes one byte pair (parity bits included) received at `time` (a clock count).
    mutating func decode(_ first: UInt8, _ second: UInt8, at time: Int64, location: SourceLocation) {
        let b1 = first & 0x7F, b2 = second & 0x7F
        if first.nonzeroBitCount % 2 == 0 || second.nonzeroBitCount % 2 == 0, first != 0 || second != 0 {
            tally.add(.warning, "scc.parity", "a byte without odd parity (read with its parity bit ignored)", at: location)
        }
        guard b1 != 0 || b2 != 0 else { return }  // padding
        if b1 >= 0x10, b1 <= 0x1F {
            let word = UInt16(b1) << 8 | UInt16(b2)
            // The second of two identical control codes is the redundant copy.
            if previousControl == word {
                previousControl = nil
                return
            }
            previousControl = word
            control(b1, b2, at: time, location: location)
        } else {
            previousControl = nil
            if b1 < 0x10 {
                listening = false  // XDS (field 2): not captions
                return
            }
            guard listening, mode != .text else { return }
            write(CEA608Characters.standard(b1), at: time, location: location)
            if b2 >= 0x20 { write(CEA608Characters.standard(b2), at: time, location: location) }
        }
    }

    /// Closes the cue on screen at `time` (a clock count; nil: it lasts to the end of the media) and returns the cues.
    mutating func finish(at time: Int64?) -> [Cue] {
        showPending()
        if let unshownLoad, !buffer.visibleRows.isEmpty {
            tally.add(.warning, "scc.text.neverShown", "text loaded off screen but never shown: no End Of Caption (942f) follows it", at: unshownLoad)
        }
        if let since = shownSince, let (content, settings) = shown.cueParts() {
            cues.append(Cue(
                start: clock(since), end: time.map { clock(max($0, since)) }, settings: settings, content: content, location: shownLocation))
        }
        shownSince = nil
        return cues
    }

    // MARK: Control codes

    private mutating func control(_ b1: UInt8, _ b2: UInt8, at time: Int64, location: SourceLocation) {
        let dataChannel = b1 & 0x08 == 0 ? 1 : 2
        let code = b1 & 0xF7
        // Miscellaneous control codes name the field too: 0x14 field 1, 0x15 field 2.
        if (code == 0x14 || code == 0x15), (0x20...0x2F).contains(b2) {
            field = knownField ?? (code == 0x14 ? 1 : 2)
            listening = dataChannel + (field - 1) * 2 == channel
            guard listening else { return }
            miscellaneous(b2, at: time, location: location)
            return
        }
        // Other codes do not name the field: they belong to the last one named.
        listening = dataChannel + (field - 1) * 2 == channel
        guard listening, mode != .text else { return }
        switch (code, b2) {
        case (_, 0x40...0x7F):
            preambleAddress(code, b2, at: time)
        case (0x11, 0x20...0x2F):
            midRow(b2, at: time, location: location)
        case (0x11, 0x30...0x3F):
            write(CEA608Characters.special[Int(b2 - 0x30)], at: time, location: location)
        case (0x12, 0x20...0x3F), (0x13, 0x20...0x3F):
            // An extended character replaces the standard one sent before it for old decoders.
            column = max(column - 1, 0)
            let table = code == 0x12 ? CEA608Characters.extended12 : CEA608Characters.extended13
            write(table[Int(b2 - 0x20)], at: time, location: location)
        case (0x17, 0x21...0x23):
            column = min(column + Int(b2 - 0x20), CEA608Memory.storedColumns - 1)
        case (0x10, 0x20...0x2F), (0x17, 0x2D...0x2F), (0x17, 0x24...0x2A):
            break  // background attributes and character-set selection: no equivalent
        default:
            let message = "an unknown control code \(Self.hex(b1, b2)) skipped"
            tally.add(.warning, "scc.code.unknown", message, at: location)
        }
    }

    private mutating func miscellaneous(_ b2: UInt8, at time: Int64, location: SourceLocation) {
        switch b2 {
        case 0x20:  // RCL: resume caption loading
            setMode(.popOn)
        case 0x25, 0x26, 0x27:  // RU2, RU3, RU4
            let rows = Int(b2 - 0x23)
            if case .rollUp = mode {
                for row in 1...CEA608Memory.rows where row <= baseRow - rows || row > baseRow { clearDisplayed(row: row, at: time) }
            } else {
                showPending()
                displayed.clear()
                buffer.clear()
                show(at: time, location: location)
                markChanged(at: time, location: location)
                if mode == .popOn { idleCursor = (row, column) }  // the hidden memory's cursor
                baseRow = 15
                row = 15
                column = 0
            }
            mode = .rollUp(rows: rows)
            style = .plain
        case 0x29:  // RDC: resume direct captioning
            setMode(.paintOn)
        case 0x2A, 0x2B:  // TR, RTD: text mode
            setMode(.text)
        case 0x2C:  // EDM: erase displayed memory
            showPending()
            displayed.clear()
            show(at: time, location: location)
        case 0x2E:  // ENM: erase non-displayed memory
            buffer.clear()
            unshownLoad = nil
        case 0x2F:  // EOC: end of caption, the memories swap
            showPending()
            swap(&displayed, &buffer)
            unshownLoad = nil
            show(at: time, location: location)
            // The memory written to is now the other one, with its cursor (unless the mode wrote
            // to the displayed memory, which is now the hidden one written to).
            if mode == .popOn { swapCursors() }
            mode = .popOn
        case 0x2D:  // CR: carriage return
            guard case .rollUp(let rows) = mode else { return }
            showPending()
            // The row that starts here is shown from here, even where nothing scrolls.
            markChanged(at: time, location: location)
            for target in max(baseRow - rows + 1, 1)..<baseRow { copyDisplayed(row: target + 1, to: target, at: time, location: location) }
            if baseRow - rows >= 1 { clearDisplayed(row: baseRow - rows, at: time) }
            clearDisplayed(row: baseRow, at: time, location: location)
            row = baseRow
            column = 0
        case 0x21:  // BS: backspace
            guard column > 0 else { return }
            column -= 1
            let (row, column) = (row, column)
            edit(at: time, location: location) { $0.set(row: row, column: column, to: .empty) }
        case 0x24:  // DER: delete to end of row
            let (row, column) = (row, column)
            edit(at: time, location: location) { $0.clear(row: row, from: column) }
        case 0x22, 0x23, 0x28:  // alarm off/on, flash on
            break
        default:
            let message = "an unknown control code \(Self.hex(0x14, b2)) skipped"
            tally.add(.warning, "scc.code.unknown", message, at: location)
        }
    }

    private mutating func setMode(_ new: Mode) {
        if new != mode { showPending() }
        // Pop-on writes to the hidden memory, the other modes to the displayed one.
        if (new == .popOn) != (mode == .popOn) { swapCursors() }
        mode = new
    }

    private mutating func swapCursors() {
        let written = (row: row, column: column)
        (row, column) = idleCursor
        idleCursor = written
    }

    /// A preamble address code: row, and column or attributes.
    private mutating func preambleAddress(_ code: UInt8, _ b2: UInt8, at time: Int64) {
        let rowPairs: [UInt8: (Int, Int)] = [
            0x11: (1, 2), 0x12: (3, 4), 0x15: (5, 6), 0x16: (7, 8), 0x17: (9, 10), 0x10: (11, 11), 0x13: (12, 13), 0x14: (14, 15),
        ]
        guard let pair = rowPairs[code] else { return }
        let newRow = b2 & 0x20 == 0 ? pair.0 : pair.1
        let attribute = b2 & 0x1F
        if attribute >= 0x10 {
            style = CellStyle(color: 0, italic: false, underline: attribute & 1 == 1)
            column = Int((attribute - 0x10) >> 1) * 4
        } else {
            let value = attribute >> 1
            style = CellStyle(color: value == 7 ? 0 : value, italic: value == 7, underline: attribute & 1 == 1)
            column = 0
        }
        if case .rollUp(let rows) = mode, newRow != baseRow {
            // The window moves to the new base row, with what it shows.
            let old = displayed
            let top = max(newRow - rows + 1, 1)
            var changed = false
            for target in 1...CEA608Memory.rows {
                let source = target - newRow + baseRow
                let keep = target >= top && target <= newRow && source >= 1 && source <= CEA608Memory.rows
                for column in 0..<CEA608Memory.storedColumns {
                    changed = displayed.set(row: target, column: column, to: keep ? old[source, column] : .empty) || changed
                }
            }
            if changed { markChanged(at: time, location: nil) }
            baseRow = newRow
        }
        row = mode.isRollUp ? baseRow : newRow
    }

    /// A mid-row code: a space, and new attributes from there on (a colour turns italics off;
    /// italics keeps the colour).
    private mutating func midRow(_ b2: UInt8, at time: Int64, location: SourceLocation) {
        let value = (b2 & 0x0E) >> 1
        style = value == 7
            ? CellStyle(color: style.color, italic: true, underline: b2 & 1 == 1)
            : CellStyle(color: value, italic: false, underline: b2 & 1 == 1)
        write(" ", isCodeSpace: true, at: time, location: location)
    }

    // MARK: Memory

    private mutating func write(_ character: Unicode.Scalar, isCodeSpace: Bool = false, at time: Int64, location: SourceLocation) {
        let cell = CEA608Memory.Cell(character: character, style: style, isCodeSpace: isCodeSpace)
        let (row, column) = (row, column)
        // In paint-on, a word that starts shows the words before it as they stand.
        if mode == .paintOn, character != " ", column == 0 || (displayed[row, column - 1].character ?? " ") == " " { showPending() }
        if column == CEA608Memory.columns {
            tally.add(
                .warning, "scc.row.overflow",
                "text runs past column 32 (a television draws it over the last column); kept whole", at: location)
        }
        edit(at: time, location: location) { $0.set(row: row, column: column, to: cell) }
        self.column = min(column + 1, CEA608Memory.storedColumns - 1)
    }

    /// Applies `change` to the memory the mode writes to; `change` says whether it changed anything.
    private mutating func edit(at time: Int64, location: SourceLocation?, _ change: (inout CEA608Memory) -> Bool) {
        if mode == .popOn {
            if change(&buffer), unshownLoad == nil { unshownLoad = location }
        } else if change(&displayed) {
            markChanged(at: time, location: location)
        }
    }

    private mutating func clearDisplayed(row: Int, at time: Int64, location: SourceLocation? = nil) {
        if displayed.clear(row: row) { markChanged(at: time, location: location) }
    }

    private mutating func copyDisplayed(row source: Int, to target: Int, at time: Int64, location: SourceLocation) {
        if displayed.copy(row: source, to: target) { markChanged(at: time, location: location) }
    }

    // MARK: Cues

    private mutating func markChanged(at time: Int64, location: SourceLocation?) {
        if pendingSince == nil {
            pendingSince = time
            pendingLocation = location
        } else if pendingLocation == nil {
            pendingLocation = location
        }
    }

    private mutating func showPending() {
        guard let since = pendingSince else { return }
        show(at: since, location: pendingLocation)
    }

    /// The screen shows the displayed memory from `time`: the cue on screen until then ends.
    private mutating func show(at time: Int64, location: SourceLocation?) {
        pendingSince = nil
        pendingLocation = nil
        guard displayed != shown else { return }
        if let since = shownSince, let (content, settings) = shown.cueParts() {
            cues.append(Cue(start: clock(since), end: clock(max(time, since)), settings: settings, content: content, location: shownLocation))
        }
        shown = displayed
        shownSince = time
        shownLocation = location
    }

    private static func hex(_ b1: UInt8, _ b2: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([b1 >> 4, b1 & 15, b2 >> 4, b2 & 15].map { digits[Int($0)] })
    }
}

extension CEA608Decoder.Mode {
    var isRollUp: Bool {
        if case .rollUp = self { return true }
        return false
    }
}

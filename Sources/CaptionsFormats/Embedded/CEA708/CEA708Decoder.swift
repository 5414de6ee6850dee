import CaptionsCore

/// Decodes one CEA-708 caption service (CEA-708-E §7–8) into cues: its eight windows are kept as
/// a decoder keeps them, and each visible window that shows text is a cue, placed at the window's
/// anchor, from when it shows that text until it changes or is hidden.
///
/// As with CEA-608 roll-up, text typed into a shown window a few characters a picture is one cue
/// from its first character, not one cue a picture: a window's change is held until the next
/// command that moves, clears, shows or hides text (or the end), then shown from when it began.
///
/// Codes: C0 (ETX, BS, FF, CR, HCR, EXT1), G0 (ASCII, 0x7F ♪), C1 (CW0–7, CLW, DSW, HDW, TGW,
/// DLW, DLY, DLC, RST, SPA, SPC, SPL, SWA, DF0–7), G1 (Latin-1), G2 and G3 after EXT1; C2 and C3
/// are skipped by their lengths. Colours keep the nearest of 608's seven; fonts, sizes, edges,
/// backgrounds and delays are not carried (delays are noted once).
struct CEA708Decoder {
    let service: Int
    private var windows = [CEA708Window?](repeating: nil, count: 8)
    private var current = 0
    /// What each window shows on screen, since when, and where the text came from.
    private var shown = [(content: [InlineNode], settings: CueSettings, since: Int64, location: SourceLocation)?](
        repeating: nil, count: 8)
    /// When each window's shown text began to change, and where, until it is flushed.
    private var pending = [(since: Int64, location: SourceLocation)?](repeating: nil, count: 8)
    private var cues: [Cue] = []
    private let clock: (Int64) -> MediaTime
    private(set) var tally = DiagnosticTally()

    /// A decoder for `service` (1–63); `clock` turns a picture number into its time.
    init(service: Int, clock: @escaping (Int64) -> MediaTime) {
        self.service = service
        self.clock = clock
    }

    /// Decodes one service block, carried by picture `picture`.
    mutating func decode(_ bytes: [UInt8], picture: Int64, location: SourceLocation) {
        var index = 0
        func take(_ count: Int) -> [UInt8]? {
            guard count <= bytes.count - index else {
                tally.add(.warning, "cea708.command.truncated", "a command is cut short by the end of its service block; skipped", at: location)
                index = bytes.count
                return nil
            }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
        while index < bytes.count {
            let code = bytes[index]
            index += 1
            switch code {
            case 0x0C...0x0E, 0x88...0x8C, 0x8F, 0x98...0x9F: flushPending()
            default: break
            }
            switch code {
            case 0x00, 0x03: break  // NUL, ETX
            case 0x08: editCurrent { $0.backspace() }
            case 0x0C: editCurrent { $0.clear() }
            case 0x0D: editCurrent { $0.carriageReturn() }
            case 0x0E:
                editCurrent { window in
                    window.rows[window.penRow] = []
                    window.penColumn = 0
                }
            case 0x10:  // EXT1: G2, G3, C2, C3
                guard let extended = take(1)?.first else { break }
                if let count = extendedCode(extended) { _ = take(count) } else { index = bytes.count }
            case 0x01...0x0F: break
            case 0x11...0x17: _ = take(1)
            case 0x18...0x1F: _ = take(2)
            case 0x20...0x7E: write(Unicode.Scalar(code))
            case 0x7F: write("\u{266A}")
            case 0x80...0x87: current = Int(code & 7)
            case 0x88: if let map = take(1) { each(map[0]) { $0.clear() } }
            case 0x89: if let map = take(1) { each(map[0]) { $0.visible = true } }
            case 0x8A: if let map = take(1) { each(map[0]) { $0.visible = false } }
            case 0x8B: if let map = take(1) { each(map[0]) { $0.visible.toggle() } }
            case 0x8C:
                if let map = take(1) {
                    for id in 0..<8 where map[0] & (1 << id) != 0 { windows[id] = nil }
                }
            case 0x8D:
                _ = take(1)
                tally.add(.note, "cea708.delay.ignored", "a Delay command holds the service back; cues keep the times their data arrived", at: location)
            case 0x8E: break
            case 0x8F: windows = Array(repeating: nil, count: 8)
            case 0x90:
                if let p = take(2) {
                    editCurrent { window in
                        window.penStyle.italic = p[1] & 0x80 != 0
                        window.penStyle.underline = p[1] & 0x40 != 0
                    }
                }
            case 0x91: if let p = take(3) { editCurrent { $0.penStyle.color = Self.nearestColor(p[0]) } }
            case 0x92: if let p = take(2) { editCurrent { $0.movePen(row: Int(p[0] & 0x0F), column: Int(p[1] & 0x3F)) } }
            case 0x93...0x96: break
            case 0x97: if let p = take(4) { editCurrent { $0.justify = Int(p[2] & 0x03) } }
            case 0x98...0x9F:
                guard let p = take(6) else { break }
                let id = Int(code & 7)
                var window = windows[id] ?? CEA708Window()
                window.define(p, fresh: windows[id] == nil)
                windows[id] = window
                current = id
            default: write(Unicode.Scalar(code))  // G1: Latin-1
            }
        }
        update(at: picture, location: location)
    }

    /// The cues, once every block has been decoded; what is on screen lasts until `end`.
    mutating func finish(at end: Int64) -> [Cue] {
        flushPending()
        for id in 0..<8 { close(id, at: end) }
        return cues
    }

    // MARK: Codes

    /// Writes a G2 or G3 character; returns how many parameter bytes a C2 or C3 code has (nil:
    /// the rest of the block).
    private mutating func extendedCode(_ code: UInt8) -> Int? {
        switch code {
        case 0x00...0x07: return 0
        case 0x08...0x0F: return 1
        case 0x10...0x17: return 2
        case 0x18...0x1F: return 3
        case 0x80...0x87: return 4
        case 0x88...0x8F: return 5
        case 0x90...0x9F: return nil  // variable length
        case 0x20...0x7F:
            if let character = Self.g2[code] { write(character) }
            return 0
        default:
            write(code == 0xA0 ? "\u{1F132}" : "_")  // G3: only the [CC] icon is defined
            return 0
        }
    }

    /// G2 characters by code (the rest are unassigned).
    private static let g2: [UInt8: Unicode.Scalar] = [
        0x20: " ", 0x21: "\u{A0}", 0x25: "…", 0x2A: "Š", 0x2C: "Œ", 0x30: "█", 0x31: "‘", 0x32: "’", 0x33: "“", 0x34: "”",
        0x35: "•", 0x39: "™", 0x3A: "š", 0x3C: "œ", 0x3D: "℠", 0x3F: "Ÿ", 0x76: "⅛", 0x77: "⅜", 0x78: "⅝", 0x79: "⅞",
        0x7A: "│", 0x7B: "┐", 0x7C: "└", 0x7D: "─", 0x7E: "┘", 0x7F: "┌",
    ]

    /// The nearest of 608's seven colours to a SetPenColor foreground (2 bits of each of R, G, B).
    static func nearestColor(_ byte: UInt8) -> UInt8 {
        CharacterGrid.nearest(RGBAColor(red: ((byte >> 4) & 3) * 85, green: ((byte >> 2) & 3) * 85, blue: (byte & 3) * 85))
    }

    private mutating func write(_ character: Unicode.Scalar) {
        editCurrent { $0.write(character) }
    }

    /// Changes the current window, if it is defined (text for an undefined window is lost, as on
    /// a decoder).
    private mutating func editCurrent(_ change: (inout CEA708Window) -> Void) {
        guard var window = windows[current] else { return }
        change(&window)
        windows[current] = window
    }

    private mutating func each(_ map: UInt8, _ change: (inout CEA708Window) -> Void) {
        for id in 0..<8 where map & (1 << id) != 0 {
            guard var window = windows[id] else { continue }
            change(&window)
            windows[id] = window
        }
    }

    // MARK: Cues

    /// What window `id` shows now, if anything.
    private func showing(_ id: Int) -> (content: [InlineNode], settings: CueSettings)? {
        windows[id].flatMap { $0.visible ? $0.cueParts() : nil }
    }

    /// Whether window `id` showing `now` is what its cue already shows (nothing and no cue included).
    private func showsItsCue(_ id: Int, _ now: (content: [InlineNode], settings: CueSettings)?) -> Bool {
        guard let before = shown[id] else { return now == nil }
        return now.map { $0.content == before.content && $0.settings == before.settings } ?? false
    }

    /// After a block: a window whose shown text differs from its cue starts to change here.
    private mutating func update(at picture: Int64, location: SourceLocation) {
        for id in 0..<8 where pending[id] == nil {
            guard !showsItsCue(id, showing(id)) else { continue }
            pending[id] = (picture, location)
        }
    }

    /// Each changed window's cue ends, and its text as it stands now shows from when the change began.
    private mutating func flushPending() {
        for id in 0..<8 {
            guard let change = pending[id] else { continue }
            pending[id] = nil
            let now = showing(id)
            guard !showsItsCue(id, now) else { continue }
            close(id, at: change.since)
            if let now { shown[id] = (now.content, now.settings, change.since, change.location) }
        }
    }

    private mutating func close(_ id: Int, at picture: Int64) {
        guard let before = shown[id] else { return }
        shown[id] = nil
        // Text replaced within the same picture was never seen.
        guard picture > before.since else { return }
        cues.append(Cue(start: clock(before.since), end: clock(picture), settings: before.settings, content: before.content, location: before.location))
    }
}

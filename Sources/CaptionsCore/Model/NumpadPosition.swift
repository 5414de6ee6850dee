/// One of the nine screen positions of a numeric keypad, as SRT's `{\anN}` tag names them
/// (1 bottom left … 5 centre … 9 top right).
public struct NumpadPosition: RawRepresentable, Sendable, Hashable {
    /// 1 to 9.
    public let rawValue: Int

    /// A keypad position; `nil` outside 1…9.
    public init?(rawValue: Int) {
        guard (1...9).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Bottom centre, where captions go by default.
    public static let bottomCenter = NumpadPosition(uncheckedRawValue: 2)

    private init(uncheckedRawValue: Int) { rawValue = uncheckedRawValue }

    /// The WebVTT cue settings that place a cue there: the row sets `line` (auto for the bottom,
    /// 50 % centred for the middle, line 0 for the top), the column sets `align` (left, center, right).
    public var settings: CueSettings {
        var settings = CueSettings()
        switch (rawValue - 1) / 3 {
        case 1:
            settings.line = .value(50)
            settings.snapToLines = false
            settings.lineAlign = .center
        case 2:
            settings.line = .value(0)
        default:
            break
        }
        settings.align = [.left, .center, .right][(rawValue - 1) % 3]
        return settings
    }

    /// The keypad position closest to where `settings` would place a cue.
    public static func nearest(to settings: CueSettings) -> NumpadPosition {
        let row: Int
        switch settings.line {
        case .auto: row = 0
        case .value(let value) where settings.snapToLines: row = value < 0 ? 0 : 2
        case .value(let value): row = value < 100.0 / 3 ? 2 : value < 200.0 / 3 ? 1 : 0
        }
        let column: Int
        switch settings.align {
        case .left, .start: column = 0
        case .right, .end: column = 2
        case .center: column = 1
        }
        return NumpadPosition(uncheckedRawValue: row * 3 + column + 1)
    }
}

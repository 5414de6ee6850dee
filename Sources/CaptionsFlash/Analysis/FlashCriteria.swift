/// Which rules a scan applies.
public struct FlashCriteria: Sendable, Hashable {
    /// The guideline the verdict follows.
    public enum Standard: String, Sendable, Hashable, CaseIterable {
        /// WCAG 2.x success criterion 2.3.1 (level A): no more than three general or red flashes in
        /// any second, unless the flashing area stays within 25 % of any 10° visual field.
        case wcag
        /// WCAG 2.x success criterion 2.3.2 (level AAA): no more than three flashes in any second,
        /// whatever their area.
        case wcagAAA = "wcag-aaa"
        /// ITU-R BT.1702: changes of 20 cd/m² with the darker state below 160 cd/m² (white at
        /// 200 cd/m²), failing when the flashing area exceeds 25 % of the screen.
        case itu
    }

    /// How saturated red is recognised.
    public enum RedRule: String, Sendable, Hashable, CaseIterable {
        /// WCAG 2.2: a state is saturated red when R / (R + G + B) ≥ 0.8; a red transition is a
        /// change of more than 0.2 in CIE 1976 u′v′ chromaticity to or from such a state.
        case wcag22
        /// The older (R − G − B) × 320 > 20 rule (Harding), transitions of 20 or more on that scale.
        case harding
    }

    /// The guideline.
    public var standard: Standard
    /// The red rule.
    public var redRule: RedRule
    /// Also warn about sustained flashing: 4–6 transitions a second for 4 s within 5 s (broadcast practice).
    public var warnSustained: Bool

    /// Criteria with WCAG 2.3.1 and the WCAG 2.2 red rule by default.
    public init(standard: Standard = .wcag, redRule: RedRule = .wcag22, warnSustained: Bool = false) {
        self.standard = standard
        self.redRule = redRule
        self.warnSustained = warnSustained
    }

    /// A general transition: relative luminance changes by at least this much (0.1; ITU: 20 of 200 cd/m²).
    var luminanceChange: Float { 0.1 }
    /// ... with the darker state below this (0.8; ITU: 160 of 200 cd/m²).
    var darkerStateLimit: Float { 0.8 }
    /// More transitions than this in any second fail: more than three flashes.
    static let maximumTransitionsPerSecond = 6
    /// The share of the area measure that must not flash.
    static let maximumAreaShare: Float = 0.25
}

import CaptionsFlash
import CaptionsMedia

/// `dim --method wcag`: the least dimming that makes each failing stretch pass.
///
/// Each hazard of the input's scan (hazards less than 2 s apart are one stretch) gets its own
/// strength s, 0–1: contrast (1 − s)² and brightness 1 − s around the viewer's adaptation level
/// (Apple's model's, as `--method dfl` uses), and for red flashing the colour desaturated by s as
/// well. s is ramped in over the 0.5 s before the stretch and out over the 0.5 s after it, so the
/// dimming itself does not flash. The strengths are found together by bisection: each round
/// decodes the video with the candidate dimming applied and scans it, and a stretch that passes
/// keeps the smaller strength. Six rounds find s to 1/64.
struct LeastDimming {
    /// One failing stretch and its strength.
    struct Stretch {
        var start: Double
        var end: Double
        var red: Bool
        /// The bisection's bounds: `low` fails, `high` passes.
        var low = 0.0
        var high = 1.0
        /// The least strength known to pass.
        var strength: Double { high }
    }

    /// Seconds of ramp on each side of a stretch.
    static let ramp = 0.5
    /// Bisection rounds.
    static let rounds = 6
    /// Times the file is written at most: once, and again with more dimming while the encoded
    /// pictures still fail (``strengthen(failing:)``).
    static let attempts = 3

    var stretches: [Stretch]
    /// The display's peak in cd/m² (HDR light is changed as a share of it).
    var displayPeak = 100.0

    /// The stretches to dim in a scan's hazards, for a display of `displayPeak` cd/m².
    init(hazards: [FlashReport.Hazard], displayPeak: Double = 100) {
        self.displayPeak = displayPeak
        var stretches: [Stretch] = []
        for hazard in hazards.sorted(by: { $0.start < $1.start }) {
            if let last = stretches.last, hazard.start - last.end < 2 {
                stretches[stretches.count - 1].end = max(last.end, hazard.end)
                stretches[stretches.count - 1].red = last.red || hazard.kind == .red
            } else {
                stretches.append(Stretch(start: hazard.start, end: hazard.end, red: hazard.kind == .red))
            }
        }
        self.stretches = stretches
    }

    /// The strength of stretch `index` at `time`: `strength` inside, ramped at the sides.
    static func weight(of stretch: Stretch, at time: Double) -> Double {
        if time >= stretch.start, time <= stretch.end { return 1 }
        let distance = time < stretch.start ? stretch.start - time : time - stretch.end
        return max(0, 1 - distance / ramp)
    }

    /// The change at `time` with the stretches' current strengths (or the bisection's
    /// candidates), around `adaptation` (0–1).
    func change(at time: Double, adaptation: Double, candidates: Bool) -> LightChange? {
        var strength = 0.0, saturationCut = 0.0
        for stretch in stretches {
            let weight = Self.weight(of: stretch, at: time)
            guard weight > 0 else { continue }
            let s = (candidates ? (stretch.low + stretch.high) / 2 : stretch.strength) * weight
            strength = max(strength, s)
            if stretch.red { saturationCut = max(saturationCut, s) }
        }
        guard strength > 0 else { return nil }
        var change = LightChange(
            contrast: (1 - strength) * (1 - strength), brightness: 1 - strength, adaptation: adaptation,
            saturation: 1 - saturationCut)
        change.displayPeak = displayPeak
        return change
    }

    /// Takes a round's scan: each stretch with no hazard within a second of it passes at its
    /// candidate strength and keeps it as its upper bound; the others raise their lower bound.
    mutating func record(_ hazards: [FlashReport.Hazard]) {
        for index in stretches.indices {
            let stretch = stretches[index]
            let middle = (stretch.low + stretch.high) / 2
            let fails = hazards.contains { $0.end >= stretch.start - 1 && $0.start <= stretch.end + 1 }
            if fails { stretches[index].low = middle } else { stretches[index].high = middle }
        }
    }

    /// Dims more each stretch that the written file's scan still finds failing: its strength
    /// goes an eighth of the way up (at least 1/32). Returns whether any stretch changed.
    mutating func strengthen(failing hazards: [FlashReport.Hazard]) -> Bool {
        var changed = false
        for index in stretches.indices where stretches[index].high < 1 {
            let stretch = stretches[index]
            guard hazards.contains(where: { $0.end >= stretch.start - 1 && $0.start <= stretch.end + 1 }) else { continue }
            stretches[index].low = stretch.high
            stretches[index].high = min(1, stretch.high + max(1.0 / 32, (1 - stretch.high) / 8))
            changed = true
        }
        return changed
    }
}

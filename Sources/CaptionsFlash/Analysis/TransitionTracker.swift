/// When a change of light counts as a flash transition.
///
/// - Relative (SDR, WCAG): a change of at least 0.1 of white where the darker state is below 0.8.
/// - Absolute (HDR, in cd/m², following WCAG's understanding of 2.3.1 for video outside sRGB and
///   ITU-R BT.1702-3): a change of at least 20 cd/m² where the darker state is below 160 cd/m²,
///   and a Michelson contrast (L1 − L2) / (L1 + L2) of at least 1/17 where it is 160 cd/m² or
///   more. The two meet at 160 cd/m² (a change of 20), so the rule is one threshold:
///   max(20, darker / 8).
struct LuminanceRule: Sendable, Equatable {
    /// Relative (0–1) or absolute (cd/m²).
    let absolute: Bool

    /// Whether a move from `a` to `b` is large enough to be a transition (or to turn one).
    @inline(__always)
    func significant(_ a: Float, _ b: Float) -> Bool {
        let darker = min(a, b)
        let change = abs(a - b)
        return absolute ? change >= max(20, darker / 8) : change >= 0.1
    }

    /// Whether a significant move between `a` and `b` counts (SDR: the darker state below 0.8).
    @inline(__always)
    func qualifies(_ a: Float, _ b: Float) -> Bool {
        absolute ? true : min(a, b) < 0.8
    }
}

/// Finds transitions in one cell's series of values: moves between a peak and the next valley
/// (or valley and next peak) that the rule finds significant.
///
/// A move that keeps going the same way extends the current transition instead of starting a new
/// one, and wobbles smaller than the threshold are ignored, so a slow fade or noise never counts.
/// A transition counts once, as soon as its two ends qualify (for general flashes: the darker end
/// below 0.8).
struct TransitionTracker {
    private var anchor: Float = 0
    private var extreme: Float = 0
    private var direction: Int8 = 0
    private var counted = false
    private var started = false

    /// The size of the current transition (the swing from the last turning point).
    var amplitude: Float { abs(extreme - anchor) }
    /// Whether the current transition is a rise (after ``update(_:rule:)`` returned true: the
    /// transition it completed).
    var rising: Bool { direction > 0 }

    /// The same tracker with its values on another scale of light (SDR and HDR meeting).
    mutating func rescale(by factor: Float) {
        anchor *= factor
        extreme *= factor
    }

    /// Feeds the next value; true when this value completes a qualifying transition.
    @inline(__always)
    mutating func update(_ value: Float, rule: LuminanceRule) -> Bool {
        update(value, significant: rule.significant, qualifies: rule.qualifies)
    }

    /// Feeds the next value with a rule given as functions; true when it completes a transition.
    @inline(__always)
    mutating func update(
        _ value: Float, significant: (Float, Float) -> Bool, qualifies: (Float, Float) -> Bool
    ) -> Bool {
        guard started else {
            (anchor, extreme, started) = (value, value, true)
            return false
        }
        switch direction {
        case 0:
            guard significant(anchor, value) else { return false }
            direction = value > anchor ? 1 : -1
            extreme = value
            counted = qualifies(anchor, extreme)
            return counted
        case 1 where value >= extreme, -1 where value <= extreme:
            extreme = value
            guard !counted, qualifies(anchor, extreme) else { return false }
            counted = true
            return true
        default:
            guard significant(extreme, value) else { return false }
            (anchor, extreme) = (extreme, value)
            direction = -direction
            counted = qualifies(anchor, extreme)
            return counted
        }
    }
}

/// Finds red transitions by chromaticity: a change of more than 0.2 in CIE 1976 u′v′ between two
/// states at least one of which is saturated red (WCAG 2.2).
///
/// The reference state is kept as linear R, G, B, and chromaticity is worked out only when one of
/// the two states is red: most content never is, and then the tracker costs a comparison.
struct ChromaticityTracker {
    private var reference: (r: Float, g: Float, b: Float) = (0, 0, 0)
    private var referenceIsRed = false
    private var started = false

    /// Whether the state now held is saturated red (after ``update(r:g:b:isRed:chromaticity:)``
    /// returned true: a transition toward red, not away from it).
    var towardRed: Bool { referenceIsRed }

    /// The same tracker with its reference on another scale of light (SDR and HDR meeting).
    mutating func rescale(by factor: Float) {
        reference = (reference.r * factor, reference.g * factor, reference.b * factor)
    }

    /// Feeds the next state (linear R, G, B, and whether it is saturated red); true when it is a
    /// red transition. `chromaticity` gives u′v′ of linear R, G, B.
    @inline(__always)
    mutating func update(
        r: Float, g: Float, b: Float, isRed: Bool, chromaticity: ChromaticityMap
    ) -> Bool {
        guard started else {
            (reference, referenceIsRed, started) = ((r, g, b), isRed, true)
            return false
        }
        guard isRed || referenceIsRed else {
            reference = (r, g, b)
            return false
        }
        let (u, v) = chromaticity(r, g, b)
        let (referenceU, referenceV) = chromaticity(reference.r, reference.g, reference.b)
        let du = u - referenceU
        let dv = v - referenceV
        if du * du + dv * dv > 0.04 {
            (reference, referenceIsRed) = ((r, g, b), isRed)
            return true
        }
        if isRed == referenceIsRed { reference = (r, g, b) }
        return false
    }
}

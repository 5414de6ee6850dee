/// Finds transitions in one block's series of values: moves between a peak and the next valley
/// (or valley and next peak) of at least `threshold`.
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

    /// Feeds the next value; true when this value completes a qualifying transition.
    @inline(__always)
    mutating func update(_ value: Float, threshold: Float, qualifies: (Float, Float) -> Bool) -> Bool {
        guard started else {
            (anchor, extreme, started) = (value, value, true)
            return false
        }
        switch direction {
        case 0:
            guard abs(value - anchor) >= threshold else { return false }
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
            guard abs(extreme - value) >= threshold else { return false }
            (anchor, extreme) = (extreme, value)
            direction = -direction
            counted = qualifies(anchor, extreme)
            return counted
        }
    }
}

/// Finds red transitions by chromaticity: a change of more than 0.2 in CIE 1976 u′v′ between two
/// states at least one of which is saturated red (WCAG 2.2).
struct ChromaticityTracker {
    private var reference = (u: Float(0), v: Float(0), isRed: false)
    private var started = false

    /// Feeds the next state; true when it is a red transition.
    @inline(__always)
    mutating func update(u: Float, v: Float, isRed: Bool) -> Bool {
        guard started else {
            reference = (u, v, isRed)
            started = true
            return false
        }
        let du = u - reference.u
        let dv = v - reference.v
        let changed = du * du + dv * dv > 0.04
        if changed && (isRed || reference.isRed) {
            reference = (u, v, isRed)
            return true
        }
        if isRed == reference.isRed { reference = (u, v, isRed) }
        return false
    }
}

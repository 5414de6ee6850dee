/// Apple's model over a stream, frame by frame: on the whole frame, and on each 10° field's own
/// level (the local risk). Its frame rate is the stream's; when the stream does not say, and the
/// first frame does not carry its duration, it is taken from the first two frames' times (the
/// first frame waits for the second).
public struct DimFlashingLightsRun: Sendable {
    /// What the model gives for one frame.
    public struct Figures: Sendable {
        /// The whole frame's risk, 0–100, and how much Apple's model dims it, 0–1.
        public var risk: Double
        public var mitigation: Double
        /// The light adaptation level after the frame, in cd/m².
        public var adaptation: Double
        /// The largest risk, and the largest mitigation, of any 10° field.
        public var localRisk: Double
        public var localMitigation: Double
    }

    let display: DimFlashingLights.Display
    private let givenRate: Double?
    private var whole: DimFlashingLights?
    private var fields: [DimFlashingLights] = []
    private var pending: (time: Double, level: Double, fieldLevels: [Double])?

    /// The frame rate modelled, once known (0 before).
    var frameRate: Int { whole?.frameRate ?? 0 }

    init(display: DimFlashingLights.Display, frameRate: Double?) {
        self.display = display
        givenRate = frameRate
    }

    /// Feeds the frame shown at `time` (lasting `duration`, when known) with its picture level and
    /// its fields' levels; returns the figures of the frames now complete, oldest first: this one,
    /// and the one before when it waited for this one.
    mutating func next(time: Double, duration: Double?, level: Double, fieldLevels: [Double]) -> [Figures] {
        if whole == nil {
            let rate: Double
            if let givenRate {
                rate = givenRate
            } else if let duration, duration > 0 {
                rate = 1 / duration
            } else if let pending {
                rate = time > pending.time ? 1 / (time - pending.time) : 24
            } else {
                pending = (time, level, fieldLevels)
                return []
            }
            whole = DimFlashingLights(display: display, frameRate: rate)
        }
        var figures: [Figures] = []
        if let waiting = pending {
            pending = nil
            figures.append(advance(level: waiting.level, fieldLevels: waiting.fieldLevels))
        }
        figures.append(advance(level: level, fieldLevels: fieldLevels))
        return figures
    }

    /// The figures of a frame still waiting at the end (a one-frame stream: Apple's 24 frames a
    /// second assumed).
    mutating func finish() -> [Figures] {
        guard let waiting = pending else { return [] }
        pending = nil
        whole = DimFlashingLights(display: display, frameRate: 24)
        return [advance(level: waiting.level, fieldLevels: waiting.fieldLevels)]
    }

    private mutating func advance(level: Double, fieldLevels: [Double]) -> Figures {
        guard var model = whole else {
            return Figures(risk: 0, mitigation: 0, adaptation: 0, localRisk: 0, localMitigation: 0)
        }
        let output = model.next(apl: level)
        whole = model
        if fields.count != fieldLevels.count {
            // A new set of fields (a new grid) starts its models afresh.
            fields = Array(
                repeating: DimFlashingLights(display: display, frameRate: Double(model.frameRate)), count: fieldLevels.count)
        }
        var localRisk = 0.0, localMitigation = 0.0
        for index in fields.indices {
            let field = fields[index].next(apl: fieldLevels[index])
            localRisk = max(localRisk, field.risk)
            localMitigation = max(localMitigation, field.mitigation)
        }
        return Figures(
            risk: output.risk, mitigation: output.mitigation, adaptation: output.adaptation, localRisk: localRisk,
            localMitigation: localMitigation)
    }
}

import CaptionsCore

/// The result of a flash scan: a verdict, the hazards found, and the measures behind them.
public struct FlashReport: Sendable {
    /// Pass, fail, or unknown.
    public enum Verdict: String, Sendable {
        /// No hazard found.
        case pass
        /// At least one hazard.
        case fail
        /// Nothing could be analysed: never a pass.
        case unknown
    }

    /// What kind of flashing.
    public enum Kind: String, Sendable, CaseIterable {
        /// Changes of relative luminance.
        case general
        /// Changes to or from saturated red.
        case red
    }

    /// A stretch of time that fails the criteria.
    public struct Hazard: Sendable {
        /// General or red flashing.
        public var kind: Kind
        /// Start of the first failing one-second window, in seconds.
        public var start: Double
        /// The last failing frame, in seconds.
        public var end: Double
        /// The most flashes (half the transitions) in one second by any flashing block.
        public var peakFlashesPerSecond: Double
        /// The largest share of a 10° field covered by flashing blocks (0–1).
        public var peakAreaShare: Double
        /// The largest share of the whole screen covered by flashing blocks (0–1).
        public var peakScreenShare: Double
        /// Whether the flashing moves about: in every failing frame no one place flashes more than
        /// three times a second, but flashes of that size follow each other through a 10° field
        /// (or the screen) more often.
        public var moves = false
    }

    /// A warning that does not fail (sustained flashing at 2–3 flashes a second).
    public struct Warning: Sendable, Equatable {
        /// A stable code such as `flash.sustained`.
        public var code: String
        /// A sentence for people.
        public var message: String
        /// When it starts, in seconds.
        public var start: Double
        /// When it ends, in seconds.
        public var end: Double

        /// A warning over `start`–`end`.
        public init(code: String, message: String, start: Double, end: Double) {
            self.code = code
            self.message = message
            self.start = start
            self.end = end
        }
    }

    /// What was measured for one frame.
    public struct FrameMeasure: Sendable {
        /// Presentation time in seconds.
        public var time: Double
        /// Mean luminance of the frame (relative 0–1, or cd/m² for HDR: see ``FlashReport/luminanceUnit``).
        public var meanLuminance: Double
        /// Largest 10° share of blocks flashing too often, general and red.
        public var generalAreaShare: Double
        /// See ``generalAreaShare``.
        public var redAreaShare: Double
        /// Whole-screen share of blocks flashing too often, general and red.
        public var generalScreenShare: Double
        /// See ``generalScreenShare``.
        public var redScreenShare: Double
        /// The most flashes per second of any block over the last second.
        public var flashesPerSecond: Double
        /// Apple's average picture level (mean display light of the frame, 0–1; see
        /// ``DimFlashingLights``).
        public var averagePictureLevel: Double
        /// Apple's Dim Flashing Lights risk for the whole frame on ``FlashReport/display``, 0–100.
        public var dflRisk: Double
        /// How much Apple's model dims the frame, 0–1.
        public var dflMitigation: Double
        /// The same model run on each 10° field's own light: the largest risk of any, 0–100.
        public var dflLocalRisk: Double
        /// Whether the frame fails the criteria.
        public var fails: Bool
    }

    /// One second of the video, summarised.
    public struct SecondSummary: Sendable {
        /// The second, counted from 0.
        public var second: Int
        /// The most flashes per second of any block in it.
        public var flashesPerSecond: Double
        /// The largest 10° share of flashing blocks in it (general or red).
        public var areaShare: Double
        /// Whether any frame in it fails.
        public var fails: Bool
    }

    /// The criteria used.
    public var criteria: FlashCriteria
    /// Pass or fail.
    public var verdict: Verdict
    /// True when the video could not be read to its end; the report covers what was read.
    public var partial: Bool
    /// Why the scan stopped early, when it did.
    public var partialReason: String?
    /// The video's size in pixels.
    public var width: Int
    /// See ``width``.
    public var height: Int
    /// Frames analysed.
    public var frameCount: Int
    /// Seconds from the first to the last frame analysed.
    public var duration: Double
    /// The hazards, in time order.
    public var hazards: [Hazard]
    /// Non-failing warnings.
    public var warnings: [Warning]
    /// Per-second summary.
    public var seconds: [SecondSummary]
    /// Per-frame measures.
    public var frames: [FrameMeasure]
    /// How code values were turned into light: transfer, matrix, range and primaries.
    public var colour: String
    /// The first frames' size, depth, sample kind and scanning ("720×576 8-bit YUV interlaced, top field first").
    public var pictures: String
    /// The general-flash rule applied.
    public var luminanceRule: String
    /// "relative" (SDR: 0–1 of white) or "cd/m²" (HDR).
    public var luminanceUnit: String
    /// Where the video's first frame is in the file's own timeline, in seconds (times in the
    /// report count from the first frame shown, as players show them).
    public var streamStart: Double?
    /// Stretches of time with no decodable picture (damage), which the verdict cannot cover.
    public var missing: [Warning] = []
    /// The display Apple's Dim Flashing Lights model was tuned to.
    public var display = DimFlashingLights.Display.standard
    /// The frame rate that model ran at (whole frames per second).
    public var dflFrameRate = 0
    /// Facts about the stream worth knowing (field order, rotation, guesses made about untagged colour).
    public var notes: [String] = []
    /// Whether part of ``colour`` was guessed because the stream does not say it (the guesses are in ``notes``).
    public var colourGuessed = false

    /// A report; the decoding facts (``streamStart``, ``missing``, ``notes``) are added after.
    public init(
        criteria: FlashCriteria, verdict: Verdict, partial: Bool, partialReason: String?, width: Int, height: Int,
        frameCount: Int, duration: Double, hazards: [Hazard], warnings: [Warning], seconds: [SecondSummary],
        frames: [FrameMeasure], colour: String, luminanceRule: String, luminanceUnit: String, pictures: String = ""
    ) {
        self.pictures = pictures
        self.criteria = criteria
        self.verdict = verdict
        self.partial = partial
        self.partialReason = partialReason
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.duration = duration
        self.hazards = hazards
        self.warnings = warnings
        self.seconds = seconds
        self.frames = frames
        self.colour = colour
        self.luminanceRule = luminanceRule
        self.luminanceUnit = luminanceUnit
    }
}

extension FlashReport {
    /// A stretch of frames where Apple's model gives a risk above zero.
    public struct RiskSpan: Sendable, Equatable {
        /// The first such frame, in seconds.
        public var start: Double
        /// The end of the last such frame, in seconds.
        public var end: Double
        /// The largest risk in it, 0–100.
        public var peakRisk: Double
        /// The most the model dims in it, 0–1.
        public var peakMitigation: Double
    }

    /// How long a frame lasts, from the last two frames (1/25 s when there are fewer).
    var frameDuration: Double {
        frames.count >= 2 ? max(0.001, frames[frames.count - 1].time - frames[frames.count - 2].time) : 1.0 / 25
    }

    /// The stretches where Apple's Dim Flashing Lights risk is above zero.
    public var dflSpans: [RiskSpan] {
        var spans: [RiskSpan] = []
        var open = false
        for (index, frame) in frames.enumerated() {
            guard frame.dflRisk > 0 else {
                open = false
                continue
            }
            let end = index + 1 < frames.count ? frames[index + 1].time : frame.time + frameDuration
            if open {
                spans[spans.count - 1].end = end
                spans[spans.count - 1].peakRisk = max(spans[spans.count - 1].peakRisk, frame.dflRisk)
                spans[spans.count - 1].peakMitigation = max(spans[spans.count - 1].peakMitigation, frame.dflMitigation)
            } else {
                spans.append(RiskSpan(start: frame.time, end: end, peakRisk: frame.dflRisk, peakMitigation: frame.dflMitigation))
                open = true
            }
        }
        return spans
    }
}


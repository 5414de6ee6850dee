#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Apple's Dim Flashing Lights model: a perceptual flashing risk (0–100) and a mitigation (0–1,
/// how much a player dims) for each frame, from the frame's average picture level, tuned to the
/// display's peak luminance and size.
///
/// This follows the model Apple published (apple/VideoFlashingReduction, MIT; the kernel table
/// is ``kernels``), step for step as `../shared/dfl/README.md` describes it:
/// 1. the frame's luminance on the display, `APL × peak`, and a light adaptation level that
///    follows it with a 1 s time constant;
/// 2. the contrast of the frame against the adaptation level;
/// 3. that contrast filtered by five temporal contrast kernels (one per standard luminance, for
///    the display size and frame rate nearest the given ones), the responses squared and pooled
///    over time by a gamma kernel;
/// 4. an energy interpolated between the five kernels by the adaptation level, turned into a risk
///    by a threshold and a saturating curve, and a mitigation that rises at once and falls back
///    with a 2 s time constant.
///
/// It sees only the whole frame's average: it is not a WCAG 2.3.1 or BT.1702 compliance test
/// (``FlashAnalyzer`` is); the two are reported side by side.
public struct DimFlashingLights: Sendable {
    /// The display the video is watched on.
    public struct Display: Sendable, Equatable {
        /// Peak luminance in cd/m².
        public var peak: Double
        /// The picture's area in square degrees of visual angle.
        public var area: Double

        /// A display; `peak` in cd/m², `area` in square degrees.
        public init(peak: Double, area: Double) {
            self.peak = peak
            self.area = area
        }

        /// Apple's default: 100 cd/m², 1265.625 deg² (a Mac or larger screen at its usual distance).
        public static let standard = Display(peak: 100, area: 1265.625)

        /// Named displays: a 16:9 picture filling the screen's width at a usual viewing distance,
        /// its area the product of its angular width and height (the README lists them).
        public static let presets: [(name: String, display: Display)] = [
            // Apple's iPhone setting.
            ("phone", Display(peak: 500, area: 250)),
            // An 11-inch tablet at 40 cm: 24.6 × 13.8 cm, 34.2° × 19.6°.
            ("tablet", Display(peak: 500, area: 669)),
            // A 14-inch laptop at 55 cm: 30.2 × 17.0 cm, 30.7° × 17.6°.
            ("laptop", Display(peak: 500, area: 539)),
            // A 55-inch TV at 1.5 m: 121.8 × 68.5 cm, 44.2° × 25.7°, at a living room's 200 cd/m².
            ("tv", Display(peak: 200, area: 1136)),
        ]

        /// The preset called `name`, if there is one.
        public static func preset(_ name: String) -> Display? {
            presets.first { $0.name == name }?.display
        }
    }

    /// What the model gives for one frame.
    public struct Output: Sendable, Equatable {
        /// The frame's average picture level: mean linear luminance, 0–1.
        public var apl: Double
        /// The light adaptation level in cd/m².
        public var adaptation: Double
        /// The flashing risk, 0–100.
        public var risk: Double
        /// How much a player should dim this frame, 0–1.
        public var mitigation: Double
    }

    /// The display modelled.
    public let display: Display
    /// The frame rate modelled (whole frames per second).
    public let frameRate: Int

    /// The highest frame rate modelled.
    public static let maximumFrameRate = 480
    private static let standardSizes: [Double] = [6, 20, 45]
    private static let standardLuminances: [Double] = [0.2, 1, 10, 150, 500]
    private static let standardRates: [Int] = [24, 25, 30, 50, 60, 90, 120]
    private static let areaExponent = 0.263
    private static let riskThreshold = 33.0
    private static let riskScale = 200.0
    private static let gateThreshold = 1.8

    private let muAdapt: Double
    private let muRelease: Double
    private let contrastKernels: [[Double]]
    private let kernelEnergy: [Double]
    /// The pooling kernel, g(1/f), g(2/f), …
    private let pooling: [Double]
    private let responseAdjust: Double
    private let logLuminances: [Double]

    private var adaptation: Double?
    private var mitigation = 0.0
    /// The last contrasts, newest last, as long as the longest kernel.
    private var contrasts: RingBuffer
    /// Per level, the last squared responses and squared normalised responses, newest last.
    private var responses: [RingBuffer]
    private var normalised: [RingBuffer]

    /// The model for `display`, at `frameRate` frames per second (rounded to a whole number,
    /// and kept within 1–480: a stream that claims more has bad timestamps, not more frames).
    public init(display: Display = .standard, frameRate: Double) {
        self.display = display
        let f = frameRate.isFinite ? min(Self.maximumFrameRate, max(1, Int(frameRate.rounded()))) : 24
        self.frameRate = f
        muAdapt = 1 - exp(-1 / (1 * Double(f)))
        muRelease = 1 - exp(-1 / (2 * Double(f)))
        let rateIndex = Self.nearest(Double(f), in: Self.standardRates.map(Double.init))
        let size = (1.6 * display.area).squareRoot()
        let sizeIndex = Self.nearest(size, in: Self.standardSizes)
        contrastKernels = (0..<5).map { level in Self.kernels[(sizeIndex * 5 + level) * 7 + rateIndex] }
        kernelEnergy = contrastKernels.map { kernel in kernel.reduce(0) { $0 + $1 * $1 } }
        var pooling: [Double] = []
        var sum = 0.0
        var step = 1
        repeat {
            let t = Double(step) / Double(f)
            let value = t * exp(-t / 0.15) / (0.15 * 0.15)
            pooling.append(value)
            sum += value
            step += 1
        // At low frame rates (below about 13 frames a second) the sum of the sampled kernel never
        // reaches 0.99: the kernel stops after 2 s instead, where it is below 10^-4 of its peak.
        } while sum / Double(f) <= 0.99 && Double(step) / Double(f) <= 2
        self.pooling = pooling
        responseAdjust = pow(size / Self.standardSizes[sizeIndex], 2 * Self.areaExponent) / Double(f).squareRoot()
        logLuminances = Self.standardLuminances.map(log10)
        contrasts = RingBuffer(count: contrastKernels.map(\.count).max() ?? 1)
        responses = (0..<5).map { _ in RingBuffer(count: pooling.count) }
        normalised = responses
    }

    /// The index of the value in `values` nearest `value` (the first on a tie).
    private static func nearest(_ value: Double, in values: [Double]) -> Int {
        var best = 0
        for index in values.indices where abs(values[index] - value) < abs(values[best] - value) { best = index }
        return best
    }

    /// Advances the model by one frame whose average picture level (mean linear luminance, 0–1)
    /// is `apl`.
    public mutating func next(apl: Double) -> Output {
        let luminance = apl * display.peak
        let adapted = adaptation.map { muAdapt * luminance + (1 - muAdapt) * $0 } ?? luminance
        adaptation = adapted
        let contrast = adapted > 0 ? (luminance - adapted) / adapted : 0
        contrasts.append(contrast.isFinite ? contrast : 0)
        var pooled = [Double](repeating: 0, count: 5)
        var gate = 0.0
        for level in 0..<5 {
            let kernel = contrastKernels[level]
            var response = 0.0, aligned = 0.0, bufferEnergy = 0.0
            // The kernel's length of newest contrasts, oldest first.
            for index in 0..<kernel.count {
                let value = contrasts.fromNewest(kernel.count - 1 - index)
                response += value * kernel[kernel.count - 1 - index]
                aligned += value * kernel[index]
                bufferEnergy += value * value
            }
            let rho = aligned / (bufferEnergy * kernelEnergy[level] + 1e-7).squareRoot()
            responses[level].append(response * response)
            normalised[level].append(rho * rho)
            pooled[level] = responses[level].pooled(by: pooling).squareRoot()
            if level == 4 { gate = normalised[level].pooled(by: pooling).squareRoot() }
        }
        let energy = interpolate(pooled, at: log10(max(adapted, 1e-12))) * responseAdjust
        var risk = 0.0
        if energy > Self.riskThreshold, gate > Self.gateThreshold {
            risk = 100 * (1 - exp(-pow((energy - Self.riskThreshold) / Self.riskScale, 3)))
        }
        var dimming = risk > 0 ? min(1, max(0, 0.5 * log10(risk))) : 0
        if dimming < mitigation {
            dimming = dimming * muRelease + mitigation * (1 - muRelease)
            if dimming < 0.01 { dimming = 0 }
        }
        mitigation = dimming
        return Output(apl: apl, adaptation: adapted, risk: risk, mitigation: dimming)
    }

    /// The pooled energies interpolated linearly in log10 luminance between the standard levels.
    private func interpolate(_ values: [Double], at logLuminance: Double) -> Double {
        if logLuminance <= logLuminances[0] { return values[0] }
        for level in 1..<logLuminances.count where logLuminance < logLuminances[level] {
            let share = (logLuminance - logLuminances[level - 1]) / (logLuminances[level] - logLuminances[level - 1])
            return values[level - 1] + (values[level] - values[level - 1]) * share
        }
        return values[values.count - 1]
    }

    /// The last `count` values, zeros before the first.
    struct RingBuffer: Sendable {
        private var values: [Double]
        private var next = 0

        init(count: Int) { values = [Double](repeating: 0, count: max(count, 1)) }

        mutating func append(_ value: Double) {
            values[next] = value
            next = (next + 1) % values.count
        }

        /// The value `age` frames before the newest (0: the newest).
        func fromNewest(_ age: Int) -> Double {
            values[(next - 1 - age + 2 * values.count) % values.count]
        }

        /// Σ value × kernel reversed: the newest × kernel[0].
        func pooled(by kernel: [Double]) -> Double {
            var sum = 0.0
            for age in 0..<min(kernel.count, values.count) { sum += fromNewest(age) * kernel[age] }
            return sum
        }
    }
}

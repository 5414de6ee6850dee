import CaptionsCore
import CCaptionsKernels

#if canImport(Glibc)
import Glibc
#endif

/// Turns a cell's mean codes into linear light: relative to white for SDR (WCAG's relative
/// luminance, 0–1), in cd/m² for HDR.
///
/// YUV goes through the stream's matrix (BT.601, BT.709, BT.2020) and range to R′G′B′, then
/// through the transfer function: the sRGB curve for SDR (as WCAG defines relative luminance), the
/// SMPTE ST 2084 EOTF for PQ (absolute, 0–10,000 cd/m²), and for HLG the inverse OETF followed by
/// the BT.2100 OOTF for a display of `hdrPeak` cd/m² (1,000 by default: system gamma 1.2, and
/// 1.2 + 0.42 log10(peak / 1000) for other peaks). Luminance and chromaticity use the stream's
/// primaries (BT.709/sRGB or BT.2020).
struct ColorModel: Equatable {
    let matrix: VideoFrame.Matrix
    let range: VideoFrame.Range
    let transfer: VideoFrame.Transfer
    let primaries: VideoFrame.Primaries
    let isRGB: Bool
    let hdrPeak: Double
    /// Non-linear value (0–1, in 1/4095 steps) → linear (relative, or cd/m² for PQ; scene light for HLG).
    private let toLinear: [Float]
    /// An 8-bit code → the display light of Apple's model, (code / 255)^2.2.
    private let codeLight: [Float]
    private let kr, kb, kg: Float
    /// Luminance weights of linear R, G, B.
    let luminanceWeights: (Float, Float, Float)
    /// Linear RGB → CIE 1976 u′v′ (plain numbers: the per-cell loop copies it without retaining).
    let chromaticityMap: ChromaticityMap
    private let hlgGammaMinusOne: Float

    static let steps = 4095

    init(frame: VideoFrame, hdrPeak: Double = 1000) {
        self.init(
            matrix: frame.matrix, range: frame.range, transfer: frame.transfer, primaries: frame.primaries,
            isRGB: frame.layout.isRGB, hdrPeak: hdrPeak)
    }

    init(
        matrix: VideoFrame.Matrix, range: VideoFrame.Range, transfer: VideoFrame.Transfer,
        primaries: VideoFrame.Primaries, isRGB: Bool, hdrPeak: Double = 1000
    ) {
        self.matrix = matrix
        self.range = range
        self.transfer = transfer
        self.primaries = primaries
        self.isRGB = isRGB
        self.hdrPeak = hdrPeak
        switch matrix {
        case .bt601: (kr, kb) = (0.299, 0.114)
        case .bt709: (kr, kb) = (0.2126, 0.0722)
        case .bt2020: (kr, kb) = (0.2627, 0.0593)
        }
        kg = 1 - kr - kb
        toLinear = (0...Self.steps).map { Self.linearize(Double($0) / Double(Self.steps), transfer) }
        codeLight = (0...255).map { Float(pow(Double($0) / 255, 2.2)) }
        let toXYZ: [Float]  // linear RGB → CIE XYZ, row by row
        switch primaries {
        case .bt709:
            luminanceWeights = (0.2126, 0.7152, 0.0722)
            toXYZ = [0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505]
        case .bt2020:
            luminanceWeights = (0.2627, 0.6780, 0.0593)
            toXYZ = [0.6370, 0.1446, 0.1689, 0.2627, 0.6780, 0.0593, 0, 0.0281, 1.0610]
        }
        hlgGammaMinusOne = Float(TransferFunction.hlgSystemGamma(peak: hdrPeak) - 1)
        chromaticityMap = ChromaticityMap(toXYZ: toXYZ, absolute: transfer != .sdr)
    }

    static func == (a: ColorModel, b: ColorModel) -> Bool {
        a.matrix == b.matrix && a.range == b.range && a.transfer == b.transfer && a.primaries == b.primaries
            && a.isRGB == b.isRGB && a.hdrPeak == b.hdrPeak
    }

    /// Whether light is absolute (cd/m²) rather than relative to white.
    var isAbsolute: Bool { transfer != .sdr }

    /// The transfer function from a non-linear value (0–1) to linear light.
    static func linearize(_ value: Double, _ transfer: VideoFrame.Transfer) -> Float {
        switch transfer {
        case .sdr: Float(srgbToLinear(value))
        case .pq: Float(pqToNits(value))
        case .hlg: Float(hlgToScene(value))
        }
    }

    /// IEC 61966-2-1 (the form WCAG 2.2 quotes).
    static func srgbToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// SMPTE ST 2084 EOTF: a PQ signal (0–1) to cd/m² (``TransferFunction``).
    static func pqToNits(_ value: Double) -> Double { TransferFunction.pqToNits(value) }

    /// BT.2100 HLG inverse OETF: a signal (0–1) to normalised scene light (``TransferFunction``).
    static func hlgToScene(_ value: Double) -> Double { TransferFunction.hlgToScene(value) }

    @inline(__always)
    private func linear(_ value: Float) -> Float { Self.lookUp(value, in: toLinear) }

    /// `table` (values at 0, 1/4095, … 1) interpolated at `value`, clamped to 0–1.
    @inline(__always)
    private static func lookUp(_ value: Float, in table: [Float]) -> Float {
        let position = min(max(value, 0), 1) * Float(Self.steps)
        let index = Int(position)
        guard index < Self.steps else { return table[Self.steps] }
        let fraction = position - Float(index)
        return table[index] + (table[index + 1] - table[index]) * fraction
    }

    /// The non-linear R′, G′, B′ (0–1, not yet clipped) of a cell's mean codes (8-bit scale: Y, Cb,
    /// Cr or R, G, B).
    @inline(__always)
    func signal(_ c0: Float, _ c1: Float, _ c2: Float) -> (Float, Float, Float) {
        if isRGB { return (c0 / 255, c1 / 255, c2 / 255) }
        let y = range == .limited ? (c0 - 16) / 219 : c0 / 255
        let cb = range == .limited ? (c1 - 128) / 224 : (c1 - 128) / 255
        let cr = range == .limited ? (c2 - 128) / 224 : (c2 - 128) / 255
        let r = y + 2 * (1 - kr) * cr
        let b = y + 2 * (1 - kb) * cb
        let g = y - 2 * (1 - kr) * kr / kg * cr - 2 * (1 - kb) * kb / kg * cb
        return (r, g, b)
    }

    /// Linear R, G, B of a cell's mean codes (8-bit scale: Y, Cb, Cr or R, G, B).
    @inline(__always)
    func light(_ c0: Float, _ c1: Float, _ c2: Float) -> (Float, Float, Float) {
        light(signal: signal(c0, c1, c2))
    }

    /// Linear R, G, B of non-linear R′, G′, B′.
    @inline(__always)
    func light(signal: (Float, Float, Float)) -> (Float, Float, Float) {
        var linearRGB = (linear(signal.0), linear(signal.1), linear(signal.2))
        if transfer == .hlg {
            let scene = luminanceWeights.0 * linearRGB.0 + luminanceWeights.1 * linearRGB.1 + luminanceWeights.2 * linearRGB.2
            let gain = Float(hdrPeak) * (scene > 0 ? Float(pow(Double(scene), Double(hlgGammaMinusOne))) : 0)
            linearRGB = (linearRGB.0 * gain, linearRGB.1 * gain, linearRGB.2 * gain)
        }
        return linearRGB
    }

    /// A cell's picture level as Apple's Dim Flashing Lights model measures it: 0.299 R + 0.587 G
    /// + 0.114 B of each channel's display light, (v / 255)^2.2 of its 8-bit code v. The model is
    /// defined on 8-bit RGB as FFmpeg converts it for Apple's reference (each channel truncated to
    /// a whole code, which reproduces Apple's reference levels exactly); a cell's mean signal is
    /// converted the same way. For PQ and HLG, whose light is absolute, each channel's light over
    /// the display's peak `displayPeak` (cd/m²), clipped to 1: what that display can show.
    @inline(__always)
    func dimFlashingLightsLevel(signal: (Float, Float, Float), light: (Float, Float, Float), displayPeak: Float) -> Float {
        if isAbsolute {
            return 0.299 * min(1, light.0 / displayPeak) + 0.587 * min(1, light.1 / displayPeak)
                + 0.114 * min(1, light.2 / displayPeak)
        }
        @inline(__always) func code(_ value: Float) -> Int { Int(min(max(value, 0), 1) * 255 + 1e-3) }
        return 0.299 * codeLight[code(signal.0)] + 0.587 * codeLight[code(signal.1)] + 0.114 * codeLight[code(signal.2)]
    }

    /// The luminance of linear R, G, B.
    @inline(__always)
    func luminance(_ r: Float, _ g: Float, _ b: Float) -> Float {
        luminanceWeights.0 * r + luminanceWeights.1 * g + luminanceWeights.2 * b
    }

    /// CIE 1976 u′, v′ of linear R, G, B (D65 white for black).
    @inline(__always)
    func chromaticity(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float) { chromaticityMap(r, g, b) }

    /// What ``ccaptions_cell_light`` computes for one cell, in the same order of operations: its
    /// linear R, G, B, luminance and Dim Flashing Lights level from each channel's mean signal and
    /// `spread` (8-bit scale: luma's for YUV, moving every channel; each channel's for RGB; zero for
    /// a uniform cell, which gives the light of its mean), each channel as two points
    /// (``TwoPoints``). HLG's system gamma applies to the cell's mean scene light.
    func cellLight(
        _ c0: Float, _ c1: Float, _ c2: Float, spread: (Float, Float, Float), displayPeak: Float
    ) -> (r: Float, g: Float, b: Float, luminance: Float, level: Float) {
        let signal = signal(c0, c1, c2)
        let lumaDivisor: Float = range == .limited ? 219 : 255
        let d = isRGB ? (spread.0 / 255, spread.1 / 255, spread.2 / 255) : (spread.0 / lumaDivisor, spread.0 / lumaDivisor, spread.0 / lumaDivisor)
        let points = (TwoPoints(signal.0, d.0), TwoPoints(signal.1, d.1), TwoPoints(signal.2, d.2))
        func at(_ p: TwoPoints) -> (mean: Float, Float, Float) {
            let (first, second) = (Self.lookUp(p.p1, in: toLinear), Self.lookUp(p.p2, in: toLinear))
            return (p.w1 * first + p.w2 * second, first, second)
        }
        var (red, green, blue) = (at(points.0), at(points.1), at(points.2))
        if transfer == .hlg {
            let scene = luminanceWeights.0 * red.mean + luminanceWeights.1 * green.mean + luminanceWeights.2 * blue.mean
            let gain = Float(hdrPeak) * (scene > 0 ? Float(pow(Double(scene), Double(hlgGammaMinusOne))) : 0)
            red = (red.mean * gain, red.1 * gain, red.2 * gain)
            green = (green.mean * gain, green.1 * gain, green.2 * gain)
            blue = (blue.mean * gain, blue.1 * gain, blue.2 * gain)
        }
        func level(_ p: TwoPoints, _ light: (mean: Float, Float, Float)) -> Float {
            if isAbsolute {
                return p.w1 * min(1, light.1 / displayPeak) + p.w2 * min(1, light.2 / displayPeak)
            }
            @inline(__always) func code(_ value: Float) -> Int { Int(min(max(value, 0), 1) * 255 + 1e-3) }
            return p.w1 * codeLight[code(p.p1)] + p.w2 * codeLight[code(p.p2)]
        }
        let pictureLevel = 0.299 * level(points.0, red) + 0.587 * level(points.1, green) + 0.114 * level(points.2, blue)
        return (red.mean, green.mean, blue.mean, luminance(red.mean, green.mean, blue.mean), pictureLevel)
    }

    /// A channel's values in a cell as two points and their weights (``ccaptions_cell_light``'s
    /// `split_of`, the same arithmetic): its mean signal less and plus its spread, half each;
    /// where one falls outside 0–1 (sparse bright dots on black), the two points of the same mean
    /// and spread one of which is at that bound, exact for black and any one other value; where
    /// both do, the bounds.
    struct TwoPoints {
        var p1, p2, w1, w2: Float
        static let leastGap: Float = 1e-12
        /// Spreads under half a code at 8 bits are none (``ccaptions_cell_light``'s `least_spread`).
        static let leastSpread: Float = 1.0 / 512

        init(_ s: Float, _ spread: Float) {
            let d = spread < Self.leastSpread ? 0 : spread
            let (lo, hi, q) = (s - d, s + d, d * d)
            (p1, p2, w1, w2) = (lo, hi, 0.5, 0.5)
            if lo < 0, hi > 1 {
                let w = min(max(s, 0), 1)
                (p1, p2, w1, w2) = (0, 1, 1 - w, w)
            } else if lo < 0 {
                let w = s > 0 ? s * s / (s * s + q) : 0
                (p1, p2, w1, w2) = (0, s + q / max(s, Self.leastGap), 1 - w, w)
            } else if hi > 1 {
                let t = 1 - s
                let w = t > 0 ? t * t / (t * t + q) : 0
                (p1, p2, w1, w2) = (s - q / max(t, Self.leastGap), 1, w, 1 - w)
            }
        }
    }

    /// Calls `body` with this model in the form ``ccaptions_cell_light`` takes (valid during the
    /// call): the same figures and order of operations as ``light(signal:)``, ``luminance(_:_:_:)``
    /// and ``dimFlashingLightsLevel(signal:light:displayPeak:)``.
    func withCellKernel<Result>(
        displayPeak: Float, _ body: (UnsafePointer<ccaptions_cell_model>) -> Result
    ) -> Result {
        toLinear.withUnsafeBufferPointer { toLinear in
            codeLight.withUnsafeBufferPointer { codeLight in
                let limited = range == .limited
                var kernel = ccaptions_cell_model(
                    rgb: isRGB ? 1 : 0, luma_offset: limited ? 16 : 0, luma_divisor: limited ? 219 : 255,
                    chroma_divisor: limited ? 224 : 255, cr_r: 2 * (1 - kr), cb_b: 2 * (1 - kb),
                    cr_g: 2 * (1 - kr) * kr / kg, cb_g: 2 * (1 - kb) * kb / kg, to_linear: toLinear.baseAddress,
                    steps: Int32(Self.steps), hlg_peak: transfer == .hlg ? Float(hdrPeak) : 0,
                    hlg_gamma_minus_one: hlgGammaMinusOne, weight_r: luminanceWeights.0, weight_g: luminanceWeights.1,
                    weight_b: luminanceWeights.2, code_light: isAbsolute ? nil : codeLight.baseAddress,
                    display_peak: displayPeak)
                return body(&kernel)
            }
        }
    }

    /// A short name: "PQ (SMPTE ST 2084), BT.2020 matrix, limited range, BT.2020 primaries".
    var summary: String {
        let transferName: String
        switch transfer {
        case .sdr: transferName = "SDR (sRGB curve)"
        case .pq: transferName = "PQ (SMPTE ST 2084)"
        case .hlg: transferName = "HLG (ARIB STD-B67), \(NumberFormatting.shortest(hdrPeak)) cd/m² display"
        }
        let matrixName = isRGB ? "RGB" : "\(matrix.displayName) matrix, \(range.rawValue) range"
        return "\(transferName), \(matrixName), \(primaries.displayName) primaries"
    }
}

extension VideoFrame.Matrix {
    /// "BT.709".
    var displayName: String {
        switch self {
        case .bt601: "BT.601"
        case .bt709: "BT.709"
        case .bt2020: "BT.2020"
        }
    }
}

extension VideoFrame.Primaries {
    /// "BT.2020".
    var displayName: String { self == .bt709 ? "BT.709" : "BT.2020" }
}

/// Linear R, G, B → CIE 1976 u′, v′ through CIE XYZ, with D65 white for black: nine numbers and a
/// floor, held by value.
struct ChromaticityMap {
    private let x, y, z: (Float, Float, Float)
    /// Below this X + 15Y + 3Z the colour is black.
    private let floor: Float

    /// The map for an RGB → XYZ matrix given row by row; `absolute` light (cd/m²) has a higher floor.
    init(toXYZ m: [Float], absolute: Bool) {
        (x, y, z) = ((m[0], m[1], m[2]), (m[3], m[4], m[5]), (m[6], m[7], m[8]))
        floor = 1e-6 * (absolute ? 100 : 1)
    }

    /// u′, v′ of linear R, G, B.
    @inline(__always)
    func callAsFunction(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float) {
        let cx = x.0 * r + x.1 * g + x.2 * b
        let cy = y.0 * r + y.1 * g + y.2 * b
        let cz = z.0 * r + z.1 * g + z.2 * b
        let denominator = cx + 15 * cy + 3 * cz
        return denominator > floor ? (4 * cx / denominator, 9 * cy / denominator) : (0.1978, 0.4683)
    }
}

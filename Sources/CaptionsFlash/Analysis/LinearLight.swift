import CaptionsCore

/// Turns 8-bit samples into linear-light sRGB, the space WCAG's relative luminance is defined in.
///
/// YUV goes through the stream's matrix (BT.601 or BT.709) and range (limited or full) to R′G′B′,
/// then through the sRGB transfer curve to linear R, G, B. Lookup tables keep the per-sample cost
/// to a few additions and three table reads.
struct LinearLight {
    /// Y code → Y′ (0–1).
    private(set) var luma = [Float](repeating: 0, count: 256)
    /// V code → contribution to R′.
    private(set) var crToRed = [Float](repeating: 0, count: 256)
    /// V code → contribution to G′.
    private(set) var crToGreen = [Float](repeating: 0, count: 256)
    /// U code → contribution to G′.
    private(set) var cbToGreen = [Float](repeating: 0, count: 256)
    /// U code → contribution to B′.
    private(set) var cbToBlue = [Float](repeating: 0, count: 256)
    /// Non-linear value (0–1, in 1/1023 steps) → linear.
    private(set) var toLinear = [Float](repeating: 0, count: Self.steps + 1)

    static let steps = 1023

    init(matrix: VideoFrame.Matrix, range: VideoFrame.Range) {
        let (kr, kb): (Float, Float) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        for code in 0..<256 {
            let value = Float(code)
            let y = range == .limited ? (value - 16) / 219 : value / 255
            let c = range == .limited ? (value - 128) / 224 : (value - 128) / 255
            luma[code] = y
            crToRed[code] = 2 * (1 - kr) * c
            cbToBlue[code] = 2 * (1 - kb) * c
            crToGreen[code] = -2 * (1 - kr) * kr / kg * c
            cbToGreen[code] = -2 * (1 - kb) * kb / kg * c
        }
        for step in 0...Self.steps {
            toLinear[step] = Self.linearize(Float(step) / Float(Self.steps))
        }
    }

    /// The sRGB transfer function inverted (IEC 61966-2-1, the form WCAG 2.2 quotes).
    static func linearize(_ value: Float) -> Float {
        value <= 0.04045 ? value / 12.92 : Float(pow(Double((value + 0.055) / 1.055), 2.4))
    }

    /// The linear value of a non-linear one, clamped to 0–1.
    @inline(__always)
    func linear(_ nonLinear: Float) -> Float {
        let step = Int(nonLinear * Float(Self.steps) + 0.5)
        return toLinear[min(max(step, 0), Self.steps)]
    }
}

#if canImport(Glibc)
import Glibc
#endif

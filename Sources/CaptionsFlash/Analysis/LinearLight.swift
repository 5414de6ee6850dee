import CaptionsCore

/// Turns 8-bit samples into linear-light sRGB, the space WCAG's relative luminance is defined in.
///
/// YUV goes through the stream's matrix (BT.601 or BT.709) and range (limited or full) to R′G′B′,
/// then through the sRGB transfer curve to linear R, G, B. Lookup tables keep the per-sample cost
/// to a few additions and three table reads; ``tables`` hands them out as raw pointers for the
/// sampling loop, which runs 30,000 times a frame.
struct LinearLight {
    /// The tables as pointers, valid while `body` runs.
    func withTables<Result>(_ body: (Tables) -> Result) -> Result {
        lumaSteps.withUnsafeBufferPointer { luma in
            crToRedSteps.withUnsafeBufferPointer { crToRed in
                crToGreenSteps.withUnsafeBufferPointer { crToGreen in
                    cbToGreenSteps.withUnsafeBufferPointer { cbToGreen in
                        cbToBlueSteps.withUnsafeBufferPointer { cbToBlue in
                            toLinear.withUnsafeBufferPointer { toLinear in
                                body(Tables(
                                    luma: luma.baseAddress!, crToRed: crToRed.baseAddress!, crToGreen: crToGreen.baseAddress!,
                                    cbToGreen: cbToGreen.baseAddress!, cbToBlue: cbToBlue.baseAddress!,
                                    toLinear: toLinear.baseAddress!))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Raw pointers to the lookup tables, in integer steps of 1/1023.
    struct Tables {
        let luma, crToRed, crToGreen, cbToGreen, cbToBlue: UnsafePointer<Int32>
        let toLinear: UnsafePointer<Float>

        /// Linear R, G, B of one Y, U, V sample.
        @inline(__always)
        func linearRGB(y: UInt8, u: UInt8, v: UInt8) -> (Float, Float, Float) {
            let lumaValue = luma[Int(y)]
            return (
                linear(lumaValue &+ crToRed[Int(v)]), linear(lumaValue &+ crToGreen[Int(v)] &+ cbToGreen[Int(u)]),
                linear(lumaValue &+ cbToBlue[Int(u)])
            )
        }

        @inline(__always)
        private func linear(_ step: Int32) -> Float {
            toLinear[Int(min(max(step, 0), Int32(LinearLight.steps)))]
        }
    }

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
    /// The same tables in 1/1023 steps, as integers, for the sampling loop.
    private var lumaSteps = [Int32](repeating: 0, count: 256)
    private var crToRedSteps = [Int32](repeating: 0, count: 256)
    private var crToGreenSteps = [Int32](repeating: 0, count: 256)
    private var cbToGreenSteps = [Int32](repeating: 0, count: 256)
    private var cbToBlueSteps = [Int32](repeating: 0, count: 256)

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
        let scale = Float(Self.steps)
        for code in 0..<256 {
            lumaSteps[code] = Int32((luma[code] * scale).rounded())
            crToRedSteps[code] = Int32((crToRed[code] * scale).rounded())
            crToGreenSteps[code] = Int32((crToGreen[code] * scale).rounded())
            cbToGreenSteps[code] = Int32((cbToGreen[code] * scale).rounded())
            cbToBlueSteps[code] = Int32((cbToBlue[code] * scale).rounded())
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

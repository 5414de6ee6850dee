#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HDR transfer functions of BT.2100, shared by the flash analysis (signal to light) and the
/// dimming (light back to signal).
public enum TransferFunction {
    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
    private static let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)

    /// SMPTE ST 2084 EOTF: a PQ signal (0–1) to cd/m² (0–10,000).
    public static func pqToNits(_ value: Double) -> Double {
        let power = pow(max(value, 0), 1 / m2)
        return 10000 * pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    /// The inverse of ``pqToNits(_:)``: cd/m² to a PQ signal (0–1).
    public static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(min(max(nits, 0), 10000) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// ARIB STD-B67 / BT.2100 HLG inverse OETF: a signal (0–1) to normalised scene light (0–1).
    public static func hlgToScene(_ value: Double) -> Double {
        value <= 0.5 ? value * value / 3 : (exp((value - c) / a) + b) / 12
    }

    /// The HLG OETF: normalised scene light (0–1) to a signal (0–1).
    public static func sceneToHLG(_ scene: Double) -> Double {
        let e = min(max(scene, 0), 1)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// The HLG system gamma for a display of `peak` cd/m² (BT.2100: 1.2 at 1,000).
    public static func hlgSystemGamma(peak: Double) -> Double {
        1.2 + 0.42 * log10(max(peak, 1) / 1000)
    }
}

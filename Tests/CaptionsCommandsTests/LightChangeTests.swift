import CaptionsCore
@testable import CaptionsMedia
import Foundation
import Testing

/// The dimming changes light as the flash analysis measures it: SDR by Apple's 2.2 display model,
/// PQ in cd/m² (a share of the display's peak), HLG on its display.
struct LightChangeTests {
    /// The light (a share of the display's peak) after the change, by the change's own formula.
    static func expected(_ change: LightChange, light: Double) -> Double {
        change.contrast * (light - change.adaptation) + change.brightness * change.adaptation
    }

    @Test func pqIsDimmedInCandelasPerSquareMetre() {
        let change = LightChange.dimFlashingLights(mitigation: 0.4, adaptation: 0.12, displayPeak: 1000)
        let curve = change.curve(transfer: .pq)
        for step in stride(from: 400, through: 700, by: 50) {
            let signal = Double(step) / 1024
            let nits = TransferFunction.pqToNits(signal)
            let after = TransferFunction.pqToNits(Double(curve[step]))
            let want = Self.expected(change, light: nits / 1000) * 1000
            #expect(abs(after - want) <= max(0.5, want * 0.002), "\(nits) cd/m² → \(after), formula \(want)")
        }
        // Not the SDR curve: PQ 100 cd/m² is signal 0.508, which the 2.2 model would call 22 % light.
        #expect(curve[520] != change.curve(transfer: .sdr)[520])
    }

    @Test func hlgIsDimmedOnItsDisplay() {
        var change = LightChange.dimFlashingLights(mitigation: 0.3, adaptation: 0.2, displayPeak: 500)
        change.hdrPeak = 1000
        let curve = change.curve(transfer: .hlg)
        let gamma = TransferFunction.hlgSystemGamma(peak: 1000)
        for step in stride(from: 300, through: 900, by: 100) {
            let nits = 1000 * pow(TransferFunction.hlgToScene(Double(step) / 1024), gamma)
            let after = 1000 * pow(TransferFunction.hlgToScene(Double(curve[step])), gamma)
            let want = max(0, Self.expected(change, light: nits / 500) * 500)
            #expect(abs(after - want) <= max(0.5, want * 0.003), "\(nits) cd/m² → \(after), formula \(want)")
        }
    }

    @Test func theTransferFunctionsInvert() {
        for nits in [0.005, 1, 100, 1000, 4000, 10000] {
            #expect(abs(TransferFunction.pqToNits(TransferFunction.nitsToPQ(nits)) - nits) <= nits * 1e-9 + 1e-9)
        }
        for scene in [0.0, 0.01, 1.0 / 12, 0.5, 1] {
            #expect(abs(TransferFunction.hlgToScene(TransferFunction.sceneToHLG(scene)) - scene) < 1e-12)
        }
        // Published reference points: PQ 0.5081 is 100 cd/m², 0.7518 is 1,000; HLG 0.5 is scene light 1/12.
        #expect(abs(TransferFunction.pqToNits(0.5081) - 100) < 0.2)
        #expect(abs(TransferFunction.pqToNits(0.7518) - 1000) < 1)
        #expect(abs(TransferFunction.hlgToScene(0.5) - 1.0 / 12) < 1e-12)
    }
}

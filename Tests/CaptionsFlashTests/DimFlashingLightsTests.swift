import Foundation
import Testing

@testable import CaptionsFlash

/// Apple's reference outputs for its test clip (`../shared/dfl/`), read when present.
enum DFLReference {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/dfl")
    static let available = FileManager.default.fileExists(atPath: folder.appendingPathComponent("TestVideo.mp4").path)

    struct Row {
        var frame: Int
        var apl, adaptation, risk, mitigation: Double
    }

    /// The two reference runs: file name, display.
    static let runs: [(String, DimFlashingLights.Display)] = [
        ("TestVideo.expected-100nits-1265deg2.csv", .standard),
        ("TestVideo.expected-500nits-250deg2.csv", DimFlashingLights.Display(peak: 500, area: 250)),
    ]

    static func rows(_ name: String) throws -> [Row] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? .nan }
            return Row(frame: Int(fields[0]), apl: fields[1], adaptation: fields[2], risk: fields[3], mitigation: fields[4])
        }
    }
}

@Suite struct DimFlashingLightsTests {
    /// Apple's published APL per frame through our model gives Apple's risk and mitigation.
    @Test(.enabled(if: DFLReference.available), arguments: DFLReference.runs.indices)
    func theModelReproducesApplesReference(run: Int) throws {
        let (name, display) = DFLReference.runs[run]
        let rows = try DFLReference.rows(name)
        try #require(rows.count == 552)
        var model = DimFlashingLights(display: display, frameRate: 24)
        var worstRisk = 0.0, worstMitigation = 0.0
        for row in rows {
            let output = model.next(apl: row.apl)
            #expect(abs(output.adaptation - row.adaptation) <= 1e-3 * max(1, row.adaptation), "frame \(row.frame) adaptation")
            worstRisk = max(worstRisk, abs(output.risk - row.risk))
            worstMitigation = max(worstMitigation, abs(output.mitigation - row.mitigation))
            #expect(abs(output.risk - row.risk) <= 0.5, "frame \(row.frame): risk \(output.risk), Apple's \(row.risk)")
            #expect(
                abs(output.mitigation - row.mitigation) <= 0.005,
                "frame \(row.frame): mitigation \(output.mitigation), Apple's \(row.mitigation)")
        }
        // The clip has flashing sequences: the comparison is not of zeros.
        #expect(rows.contains { $0.risk > 50 } && rows.contains { $0.mitigation > 0.5 })
        print("DFL \(name): worst risk difference \(worstRisk), worst mitigation difference \(worstMitigation)")
    }

    /// A still picture and a slow fade carry no risk and need no dimming.
    @Test(arguments: [5.0, 10, 12.5, 24, 25, 29.97, 50, 60, 120])
    func stillAndSlowlyFadingPicturesAreNotDimmed(frameRate: Double) {
        for display in [DimFlashingLights.Display.standard] + DimFlashingLights.Display.presets.map(\.display) {
            var still = DimFlashingLights(display: display, frameRate: frameRate)
            var fade = DimFlashingLights(display: display, frameRate: frameRate)
            let frames = Int(frameRate * 10)
            for frame in 0..<frames {
                let a = still.next(apl: 0.6)
                // Black to white over ten seconds.
                let b = fade.next(apl: Double(frame) / Double(frames))
                #expect(a.risk == 0 && a.mitigation == 0)
                #expect(b.risk == 0 && b.mitigation == 0, "fade at frame \(frame): risk \(b.risk)")
            }
        }
    }

    /// Full-field black–white flashing at 5–10 Hz is a high risk on every display.
    @Test(arguments: [5.0, 8, 10])
    func fullFieldFlashingIsARisk(hertz: Double) {
        for display in [DimFlashingLights.Display.standard] + DimFlashingLights.Display.presets.map(\.display) {
            var model = DimFlashingLights(display: display, frameRate: 30)
            var peak = DimFlashingLights.Output(apl: 0, adaptation: 0, risk: 0, mitigation: 0)
            for frame in 0..<90 {
                let on = Int(Double(frame) / 30 * hertz * 2) % 2 == 0
                let output = model.next(apl: on ? 0.9 : 0.05)
                if output.risk > peak.risk { peak = output }
            }
            #expect(peak.risk > 50 && peak.mitigation > 0.5, "\(hertz) Hz on \(display): \(peak)")
        }
    }
}

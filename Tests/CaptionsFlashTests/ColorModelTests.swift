import CaptionsCore
import Testing

@testable import CaptionsFlash

/// The transfer functions against published reference values, and the HDR flash rule.
@Suite struct ColorModelTests {
    @Test func pqMatchesSMPTE2084() {
        #expect(ColorModel.pqToNits(0) == 0)
        #expect(abs(ColorModel.pqToNits(1) - 10_000) < 0.01)
        // ITU-R BT.2408: HDR reference white, 203 cd/m², is 58 % of the PQ signal.
        #expect(abs(ColorModel.pqToNits(0.58) - 203) < 2)
        // 100 cd/m² is a PQ signal of 0.5081.
        #expect(abs(ColorModel.pqToNits(0.5081) - 100) < 0.5)
    }

    @Test func hlgMatchesBT2100AndBT2408() {
        // Inverse OETF: 0.5 is scene light 1/12; 1.0 is 1.
        #expect(abs(ColorModel.hlgToScene(0.5) - 1.0 / 12) < 1e-6)
        #expect(abs(ColorModel.hlgToScene(1) - 1) < 1e-4)
        // BT.2408: HLG reference white, 75 % of the signal, is 203 cd/m² on a 1000 cd/m² display.
        let model = ColorModel(matrix: .bt2020, range: .full, transfer: .hlg, primaries: .bt2020, isRGB: true)
        let (r, g, b) = model.light(0.75 * 255, 0.75 * 255, 0.75 * 255)
        #expect(abs(model.luminance(r, g, b) - 203) < 2)
        // On a 400 cd/m² display the system gamma is 1.2 + 0.42 log10(0.4) = 1.033.
        let dim = ColorModel(matrix: .bt2020, range: .full, transfer: .hlg, primaries: .bt2020, isRGB: true, hdrPeak: 400)
        let white = dim.light(255, 255, 255)
        #expect(abs(dim.luminance(white.0, white.1, white.2) - 400) < 1)
    }

    @Test func tenBitLimitedRangeCodesAreExact() {
        // 10-bit limited-range codes on the 8-bit scale: 940 is 235.0, 64 is 16.0.
        let model = ColorModel(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, isRGB: false)
        let peak = model.light(940.0 / 4, 128, 128)
        #expect(abs(model.luminance(peak.0, peak.1, peak.2) - 10_000) < 1)
        let black = model.light(64.0 / 4, 128, 128)
        #expect(model.luminance(black.0, black.1, black.2) < 0.001)
    }

    @Test func theHDRRuleIsBT1702() {
        let rule = LuminanceRule(absolute: true)
        #expect(rule.significant(100, 120))  // 20 cd/m², darker below 160
        #expect(!rule.significant(100, 119))
        #expect(rule.significant(400, 450))  // Michelson 50/850 = 0.0588 >= 1/17
        #expect(!rule.significant(400, 440))  // 40/840 = 0.048
        #expect(rule.qualifies(1000, 2000))
        let sdr = LuminanceRule(absolute: false)
        #expect(sdr.significant(0.5, 0.6) && sdr.qualifies(0.5, 0.6))
        #expect(!sdr.qualifies(0.8, 0.95))
    }

    @Test func theGridKeepsDegreesSquareAndFollowsRotation() {
        let hd = CellGrid(width: 1920, height: 1080)
        #expect(hd.columns == 480 && hd.rows == 270)
        #expect(hd.windowColumns == 160 && hd.windowRows == 120)  // 10° × 7.5° of a 30° picture
        #expect(CellGrid(width: 1280, height: 720) == hd, "720p and 1080p share a grid: a switch keeps the analysis")
        let anamorphic = CellGrid(width: 720, height: 576, sampleAspect: 64.0 / 45)  // 16:9 PAL
        #expect(abs(Double(anamorphic.windowColumns) / Double(anamorphic.columns) - 1.0 / 3) < 0.01)
        let portrait = CellGrid(width: 1920, height: 1080, quarterTurns: 1)  // shown 1080 wide
        #expect(abs(Double(portrait.windowRows) / Double(portrait.rows) - 1.0 / 3) < 0.02)
        #expect(portrait.count <= CellGrid.maximumCells)
    }
}

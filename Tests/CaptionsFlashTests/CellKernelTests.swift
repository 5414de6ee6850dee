import CCaptionsKernels
import CaptionsCore
import Testing

@testable import CaptionsFlash

/// The C kernel that turns changed cells into light gives exactly ColorModel's figures, for every
/// encoding the analysis reads (13 cells: eight through the vector path where there is one, five
/// through the portable tail).
@Suite struct CellKernelTests {
    static let models: [ColorModel] = [
        ColorModel(matrix: .bt709, range: .limited, transfer: .sdr, primaries: .bt709, isRGB: false),
        ColorModel(matrix: .bt601, range: .full, transfer: .sdr, primaries: .bt709, isRGB: false),
        ColorModel(matrix: .bt709, range: .full, transfer: .sdr, primaries: .bt709, isRGB: true),
        ColorModel(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, isRGB: false),
        ColorModel(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020, isRGB: false, hdrPeak: 400),
    ]

    @Test(arguments: models.indices)
    func kernelMatchesTheColorModel(index: Int) {
        let model = Self.models[index]
        var generator = SystemRandomNumberGenerator()
        // Codes across and beyond the legal range (cell means are fractional), plus the ends.
        var channels = (0..<3).map { _ in (0..<40).map { _ in Float.random(in: -4...260, using: &generator) } }
        for channel in 0..<3 { (channels[channel][0], channels[channel][1]) = (0, 255) }
        let cells: [Int32] = [39, 0, 1, 7, 8, 15, 16, 2, 30, 31, 22, 5, 11]
        let peak: Float = 250
        var out = [Float](repeating: .nan, count: 5 * cells.count)
        model.withCellKernel(displayPeak: peak) { kernel in
            ccaptions_cell_light(kernel, channels[0], channels[1], channels[2], cells, cells.count, &out, cells.count)
        }
        for (place, cell) in cells.map(Int.init).enumerated() {
            let signal = model.signal(channels[0][cell], channels[1][cell], channels[2][cell])
            let light = model.light(signal: signal)
            let expected = [
                light.0, light.1, light.2, model.luminance(light.0, light.1, light.2),
                model.dimFlashingLightsLevel(signal: signal, light: light, displayPeak: peak),
            ]
            let got = (0..<5).map { out[$0 * cells.count + place] }
            #expect(got == expected, "cell \(cell) codes \(channels.map { $0[cell] })")
        }
    }
}

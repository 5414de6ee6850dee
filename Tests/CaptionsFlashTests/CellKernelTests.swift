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

    @Test(arguments: models.indices, [false, true])
    func kernelMatchesTheColorModel(index: Int, withSpreads: Bool) {
        let model = Self.models[index]
        var generator = SystemRandomNumberGenerator()
        // Codes across and beyond the legal range (cell means are fractional), plus the ends.
        var channels = (0..<3).map { _ in (0..<40).map { _ in Float.random(in: -4...260, using: &generator) } }
        for channel in 0..<3 { (channels[channel][0], channels[channel][1]) = (0, 255) }
        // Spreads from none to a half-black, half-white cell's (127.5), on one cell uniform.
        var spreads = (0..<3).map { _ in (0..<40).map { _ in Float.random(in: 0...127.5, using: &generator) } }
        for channel in 0..<3 { (spreads[channel][0], spreads[channel][1]) = (0, 127.5) }
        let cells: [Int32] = [39, 0, 1, 7, 8, 15, 16, 2, 30, 31, 22, 5, 11]
        let peak: Float = 250
        var out = [Float](repeating: .nan, count: 5 * cells.count)
        spreads[0].withUnsafeBufferPointer { s0 in
            spreads[1].withUnsafeBufferPointer { s1 in
                spreads[2].withUnsafeBufferPointer { s2 in
                    let pointers: [UnsafePointer<Float>?] = [s0.baseAddress, s1.baseAddress, s2.baseAddress]
                    model.withCellKernel(displayPeak: peak) { kernel in
                        ccaptions_cell_light(
                            kernel, channels[0], channels[1], channels[2], withSpreads ? pointers : nil, cells, cells.count,
                            &out, cells.count)
                    }
                }
            }
        }
        for (place, cell) in cells.map(Int.init).enumerated() {
            let spread = withSpreads ? (spreads[0][cell], spreads[1][cell], spreads[2][cell]) : (0, 0, 0)
            let light = model.cellLight(
                channels[0][cell], channels[1][cell], channels[2][cell], spread: spread, displayPeak: peak)
            let expected = [light.r, light.g, light.b, light.luminance, light.level]
            let got = (0..<5).map { out[$0 * cells.count + place] }
            #expect(got == expected, "cell \(cell) codes \(channels.map { $0[cell] }) spread \(spread)")
        }
    }

    /// A cell half black and half white is lit as half white's light, not as the light of its
    /// mean code (mid grey, a fifth as bright); a uniform cell as its mean's.
    @Test func aSpreadCellIsTheMeanOfItsLight() {
        let model = ColorModel(matrix: .bt709, range: .limited, transfer: .sdr, primaries: .bt709, isRGB: false)
        let checker = model.cellLight(125.5, 128, 128, spread: (109.5, 0, 0), displayPeak: 100)
        #expect(abs(checker.luminance - 0.5) < 0.001)
        #expect(abs(checker.level - 0.5) < 0.01)
        let grey = model.cellLight(125.5, 128, 128, spread: (0, 0, 0), displayPeak: 100)
        #expect(grey.luminance < 0.25)
        // Skewed textures (an attack on flash-v7 found mean ± spread clipped at black or white:
        // 87.5 % white dither read as 0.63, 12.5 % dots as 0.09): the two points of the same mean
        // and spread with one at the bound, exact for black and one other value.
        for share: Float in [0.125, 0.25, 0.875] {
            let mean = 16 + share * 219, spread = 219 * (share * (1 - share)).squareRoot()
            let dither = model.cellLight(mean, 128, 128, spread: (spread, 0, 0), displayPeak: 100)
            #expect(abs(dither.luminance - share) < 0.002, "\(share) white: \(dither.luminance)")
            #expect(abs(dither.level - share) < 0.01, "\(share) white: level \(dither.level)")
        }
        let rgb = ColorModel(matrix: .bt709, range: .full, transfer: .sdr, primaries: .bt709, isRGB: true)
        let dithered = rgb.cellLight(127.5, 0, 0, spread: (127.5, 0, 0), displayPeak: 100)
        #expect(abs(dithered.r - 0.5) < 0.001 && dithered.g == 0 && dithered.b == 0)
    }

    /// Shot changes' thumbnail difference, 8-bit planar (the vector path, 64 samples at a time,
    /// then the portable tail) and 16-bit, against the definition: every other sample of every
    /// other line, absolute differences summed, the thumbnail replaced.
    @Test(arguments: [(131, 9, 1), (200, 6, 1), (64, 3, 1), (7, 5, 1), (130, 7, 2)])
    func thumbnailDifferenceIsEveryOtherSampleOfEveryOtherLine(width: Int, height: Int, bytes: Int) {
        var generator = SystemRandomNumberGenerator()
        let stride = width * bytes + 13
        let plane = (0..<(stride * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let across = (width + 1) / 2, down = (height + 1) / 2
        var thumbnail = (0..<(across * down)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var expected: UInt64 = 0
        var expectedThumbnail = thumbnail
        for y in Swift.stride(from: 0, to: height, by: 2) {
            for x in Swift.stride(from: 0, to: width, by: 2) {
                let value: UInt8 = bytes == 1
                    ? plane[y * stride + x]
                    : UInt8((UInt16(plane[y * stride + 2 * x]) | UInt16(plane[y * stride + 2 * x + 1]) << 8) >> 2 & 0xFF)
                let slot = y / 2 * across + x / 2
                expected += UInt64(value > expectedThumbnail[slot] ? value - expectedThumbnail[slot] : expectedThumbnail[slot] - value)
                expectedThumbnail[slot] = value
            }
        }
        let sad = plane.withUnsafeBufferPointer { plane in
            ccaptions_thumbnail_sad(plane.baseAddress, stride, Int32(width), Int32(height), Int32(bytes), bytes == 1 ? 0 : 2, 1, 0, &thumbnail)
        }
        #expect(sad == expected)
        #expect(thumbnail == expectedThumbnail)
    }
}

/// The row kernels that sum runs of samples into cells give the sums by definition, 8- and
/// 16-bit, for every run width, at the ends of the sample range (a 16-bit kernel that summed pairs
/// as signed numbers would go wrong over 32767), through the vector path and the portable tail.
@Suite struct RunKernelTests {
    /// 37 cells of `width` random 16-bit samples (with 0, 65535, 32767 and 32768 among them), the
    /// same as 8-bit ones, and random sums to add to.
    static func row(width: Int) -> (cells: Int, wide: [UInt16], narrow: [UInt8], start: [UInt32]) {
        var generator = SystemRandomNumberGenerator()
        let cells = 37
        let wide = (0..<(cells * width)).map { index -> UInt16 in
            index % 5 == 0 ? [0, 65535, 32767, 32768][index / 5 % 4] : UInt16.random(in: 0...65535, using: &generator)
        }
        let start = (0..<cells).map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }
        return (cells, wide, wide.map { UInt8($0 >> 8) }, start)
    }

    @Test(arguments: [1, 2, 4, 8])
    func runsAreSummedIntoTheirCells(width: Int) {
        let (cells, wide, narrow, start) = Self.row(width: width)
        func expected<Sample: BinaryInteger>(_ samples: [Sample]) -> [UInt32] {
            (0..<cells).map { cell in start[cell] + samples[(cell * width)..<((cell + 1) * width)].reduce(0) { $0 + UInt32($1) } }
        }
        var sums = start
        ccaptions_add_runs_u16(wide, Int32(width), cells, &sums)
        #expect(sums == expected(wide), "16-bit, \(width) a cell")
        sums = start
        ccaptions_add_runs_u8(narrow, Int32(width), cells, &sums)
        #expect(sums == expected(narrow), "8-bit, \(width) a cell")
    }

    /// Spreads from sums of squares and means, against the definition (the vector path and the
    /// portable tail; a variance rounding below zero is no spread).
    @Test func spreadsAreTheRootOfTheMeanSquareLessTheSquaredMean() {
        var generator = SystemRandomNumberGenerator()
        let count = 37
        let squares = (0..<count).map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }
        let weights = (0..<count).map { _ in Float.random(in: 0.01...1, using: &generator) }
        var means = (0..<count).map { _ in Float.random(in: 0...255, using: &generator) }
        means[3] = (Float(squares[3]) * weights[3]).squareRoot() + 1  // variance below zero
        var out = [Float](repeating: .nan, count: count)
        ccaptions_spreads(squares, weights, 1, means, &out, count)
        for i in 0..<count {
            let variance = Float(squares[i]) * (weights[i] * 1) - means[i] * means[i]
            #expect(out[i] == (variance > 0 ? variance.squareRoot() : 0), "cell \(i)")
        }
        #expect(out[3] == 0)
    }

    /// Changed cells over three means and three spreads: a mean that moved by the stillness, or a
    /// spread by its own (larger) one; the vector path and the tail alike.
    @Test(arguments: [4, 6])
    func changedCellsWeighMeansAndSpreadsApart(channels: Int) {
        let count = 29
        let fed = (0..<6).map { _ in [Float](repeating: 100, count: count) }
        var now = fed
        now[0][2] += 0.25  // a mean, just enough
        now[1][3] -= 0.2  // a mean, not enough
        now[3][5] += 0.9  // luma's spread, not enough
        now[3][11] -= 1  // luma's spread, enough
        now[5][20] += 1.5  // a third spread: counts only with six channels
        now[2][28] += 3  // in the tail
        var changed = [Int32](repeating: -1, count: count)
        let found = now[0].withUnsafeBufferPointer { n0 in now[1].withUnsafeBufferPointer { n1 in now[2].withUnsafeBufferPointer { n2 in
            now[3].withUnsafeBufferPointer { n3 in now[4].withUnsafeBufferPointer { n4 in now[5].withUnsafeBufferPointer { n5 in
                fed[0].withUnsafeBufferPointer { f0 in fed[1].withUnsafeBufferPointer { f1 in fed[2].withUnsafeBufferPointer { f2 in
                    fed[3].withUnsafeBufferPointer { f3 in fed[4].withUnsafeBufferPointer { f4 in fed[5].withUnsafeBufferPointer { f5 in
                        let nowPointers = [n0, n1, n2, n3, n4, n5].map { $0.baseAddress }
                        let fedPointers = [f0, f1, f2, f3, f4, f5].map { $0.baseAddress }
                        return ccaptions_changed_cells(nowPointers, fedPointers, Int32(channels), count, 0.25, 1, &changed)
                    } } }
                } } }
            } } }
        } } }
        #expect(Array(changed.prefix(found)) == (channels == 6 ? [2, 11, 20, 28] : [2, 11, 28]))
    }

    /// The squares of the samples, each shifted right (16-bit: by 4, 8 and 16, as 10-, 12- and
    /// 16-bit samples are), summed into their cells: the vector paths and the portable tail.
    @Test(arguments: [1, 2, 4, 8])
    func squaresAreSummedIntoTheirCells(width: Int) {
        let (cells, wide, narrow, start) = Self.row(width: width)
        func expected<Sample: BinaryInteger>(_ samples: [Sample], shift: Int) -> [UInt32] {
            (0..<cells).map { cell in
                start[cell] + samples[(cell * width)..<((cell + 1) * width)].reduce(0) { $0 + (UInt32($1) * UInt32($1)) >> shift }
            }
        }
        for shift in [4, 8, 16] {
            var sums = start
            ccaptions_add_run_squares_u16(wide, Int32(width), cells, Int32(shift), &sums)
            #expect(sums == expected(wide, shift: shift), "16-bit, \(width) a cell, shifted by \(shift)")
        }
        var sums = start
        ccaptions_add_run_squares_u8(narrow, Int32(width), cells, &sums)
        #expect(sums == expected(narrow, shift: 0), "8-bit, \(width) a cell")
    }
}

/// A line's strip of means (``MotionStrips``) from its run sums: the vector path and the portable
/// tail against the definition, means over 255 capped, merged with the strip already there or not.
@Suite struct StripKernelTests {
    @Test(arguments: [2, 3, 4, 6], [false, true])
    func stripsAreRoundedCappedMeansAndTheRunsMoveToTheSums(shift: Int, merge: Bool) {
        var generator = SystemRandomNumberGenerator()
        let cells = 37
        // Runs of up to 4× the 8-bit scale past the cap (16-bit samples out of their range).
        var runs = (0..<cells).map { _ in UInt32.random(in: 0...(1020 << shift), using: &generator) }
        runs[0] = 0
        runs[9] = UInt32(255 << shift) + UInt32(1 << shift) / 2 - 1  // rounds to 255, just
        let start = (0..<cells).map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }
        let before = (0..<cells).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var (sums, strip, kept) = (start, before, runs)
        ccaptions_keep_strip(&kept, cells, Int32(shift), merge ? 1 : 0, &sums, &strip)
        for cell in 0..<cells {
            let mean = min(255, (runs[cell] + UInt32(1 << shift) / 2) >> shift)
            let value = merge ? (UInt32(before[cell]) + mean + 1) >> 1 : mean
            #expect(strip[cell] == UInt8(value), "cell \(cell), run \(runs[cell])")
            #expect(sums[cell] == start[cell] + runs[cell])
        }
        #expect(kept.allSatisfy { $0 == 0 })
    }

    /// A line's strip of spreads: each run's standard deviation on the 8-bit scale, rounded and
    /// capped, from real samples (8-bit, and 10-bit: depth shift 2), merged or not; the squares
    /// move to the column squares. A checkerboard of single pixels has the spread a flat run has not.
    @Test(arguments: [(1, 0, false), (2, 0, true), (3, 2, false), (3, 2, true), (2, 2, false)])
    func texturesAreTheRunsStandardDeviations(widthShift: Int, depthShift: Int, merge: Bool) {
        var generator = SystemRandomNumberGenerator()
        let (cells, width) = (21, 1 << widthShift)
        let top = (256 << depthShift) - 1
        var samples = (0..<(cells * width)).map { _ in Int.random(in: 0...top, using: &generator) }
        for x in 0..<width { (samples[x], samples[width + x]) = (x % 2 == 0 ? 0 : top, top / 2) }  // checker; flat
        var runs = [UInt32](repeating: 0, count: cells), squares = runs
        for (x, value) in samples.enumerated() {
            runs[x / width] += UInt32(value)
            squares[x / width] += UInt32(value * value) >> UInt32(2 * depthShift)
        }
        let before = (0..<cells).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let start = (0..<cells).map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }
        var (texture, columnSquares, kept) = (before, start, squares)
        ccaptions_keep_texture(&kept, runs, cells, Int32(widthShift), Int32(depthShift), merge ? 1 : 0, &columnSquares, &texture)
        for cell in 0..<cells {
            let values = samples[(cell * width)..<((cell + 1) * width)].map { Double($0) / Double(1 << depthShift) }
            let mean = values.reduce(0, +) / Double(width)
            let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(width)).squareRoot()
            let value = min(255, Int(spread.rounded()))
            let expected = merge ? (Int(before[cell]) + value + 1) >> 1 : value
            // Squares shifted per sample lose a little: within one code.
            #expect(abs(Int(texture[cell]) - expected) <= 1, "cell \(cell): \(texture[cell]) vs \(expected)")
            #expect(columnSquares[cell] == start[cell] + squares[cell])
        }
        #expect(kept.allSatisfy { $0 == 0 })
        if !merge { #expect(texture[0] >= 127 && texture[1] == 0) }
    }

    /// Where cells are not a whole number of pixels wide (720p: 3, 3, 2 a cell), a line's strip
    /// and texture: each column's rounded mean and standard deviation on the 8-bit scale, from
    /// 8-bit and 10-bit samples, merged or not; the row's sums gain the column's sums; the scratch
    /// sums are left at zero. Columns are the eight kernel lanes and a tail (37).
    @Test(arguments: [(0, false), (0, true), (2, false), (2, true)])
    func unevenColumnsKeepTheirMeansAndSpreads(depthShift: Int, merge: Bool) {
        var generator = SystemRandomNumberGenerator()
        let widths = (0..<37).map { [3, 3, 2][$0 % 3] }
        let starts = widths.reduce(into: [Int32(0)]) { $0.append($0.last! + Int32($1)) }
        let top = (256 << depthShift) - 1
        var samples = (0..<Int(starts.last!)).map { _ in Int.random(in: 0...top, using: &generator) }
        for x in 0..<3 { samples[x] = top / 3 }  // a flat column
        let reciprocals = widths.map { ((UInt64(1) << 32) + UInt64($0) - 1) / UInt64($0) }
        let perSample = reciprocals.map { Float($0) / 4_294_967_296 }
        let before = widths.map { _ in UInt8.random(in: 0...255, using: &generator) }
        let textureBefore = widths.map { _ in UInt8.random(in: 0...255, using: &generator) }
        var (strip, texture) = (before, textureBefore)
        var runs = [UInt32](repeating: 0, count: widths.count), squares = runs
        let (sumsBefore, squaresBefore) = (widths.map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }, widths.map { _ in UInt32.random(in: 0...1_000_000, using: &generator) })
        var (rowSums, rowSquares) = (sumsBefore, squaresBefore)
        if depthShift == 0 {
            ccaptions_keep_strip_mapped_u8(
                samples.map { UInt8($0) }, starts, reciprocals, perSample, widths.count, merge ? 1 : 0, &runs, &squares, &rowSums,
                &rowSquares, &strip, &texture)
        } else {
            ccaptions_keep_strip_mapped_u16(
                samples.map { UInt16($0) }, starts, reciprocals, perSample, widths.count, Int32(depthShift), Int32(2 * depthShift),
                merge ? 1 : 0, &runs, &squares, &rowSums, &rowSquares, &strip, &texture)
        }
        for (column, width) in widths.enumerated() {
            let values = samples[Int(starts[column])..<Int(starts[column]) + width].map { Double($0) / Double(1 << depthShift) }
            let mean = values.reduce(0, +) / Double(width)
            let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(width)).squareRoot()
            let (meanCode, spreadCode) = (min(255, Int(mean.rounded())), min(255, Int(spread.rounded())))
            let expected = merge ? ((Int(before[column]) + meanCode + 1) >> 1, (Int(textureBefore[column]) + spreadCode + 1) >> 1)
                : (meanCode, spreadCode)
            // Means rounded at exact halves either way, squares shifted per sample: within one code.
            #expect(abs(Int(strip[column]) - expected.0) <= 1, "column \(column): mean \(strip[column]) vs \(expected.0)")
            #expect(abs(Int(texture[column]) - expected.1) <= 1, "column \(column): spread \(texture[column]) vs \(expected.1)")
            // Bit for bit what the Swift loop it replaced gave (the scan's reports depend on it).
            let (run, square) = samples[Int(starts[column])..<Int(starts[column]) + width].reduce((UInt32(0), UInt32(0))) {
                ($0.0 + UInt32($1), $0.1 + (UInt32($1) * UInt32($1)) >> UInt32(2 * depthShift))
            }
            let shift = UInt64(32 + depthShift)
            let modelMean = UInt8(min(255, (UInt64(run) &* reciprocals[column] &+ (UInt64(1) << (shift - 1))) &>> shift))
            let exactMean = Float(run) * perSample[column] / Float(1 << depthShift)
            let variance = Float(square) * perSample[column] - exactMean * exactMean
            let modelSpread = UInt8(min(255, (variance > 0 ? variance.squareRoot() : 0) + 0.5))
            func merged(_ old: UInt8, _ new: UInt8) -> UInt8 { merge ? UInt8((UInt16(old) + UInt16(new) + 1) >> 1) : new }
            #expect(strip[column] == merged(before[column], modelMean) && texture[column] == merged(textureBefore[column], modelSpread))
            // The row's sums gain the column's samples and squares (each square shifted to the 8-bit scale squared).
            let raw = samples[Int(starts[column])..<Int(starts[column]) + width]
            #expect(rowSums[column] == sumsBefore[column] + UInt32(raw.reduce(0, +)))
            #expect(rowSquares[column] == squaresBefore[column] + raw.reduce(UInt32(0)) { $0 + UInt32($1 * $1) >> UInt32(2 * depthShift) })
        }
        #expect(runs.allSatisfy { $0 == 0 } && squares.allSatisfy { $0 == 0 })
        if !merge { #expect(texture[0] == 0) }
    }
}

/// Feeding a row of cells from its sums in one pass gives what scaling, spreading and comparing
/// in three passes gave (the flash scan's reports depend on it bit for bit): the same changed
/// cells in order, the same chroma moves, the same values fed; colour and grey (chroma 128).
@Suite struct FeedKernelTests {
    @Test(arguments: [false, true])
    func feedingARowIsScalingSpreadingAndComparing(grey: Bool) {
        var generator = SystemRandomNumberGenerator()
        let (count, base) = (37, 5)  // four vectors of eight and a tail, after five other cells
        let sums = (0..<3).map { _ in (0..<count).map { _ in UInt32.random(in: 0...4080, using: &generator) } }
        let squares = (0..<count).map { index in UInt32.random(in: 0...(UInt32(sums[0][index]) * 255 + 1), using: &generator) }
        let lumaWeights = (0..<count).map { _ in Float([1.0 / 16, 1.0 / 12, 1.0 / 9].randomElement(using: &generator)!) }
        let chromaWeights = lumaWeights.map { $0 * 4 }
        let (lumaScale, chromaScale, squareScale): (Float, Float, Float) = (1, 1, 1)
        // The three passes.
        var means = (0..<3).map { _ in [Float](repeating: 0, count: count) }
        for channel in 0..<3 {
            ccaptions_scale_sums(
                sums[channel], channel == 0 ? lumaWeights : chromaWeights, channel == 0 ? lumaScale : chromaScale,
                &means[channel], count)
        }
        if grey { (means[1], means[2]) = ([Float](repeating: 128, count: count), [Float](repeating: 128, count: count)) }
        var spread = [Float](repeating: 0, count: count)
        ccaptions_spreads(squares, lumaWeights, squareScale, means[0], &spread, count)
        // What was fed: most cells just short of a change or just past it in one channel.
        var fed = [means[0], means[1], means[2], spread]
        for cell in 0..<count {
            let channel = cell % 4
            fed[channel][cell] += [0.2, -0.3, 0.9, -1.2, 0, -0.5][cell % 6]
        }
        var expectedChanged = [Int32](repeating: -1, count: count)
        let expectedCount = means[0].withUnsafeBufferPointer { n0 in means[1].withUnsafeBufferPointer { n1 in
            means[2].withUnsafeBufferPointer { n2 in spread.withUnsafeBufferPointer { s in
                fed[0].withUnsafeBufferPointer { f0 in fed[1].withUnsafeBufferPointer { f1 in
                    fed[2].withUnsafeBufferPointer { f2 in fed[3].withUnsafeBufferPointer { fs in
                        ccaptions_changed_cells(
                            [n0.baseAddress, n1.baseAddress, n2.baseAddress, s.baseAddress],
                            [f0.baseAddress, f1.baseAddress, f2.baseAddress, fs.baseAddress], 4, count, 0.25, 1, &expectedChanged)
                    } }
                } }
            } }
        } }
        // One pass, into whole-grid arrays at `base`.
        let grid = fed.map { values in
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: base + count)
            pointer.initialize(repeating: -1000, count: base)
            (pointer + base).initialize(from: values, count: count)
            return pointer
        }
        defer { grid.forEach { $0.deallocate() } }
        var changed = [Int32](repeating: -1, count: base + count)
        var moves = [Float](repeating: .nan, count: base + count)
        let found = changed.withUnsafeMutableBufferPointer { list in
            moves.withUnsafeMutableBufferPointer { moved in
                var feed = ccaptions_feed(
                    fed0: grid[0], fed1: grid[1], fed2: grid[2], fed_spread: grid[3], changed: list.baseAddress,
                    chroma_moves: moved.baseAddress, stillness: 0.25, spread_stillness: 1)
                return ccaptions_feed_row(
                    sums[0], grey ? nil : sums[1], grey ? nil : sums[2], squares, lumaWeights, chromaWeights, lumaScale,
                    chromaScale, squareScale, base, count, &feed, 0)
            }
        }
        #expect(found == expectedCount && found > 4 && found < count)
        #expect(Array(changed.prefix(found)) == expectedChanged.prefix(expectedCount).map { $0 + Int32(base) })
        for (place, listed) in expectedChanged.prefix(expectedCount).enumerated() {
            let cell = Int(listed)
            #expect(moves[place] == max(abs(means[1][cell] - fed[1][cell]), abs(means[2][cell] - fed[2][cell])))
        }
        for cell in 0..<count {
            let wasChanged = expectedChanged.prefix(expectedCount).contains(Int32(cell))
            let now = [means[0][cell], means[1][cell], means[2][cell], spread[cell]]
            for channel in 0..<4 {
                #expect(grid[channel][base + cell] == (wasChanged ? now[channel] : fed[channel][cell]), "cell \(cell) channel \(channel)")
            }
        }
    }
}

import CaptionsCore

/// Averages linear light over a grid of small blocks, from a regular lattice of samples.
///
/// Blocks are `blockSize` pixels square (the last row and column may be smaller); inside each,
/// every `step`-th pixel of every `step`-th row is read: four samples a block, about 32,000 a
/// frame at 1080p.
/// Averages are of linear values, as WCAG's area rules need. The buffers are allocated once, so
/// a frame costs no allocation.
struct BlockSampler {
    let width: Int
    let height: Int
    let blockSize: Int
    let step: Int
    let columns: Int
    let rows: Int
    /// Mean linear red, green and blue per block, row by row, after ``sample(_:light:)``.
    private(set) var red: [Float]
    private(set) var green: [Float]
    private(set) var blue: [Float]
    /// 1 / samples per block.
    private let weight: [Float]
    /// The x of each sample in a row, and its block column (so the loop needs no division).
    private let sampleXs: [Int]
    private let sampleColumns: [Int]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        blockSize = max(4, min(16, min(width, height) / 24 / 4 * 4))
        step = max(1, blockSize / 2)
        columns = (width + blockSize - 1) / blockSize
        rows = (height + blockSize - 1) / blockSize
        red = [Float](repeating: 0, count: columns * rows)
        green = red
        blue = red
        var counts = [Float](repeating: 0, count: columns * rows)
        for y in stride(from: step / 2, to: height, by: step) {
            for x in stride(from: step / 2, to: width, by: step) {
                counts[(y / blockSize) * columns + x / blockSize] += 1
            }
        }
        weight = counts.map { $0 > 0 ? 1 / $0 : 0 }
        let xs = Array(stride(from: step / 2, to: width, by: step))
        let size = blockSize
        sampleXs = xs
        sampleColumns = xs.map { $0 / size }
    }

    var blockCount: Int { columns * rows }

    /// Blocks that receive at least one sample (a sliver at the right or bottom edge may not).
    var sampledBlockCount: Int { weight.count { $0 > 0 } }

    /// Whether `block` receives samples.
    func isSampled(_ block: Int) -> Bool { weight[block] > 0 }

    /// Fills ``red``, ``green`` and ``blue`` with the frame's block means.
    mutating func sample(_ frame: VideoFrame, light: LinearLight) {
        for index in red.indices {
            red[index] = 0
            green[index] = 0
            blue[index] = 0
        }
        let planes = frame.planes
        switch frame.layout {
        case .planarYUV(let shiftX, let shiftY):
            guard let cb = planes.1.base, let cr = planes.2.base else { return }
            sampleYUV(frame, light: light) { y in
                PlanarChroma(cb: cb + (y >> shiftY) * planes.1.stride, cr: cr + (y >> shiftY) * planes.2.stride, shift: shiftX)
            }
        case .nv12:
            guard let chroma = planes.1.base else { return }
            sampleYUV(frame, light: light) { y in InterleavedChroma(uv: chroma + (y >> 1) * planes.1.stride) }
        case .gray:
            sampleYUV(frame, light: light) { _ in NeutralChroma() }
        case .rgb24:
            sampleRGB(frame, light: light)
        }
        for index in red.indices {
            red[index] *= weight[index]
            green[index] *= weight[index]
            blue[index] *= weight[index]
        }
    }

    /// Sums linear R, G, B per block from the Y plane and the chroma row `chromaRow(y)` gives for
    /// luma line `y`: row pointers per line, no per-sample division (the loop runs 30,000 times a
    /// frame at 1080p, specialised for each chroma layout).
    @inline(__always)
    private mutating func sampleYUV<Row: ChromaRow>(_ frame: VideoFrame, light: LinearLight, chromaRow: (Int) -> Row) {
        guard let luma = frame.planes.0.base else { return }
        let lumaStride = frame.planes.0.stride
        let (columns, blockSize, step, height) = (columns, blockSize, step, height)
        light.withTables { tables in
            sampleXs.withUnsafeBufferPointer { xs in
                sampleColumns.withUnsafeBufferPointer { blockColumns in
                    red.withUnsafeMutableBufferPointer { red in
                        green.withUnsafeMutableBufferPointer { green in
                            blue.withUnsafeMutableBufferPointer { blue in
                                var y = step / 2
                                while y < height {
                                    let lumaRow = luma + y * lumaStride
                                    let chroma = chromaRow(y)
                                    let blockRow = (y / blockSize) * columns
                                    for index in 0..<xs.count {
                                        let x = xs[index]
                                        let (u, v) = chroma.uv(at: x)
                                        let (r, g, b) = tables.linearRGB(y: lumaRow[x], u: u, v: v)
                                        let block = blockRow + blockColumns[index]
                                        red[block] += r
                                        green[block] += g
                                        blue[block] += b
                                    }
                                    y += step
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private mutating func sampleRGB(_ frame: VideoFrame, light: LinearLight) {
        guard let base = frame.planes.0.base else { return }
        let stride = frame.planes.0.stride
        for y in Swift.stride(from: step / 2, to: height, by: step) {
            let row = base + y * stride
            let blockRow = (y / blockSize) * columns
            for x in Swift.stride(from: step / 2, to: width, by: step) {
                let block = blockRow + x / blockSize
                red[block] += light.linear(Float(row[x * 3]) / 255)
                green[block] += light.linear(Float(row[x * 3 + 1]) / 255)
                blue[block] += light.linear(Float(row[x * 3 + 2]) / 255)
            }
        }
    }
}

/// The chroma samples of one line, for a luma x.
protocol ChromaRow {
    func uv(at x: Int) -> (UInt8, UInt8)
}

/// Separate U and V planes, subsampled horizontally by `1 << shift`.
private struct PlanarChroma: ChromaRow {
    let cb: UnsafePointer<UInt8>
    let cr: UnsafePointer<UInt8>
    let shift: Int

    @inline(__always)
    func uv(at x: Int) -> (UInt8, UInt8) { (cb[x >> shift], cr[x >> shift]) }
}

/// NV12: U and V interleaved at half resolution.
private struct InterleavedChroma: ChromaRow {
    let uv: UnsafePointer<UInt8>

    @inline(__always)
    func uv(at x: Int) -> (UInt8, UInt8) { (uv[(x >> 1) * 2], uv[(x >> 1) * 2 + 1]) }
}

/// Grey: no chroma.
private struct NeutralChroma: ChromaRow {
    @inline(__always)
    func uv(at x: Int) -> (UInt8, UInt8) { (128, 128) }
}

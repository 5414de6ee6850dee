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
            sampleYUV(frame, light: light) { x, y in
                let row = (y >> shiftY)
                return (cb[row * planes.1.stride + (x >> shiftX)], cr[row * planes.2.stride + (x >> shiftX)])
            }
        case .nv12:
            guard let chroma = planes.1.base else { return }
            sampleYUV(frame, light: light) { x, y in
                let offset = (y >> 1) * planes.1.stride + (x >> 1) * 2
                return (chroma[offset], chroma[offset + 1])
            }
        case .gray:
            sampleYUV(frame, light: light) { _, _ in (128, 128) }
        case .rgb24:
            sampleRGB(frame, light: light)
        }
        for index in red.indices {
            red[index] *= weight[index]
            green[index] *= weight[index]
            blue[index] *= weight[index]
        }
    }

    /// Sums linear R, G, B per block from Y and the chroma `chroma(x, y)` gives for a luma position.
    @inline(__always)
    private mutating func sampleYUV(
        _ frame: VideoFrame, light: LinearLight, chroma: (Int, Int) -> (UInt8, UInt8)
    ) {
        guard let luma = frame.planes.0.base else { return }
        let lumaStride = frame.planes.0.stride
        let columns = columns
        let blockSize = blockSize
        let step = step
        let width = width
        let height = height
        light.luma.withUnsafeBufferPointer { lumaTable in
        light.crToRed.withUnsafeBufferPointer { crToRed in
        light.crToGreen.withUnsafeBufferPointer { crToGreen in
        light.cbToGreen.withUnsafeBufferPointer { cbToGreen in
        light.cbToBlue.withUnsafeBufferPointer { cbToBlue in
        light.toLinear.withUnsafeBufferPointer { toLinear in
        red.withUnsafeMutableBufferPointer { red in
        green.withUnsafeMutableBufferPointer { green in
        blue.withUnsafeMutableBufferPointer { blue in
            let scale = Float(LinearLight.steps)
            let top = LinearLight.steps
            @inline(__always) func linear(_ value: Float) -> Float {
                toLinear[min(max(Int(value * scale + 0.5), 0), top)]
            }
            var y = step / 2
            while y < height {
                let row = luma + y * lumaStride
                let blockRow = (y / blockSize) * columns
                var x = step / 2
                while x < width {
                    let (u, v) = chroma(x, y)
                    let lumaValue = lumaTable[Int(row[x])]
                    let block = blockRow + x / blockSize
                    red[block] += linear(lumaValue + crToRed[Int(v)])
                    green[block] += linear(lumaValue + crToGreen[Int(v)] + cbToGreen[Int(u)])
                    blue[block] += linear(lumaValue + cbToBlue[Int(u)])
                    x += step
                }
                y += step
            }
        }}}}}}}}}
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

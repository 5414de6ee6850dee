import CaptionsCore
import CaptionsFlash

/// Builds 4:2:0 YUV frames in memory from an RGB picture function, with any stride, matrix and range.
struct FrameBuilder {
    var width: Int
    var height: Int
    var matrix: VideoFrame.Matrix = .bt709
    var range: VideoFrame.Range = .limited
    /// Extra bytes at the end of each row, to test strides wider than the width.
    var padding = 0

    /// Calls `body` with a frame whose pixel (x, y) has the colour `rgb(x, y)` (0–255 sRGB).
    func withFrame<Result>(
        at seconds: Double, rgb: (Int, Int) -> (Int, Int, Int), _ body: (VideoFrame) -> Result
    ) -> Result {
        let (kr, kb): (Double, Double) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let lumaStride = width + padding
        let chromaStride = chromaWidth + padding
        var luma = [UInt8](repeating: 0xEE, count: lumaStride * height)
        var cb = [UInt8](repeating: 0xEE, count: chromaStride * chromaHeight)
        var cr = cb
        func encode(_ r: Int, _ g: Int, _ b: Int) -> (UInt8, UInt8, UInt8) {
            let (r, g, b) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
            let y = kr * r + (1 - kr - kb) * g + kb * b
            let pb = (b - y) / (2 * (1 - kb))
            let pr = (r - y) / (2 * (1 - kr))
            func code(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
            return range == .limited
                ? (code(16 + 219 * y), code(128 + 224 * pb), code(128 + 224 * pr))
                : (code(255 * y), code(128 + 255 * pb), code(128 + 255 * pr))
        }
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                let (yCode, cbCode, crCode) = encode(r, g, b)
                luma[y * lumaStride + x] = yCode
                if x % 2 == 0, y % 2 == 0 {
                    cb[(y / 2) * chromaStride + x / 2] = cbCode
                    cr[(y / 2) * chromaStride + x / 2] = crCode
                }
            }
        }
        return luma.withUnsafeBufferPointer { lumaBuffer in
            cb.withUnsafeBufferPointer { cbBuffer in
                cr.withUnsafeBufferPointer { crBuffer in
                    let frame = VideoFrame(
                        width: width, height: height, layout: .planarYUV(chromaShiftX: 1, chromaShiftY: 1),
                        matrix: matrix, range: range,
                        planes: (
                            VideoFrame.Plane(base: lumaBuffer.baseAddress, stride: lumaStride),
                            VideoFrame.Plane(base: cbBuffer.baseAddress, stride: chromaStride),
                            VideoFrame.Plane(base: crBuffer.baseAddress, stride: chromaStride)
                        ),
                        time: MediaTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000) ?? .zero)
                    return body(frame)
                }
            }
        }
    }
}

extension FrameBuilder {
    /// Scans `seconds` of video at `fps` whose picture at frame `n` is `picture(n)(x, y)`.
    func scan(
        fps: Double, seconds: Double, criteria: FlashCriteria = FlashCriteria(), picture: (Int) -> (Int, Int) -> (Int, Int, Int)
    ) -> FlashReport {
        var analyzer = FlashAnalyzer(width: width, height: height, criteria: criteria)
        for frame in 0..<Int(fps * seconds) {
            withFrame(at: Double(frame) / fps, rgb: picture(frame)) { analyzer.analyze($0) }
        }
        return analyzer.finish()
    }
}

import CCaptionsKernels
import CaptionsCore

/// Shot changes (cuts) found in a video's decoded pictures, with the measure that found them.
public struct ShotChanges: Sendable, Hashable, Codable {
    /// One cut: the time of the first picture of the new shot (0 = first displayed picture) and
    /// its score (0–100).
    public struct Cut: Sendable, Hashable, Codable {
        /// The time, as an exact fraction of seconds.
        public var value: Int64
        /// The fraction's denominator.
        public var timescale: Int64
        /// How different the picture is from the one before, beyond the change before it (0–100).
        public var score: Double

        /// The time.
        public var time: MediaTime { MediaTime(value: value, timescale: timescale) ?? .zero }
    }

    /// The cuts, in time order.
    public var cuts: [Cut]
    /// The frame rate of the video (its average), when known.
    public var framesPerSecond: Double?
    /// The score a change had to reach.
    public var threshold: Double
    /// Why the list may be incomplete (damage, a cut-short file), `nil` when it is whole.
    public var partialReason: String?
}

/// Finds shot changes in one pass over the decoded video, as FFmpeg's `scdet` filter measures
/// them: the mean absolute difference of each picture's luma (green for RGB sources) from the
/// previous one's, 0–100, minus how much the previous picture differed from its own predecessor
/// (so that steady motion scores low and a cut scores high). Every other sample of every other
/// line is compared, which keeps the analysis to a small share of decoding.
public enum ShotChangeDetector {
    /// The default score a cut must reach (FFmpeg's `scdet` default).
    public static let defaultThreshold = 10.0

    /// Decodes `path` and returns its cuts; `progress` is called with each picture's time.
    public static func detect(
        path: String, threshold: Double = defaultThreshold, progress: (Double) -> Void = { _ in }
    ) throws(MediaError) -> ShotChanges {
        // No picture is deblocked (a tenth of H.264's decoding): the error that builds up in
        // reference pictures until the next keyframe moves a picture's difference from the last
        // one by a fraction of a point, far below a cut's (on six test clips, the same cuts).
        let decoder = try VideoDecoder(path: path, deblocking: .none, callerWorksBeside: true)
        var thumbnail: [UInt8] = []
        var previousDifference: Double?
        var cuts: [ShotChanges.Cut] = []
        var haveFirst = false
        let outcome = decoder.decode { frame in
            let count = ((frame.width + 1) / 2) * ((frame.height + 1) / 2)
            if thumbnail.count != count {
                // The first picture, or a change of size mid-stream: start again from this one.
                thumbnail = [UInt8](repeating: 0, count: count)
                haveFirst = false
            }
            guard let difference = Self.difference(frame, thumbnail: &thumbnail) else { return true }
            if haveFirst {
                let score = min(difference, abs(difference - (previousDifference ?? 0)))
                if score >= threshold {
                    cuts.append(ShotChanges.Cut(value: frame.time.value, timescale: frame.time.timescale, score: (score * 10).rounded() / 10))
                }
                previousDifference = difference
            }
            haveFirst = true
            progress(frame.time.seconds)
            return true
        }
        guard outcome.frameCount > 0 else {
            throw MediaError("media.decode.nothing", "no picture of \(path) could be decoded\(outcome.partialReason.map { ": \($0)" } ?? "")")
        }
        return ShotChanges(
            cuts: cuts, framesPerSecond: decoder.info.framesPerSecond, threshold: threshold, partialReason: outcome.partialReason)
    }

    /// The picture's mean absolute difference from `thumbnail` (0–100), which it then replaces.
    private static func difference(_ frame: VideoFrame, thumbnail: inout [UInt8]) -> Double? {
        guard let base = frame.planes.0.base else { return nil }
        var step = 1
        var offset = 0
        if case .packedRGB(let components, _, let green, _, _) = frame.layout {
            step = components
            offset = green
        }
        let bytes = frame.bytesPerSample
        let shift = Int32(max(0, frame.bitDepth - 8))
        let sad = thumbnail.withUnsafeMutableBufferPointer { buffer in
            ccaptions_thumbnail_sad(
                base, frame.planes.0.stride, Int32(frame.width), Int32(frame.height), Int32(bytes), shift,
                Int32(step), Int32(offset), buffer.baseAddress)
        }
        return Double(sad) * 100 / Double(thumbnail.count) / 255
    }
}

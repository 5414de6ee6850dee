import CCaptionsFFmpeg
import CaptionsCore

/// The HDR10 metadata of a video's first frame: mastering display colour volume (SMPTE ST 2086)
/// and content light levels, which decoders put in frame side data.
struct HDRMetadata {
    var mastering: AVMasteringDisplayMetadata?
    var lightLevel: AVContentLightMetadata?

    /// Decodes the first frame of `path` and keeps its HDR10 metadata (none when it has none).
    init(firstFrameOf path: String) {
        guard let decoder = try? VideoDecoder(path: path) else { return }
        var mastering: AVMasteringDisplayMetadata?
        var lightLevel: AVContentLightMetadata?
        _ = decoder.decode { (_: VideoFrame, frame: UnsafeMutablePointer<AVFrame>, _) -> Bool in
            if let data = ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) {
                mastering = UnsafeRawPointer(data.pointee.data).load(as: AVMasteringDisplayMetadata.self)
            }
            if let data = ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) {
                lightLevel = UnsafeRawPointer(data.pointee.data).load(as: AVContentLightMetadata.self)
            }
            return false
        }
        self.mastering = mastering
        self.lightLevel = lightLevel
    }

    /// x265's `hdr10`, `master-display` (chromaticities in 0.00002, luminance in 0.0001 cd/m²)
    /// and `max-cll` parameters.
    var x265Parameters: [String] {
        var parameters: [String] = []
        if let mastering, mastering.has_primaries != 0, mastering.has_luminance != 0 {
            func scaled(_ value: AVRational, _ unit: Double) -> Int {
                value.den != 0 ? Int((Double(value.num) / Double(value.den) / unit).rounded()) : 0
            }
            let p = mastering.display_primaries
            let (red, green, blue) = (p.0, p.1, p.2)
            let point = { (xy: (AVRational, AVRational)) in "(\(scaled(xy.0, 0.00002)),\(scaled(xy.1, 0.00002)))" }
            parameters.append(
                "master-display=G\(point(green))B\(point(blue))R\(point(red))WP\(point(mastering.white_point))"
                    + "L(\(scaled(mastering.max_luminance, 0.0001)),\(scaled(mastering.min_luminance, 0.0001)))")
        }
        if let lightLevel { parameters.append("max-cll=\(lightLevel.MaxCLL),\(lightLevel.MaxFALL)") }
        if !parameters.isEmpty { parameters.insert("hdr10=1", at: 0) }
        return parameters
    }

    /// Adds the metadata to `stream` as side data, for containers that carry it (Matroska, MP4).
    func attach(to stream: UnsafeMutablePointer<AVStream>) {
        if var mastering, ccaptions_av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nil) == nil,
            let target = ccaptions_av_stream_new_side_data(
                stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, MemoryLayout<AVMasteringDisplayMetadata>.size)
        {
            withUnsafeBytes(of: &mastering) { UnsafeMutableRawPointer(target).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
        if var lightLevel, ccaptions_av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nil) == nil,
            let target = ccaptions_av_stream_new_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, MemoryLayout<AVContentLightMetadata>.size)
        {
            withUnsafeBytes(of: &lightLevel) { UnsafeMutableRawPointer(target).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }
}

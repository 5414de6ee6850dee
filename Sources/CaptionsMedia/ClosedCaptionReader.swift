import CCaptionsFFmpeg
import CaptionsCore

/// What ``ClosedCaptionReader`` got out of a video: the caption data of each picture that
/// carries some, and where the video was damaged (captions there may be missing).
public struct ClosedCaptionContents: Sendable {
    /// The pictures that carry caption data, in display order.
    public var pictures: [ClosedCaptionData]
    /// Pictures decoded.
    public var pictureCount: Int
    /// When the last picture decoded stops being shown (the end of the video read).
    public var end: MediaTime
    /// The video's frames per second, when the container says.
    public var framesPerSecond: Double?
    /// The video codec's name, such as `h264`.
    public var codec: String
    /// The damage found (stretches with no picture, or pictures decoded with errors), each a
    /// warning with the time range where captions may be missing.
    public var damage: [SubtitleDamage]

    /// One warning diagnostic per damage report.
    public var diagnostics: [Diagnostic] { damage.map(\.diagnostic) }
}

/// Reads the closed captions a video stream carries in its pictures (CEA-608 and CEA-708 in
/// ATSC A/53 `cc_data`: H.264 and HEVC SEI, MPEG-2 user data), as libavcodec exports them
/// (`AV_FRAME_DATA_A53_CC` side data on each decoded picture).
///
/// The video is decoded, since the data rides on the pictures and comes out in display order
/// only from the decoder; the in-loop filter is skipped (no pixel is looked at). Times are on the
/// decoder's one monotonic timeline (0 = the first picture shown; timestamp jumps mended), and a
/// picture lost to damage is reported with its time range, as the flash scan reports it.
public enum ClosedCaptionReader {
    /// The caption data of every picture of the best video stream of `path`; throws
    /// `media.open`, `media.video.none` or `media.ffmpeg.missing`.
    public static func read(path: String) throws(MediaError) -> ClosedCaptionContents {
        let decoder = try VideoDecoder(path: path, deblocking: .none)
        var pictures: [ClosedCaptionData] = []
        var end = MediaTime.zero
        let outcome = decoder.decode { video, frame, _ in
            end = video.time + (MediaTime(value: Int64(((video.duration ?? 0) * 1_000_000).rounded()), timescale: 1_000_000) ?? .zero)
            if let side = ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_A53_CC), side.pointee.size >= 3 {
                let bytes = UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size) / 3 * 3)
                pictures.append(ClosedCaptionData(time: video.time, triplets: Array(bytes)))
            }
            return true
        }
        var damage: [SubtitleDamage] = []
        func time(_ seconds: Double) -> MediaTime {
            MediaTime(value: Int64((seconds * 1_000).rounded()), timescale: 1_000) ?? .zero
        }
        for span in outcome.gaps + outcome.damaged {
            damage.append(SubtitleDamage(
                kind: .damaged, start: time(span.start), end: time(span.end),
                message: "the video is damaged from \(SubtitleStreamReader.clock(time(span.start))) to \(SubtitleStreamReader.clock(time(span.end))); captions there may be missing or wrong"))
        }
        // A stop before the end (reading failed, or the file is shorter than it says), beside any gaps.
        if let reason = outcome.partialReason, damage.isEmpty || reason.contains("stops at") || reason.contains("ends or breaks off") {
            let sentence = reason.split(separator: ";").first { $0.contains("stops at") || $0.contains("ends or breaks off") }.map(String.init) ?? reason
            damage.append(SubtitleDamage(
                kind: outcome.frameCount == 0 ? .damaged : .truncated, start: end, end: nil,
                message: "\(sentence); captions after \(SubtitleStreamReader.clock(end)) may be missing"))
        }
        return ClosedCaptionContents(
            pictures: pictures, pictureCount: outcome.frameCount, end: end, framesPerSecond: decoder.info.framesPerSecond,
            codec: decoder.info.codec, damage: damage.sorted { $0.start < $1.start })
    }
}

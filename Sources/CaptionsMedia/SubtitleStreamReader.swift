import CCaptionsFFmpeg
import CaptionsCore

/// Reads a text subtitle stream (SubRip, WebVTT, ASS/SSA, `mov_text`) out of a media container.
public enum SubtitleStreamReader {
    /// The packets of subtitle stream `index` (the container's stream number, as `ffprobe` shows
    /// it), or of the first text subtitle stream when `index` is nil.
    public static func read(path: String, stream index: Int? = nil) throws(MediaError) -> [SubtitlePacket] {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        var format: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.check(ccaptions_avformat_open_input(&format, path, nil, nil), "media.open", "cannot open \(path)")
        defer { ccaptions_avformat_close_input(&format) }
        try FFmpegCall.check(ccaptions_avformat_find_stream_info(format, nil), "media.open", "cannot read the streams of \(path)")
        guard let format else { throw MediaError("media.open", "cannot open \(path)") }
        var chosen: (index: Int32, markup: SubtitlePacket.Markup, timeBase: AVRational)?
        for streamIndex in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[streamIndex], let parameters = stream.pointee.codecpar,
                parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE, index == nil || index == streamIndex
            else { continue }
            guard let markup = markup(of: parameters.pointee.codec_id) else {
                if index != nil { throw MediaError("media.subtitle.unsupported", "stream \(streamIndex) holds picture subtitles, not text") }
                continue
            }
            chosen = (Int32(streamIndex), markup, stream.pointee.time_base)
            break
        }
        guard let chosen else {
            throw MediaError(
                "media.subtitle.none",
                index.map { "\(path) has no subtitle stream \($0)" } ?? "\(path) has no text subtitle stream")
        }
        var allocated = ccaptions_av_packet_alloc()
        defer { ccaptions_av_packet_free(&allocated) }
        guard let packet = allocated else { throw MediaError("media.memory", "out of memory") }
        var packets: [SubtitlePacket] = []
        while ccaptions_av_read_frame(format, packet) >= 0 {
            defer { ccaptions_av_packet_unref(packet) }
            guard packet.pointee.stream_index == chosen.index, let data = packet.pointee.data else { continue }
            let bytes = UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))
            let timeBase = chosen.timeBase
            let stamp = packet.pointee.pts != FFmpegCall.noTimestamp ? packet.pointee.pts : packet.pointee.dts
            guard stamp != FFmpegCall.noTimestamp,
                let start = MediaTime(value: stamp * Int64(timeBase.num), timescale: Int64(timeBase.den))
            else { continue }
            let end = packet.pointee.duration > 0
                ? MediaTime(value: packet.pointee.duration * Int64(timeBase.num), timescale: Int64(timeBase.den)).map { start + $0 }
                : nil
            packets.append(SubtitlePacket(
                start: start, end: end, text: text(bytes, markup: chosen.markup), markup: chosen.markup,
                settings: sideData(packet, AV_PKT_DATA_WEBVTT_SETTINGS),
                identifier: sideData(packet, AV_PKT_DATA_WEBVTT_IDENTIFIER)))
        }
        return packets
    }

    private static func markup(of codec: AVCodecID) -> SubtitlePacket.Markup? {
        switch codec {
        case AV_CODEC_ID_SUBRIP, AV_CODEC_ID_SRT: .subrip
        case AV_CODEC_ID_WEBVTT: .webvtt
        case AV_CODEC_ID_ASS, AV_CODEC_ID_SSA: .ass
        case AV_CODEC_ID_MOV_TEXT, AV_CODEC_ID_TEXT: .plain
        default: nil
        }
    }

    /// The packet's text: `mov_text` starts with a 16-bit big-endian length (styles follow it).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, markup: SubtitlePacket.Markup) -> String {
        if markup == .plain, bytes.count >= 2 {
            let length = Int(bytes[0]) << 8 | Int(bytes[1])
            if length + 2 <= bytes.count {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[2..<(2 + length)]), as: UTF8.self)
            }
        }
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
    }

    private static func sideData(_ packet: UnsafeMutablePointer<AVPacket>, _ type: AVPacketSideDataType) -> String? {
        var size = 0
        guard let data = ccaptions_av_packet_get_side_data(packet, type, &size), size > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }
}

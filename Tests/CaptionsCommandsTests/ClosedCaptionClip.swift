import CCaptionsFFmpeg
@testable import CaptionsFormats
import Foundation

/// Writes test videos that carry CEA-608 captions in their pictures, as broadcast encoders do:
/// each picture gets its ATSC A/53 `cc_data` as frame side data, and libavcodec's encoder
/// (MPEG-2 or x264, both with `a53cc` on) puts it in the bitstream (MPEG-2 user data, H.264 SEI).
/// FFmpeg has no command that does this, hence libavcodec here.
enum ClosedCaptionClip {
    /// The `cc_data` of each frame at 29.97 frames a second for an SCC file: the pairs of each
    /// line sent one a frame from its timecode on, on field 1 (`cc_type` 0), with a padding
    /// triplet for field 2 as A/53 requires; frame 0 is `lead` frames before the first timecode
    /// (`offset`, the first timecode's frame minus `lead`). With `field2`, the pairs go on field 2
    /// as channel CC3 (miscellaneous codes 0x14 become 0x15) and field 1 is padding.
    /// `collisions` counts pairs a later line's timecode overwrote (an SCC line sending more
    /// pairs than there are frames before the next line: a broadcast encoder would delay them).
    static func pictures(fromSCC text: String, lead: Int = 15, field2: Bool = false) -> (pictures: [[UInt8]], offset: Int, collisions: Int) {
        let timecode = SMPTETimecode(frameRate: nil)
        var pairs: [Int: (UInt8, UInt8)] = [:]
        var collisions = 0
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ").flatMap { $0.split(separator: "\t") }
            guard let first = words.first, let (start, _) = timecode.frame(parsing: first) else { continue }
            for (offset, word) in words.dropFirst().enumerated() {
                guard word.count == 4, let value = UInt16(word, radix: 16) else { continue }
                if pairs.updateValue((UInt8(value >> 8), UInt8(value & 0xFF)), forKey: Int(start) + offset) != nil { collisions += 1 }
            }
        }
        let offset = max(0, (pairs.keys.min() ?? 0) - lead)
        let count = (pairs.keys.max() ?? 0) - offset + 60
        let pictures = (0..<count).map { frame -> [UInt8] in
            var (first, second) = pairs[frame + offset] ?? (0x80, 0x80)
            guard field2 else { return [0xFC, first, second, 0xFD, 0x80, 0x80] }
            if first & 0x7F == 0x14, (0x20...0x2F).contains(second & 0x7F) { first = 0x15 }  // 0x15 has odd parity itself
            return [0xFC, 0x80, 0x80, 0xFD, first, second]
        }
        return (pictures, offset, collisions)
    }

    enum Failure: Error { case ffmpeg(String) }

    /// Writes `pictures.count` frames of 160×120 video at 30000/1001 frames a second to `path`
    /// (the container from its extension), frame `n` carrying `pictures[n]` as its caption data.
    static func write(_ pictures: [[UInt8]], encoder name: String, to path: String) throws {
        if let failure = ccaptions_ffmpeg_load() { throw Failure.ffmpeg(String(cString: failure)) }
        var output: UnsafeMutablePointer<AVFormatContext>?
        guard ccaptions_avformat_alloc_output_context2(&output, nil, nil, path) >= 0, let output else {
            throw Failure.ffmpeg("no container for \(path)")
        }
        defer { ccaptions_avformat_free_context(output) }
        guard let codec = ccaptions_avcodec_find_encoder_by_name(name) else { throw Failure.ffmpeg("no encoder \(name)") }
        var context = ccaptions_avcodec_alloc_context3(codec)
        defer { ccaptions_avcodec_free_context(&context) }
        guard let encoder = context else { throw Failure.ffmpeg("out of memory") }
        encoder.pointee.width = 160
        encoder.pointee.height = 120
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = AVRational(num: 1001, den: 30000)
        encoder.pointee.framerate = AVRational(num: 30000, den: 1001)
        encoder.pointee.gop_size = 15
        encoder.pointee.max_b_frames = 2
        if Int32(output.pointee.oformat.pointee.flags) & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var options: OpaquePointer?
        ccaptions_av_dict_set(&options, "a53cc", "1", 0)
        if name == "libx264" { ccaptions_av_dict_set(&options, "preset", "ultrafast", 0) }
        defer { ccaptions_av_dict_free(&options) }
        guard ccaptions_avcodec_open2(encoder, codec, &options) >= 0 else { throw Failure.ffmpeg("cannot open \(name)") }
        guard let stream = ccaptions_avformat_new_stream(output, nil) else { throw Failure.ffmpeg("out of memory") }
        ccaptions_avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        stream.pointee.time_base = encoder.pointee.time_base
        guard ccaptions_avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE) >= 0 else { throw Failure.ffmpeg("cannot write \(path)") }
        defer { ccaptions_avio_closep(&output.pointee.pb) }
        guard ccaptions_avformat_write_header(output, nil) >= 0 else { throw Failure.ffmpeg("cannot write the header") }

        var packet = ccaptions_av_packet_alloc()
        defer { ccaptions_av_packet_free(&packet) }
        func drain() throws {
            while let packet, ccaptions_avcodec_receive_packet(encoder, packet) >= 0 {
                ccaptions_av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
                packet.pointee.stream_index = stream.pointee.index
                guard ccaptions_av_interleaved_write_frame(output, packet) >= 0 else { throw Failure.ffmpeg("cannot write a packet") }
            }
        }
        for (number, data) in pictures.enumerated() {
            var allocated = ccaptions_av_frame_alloc()
            defer { ccaptions_av_frame_free(&allocated) }
            guard let frame = allocated else { throw Failure.ffmpeg("out of memory") }
            frame.pointee.width = 160
            frame.pointee.height = 120
            frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            guard ccaptions_av_frame_get_buffer(frame, 0) >= 0 else { throw Failure.ffmpeg("out of memory") }
            // A grey that changes slowly, so the encoder has something to code.
            memset(frame.pointee.data.0!, Int32(64 + number % 64), Int(frame.pointee.linesize.0) * 120)
            memset(frame.pointee.data.1!, 128, Int(frame.pointee.linesize.1) * 60)
            memset(frame.pointee.data.2!, 128, Int(frame.pointee.linesize.2) * 60)
            frame.pointee.pts = Int64(number)
            if !data.isEmpty, let side = ccaptions_av_frame_new_side_data(frame, AV_FRAME_DATA_A53_CC, data.count) {
                data.withUnsafeBytes { side.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: data.count) }
            }
            guard ccaptions_avcodec_send_frame(encoder, frame) >= 0 else { throw Failure.ffmpeg("cannot encode frame \(number)") }
            try drain()
        }
        ccaptions_avcodec_send_frame(encoder, nil)
        try drain()
        guard ccaptions_av_write_trailer(output) >= 0 else { throw Failure.ffmpeg("cannot finish \(path)") }
    }
}

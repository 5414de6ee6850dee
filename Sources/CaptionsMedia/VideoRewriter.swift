import CCaptionsFFmpeg
import CCaptionsKernels
import CaptionsCore
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Rewrites a video with some frames changed: decodes every frame (exactly: all filters on),
/// lets the caller look at each and say how to change its light (``LightChange``), encodes the
/// video stream again with libavcodec and copies every other stream (audio, subtitles, data) as
/// it is. The codec family, pixel format, colour tags, sample aspect ratio, the stream's HDR
/// metadata, every stream's and the file's tags (language, title, timecode) and the chapters are
/// kept; the container follows the output's extension.
public final class VideoRewriter {
    /// How the video is encoded.
    public struct Settings: Sendable {
        /// An FFmpeg encoder name (`libx264`, `libx265`, `mpeg2video`…); nil: the input's family.
        public var codec: String?
        /// Constant rate factor for x264/x265 (nil: 18).
        public var crf: Int?
        /// x264/x265 preset (nil: `medium`).
        public var preset: String?

        /// Settings; nil keeps the defaults.
        public init(codec: String? = nil, crf: Int? = nil, preset: String? = nil) {
            self.codec = codec
            self.crf = crf
            self.preset = preset
        }
    }

    /// The video stream read.
    public var info: VideoStreamInfo { decoder.info }
    /// The encoder used.
    public let encoderName: String
    /// Streams that could not be copied into the output's container.
    public private(set) var droppedStreams: [String] = []
    /// Why the container's own codec was used instead of the input's, when it was
    /// (``open(input:temporary:finalPath:settings:)``).
    public private(set) var codecFallback: String?
    /// The file being written.
    private let writtenPath: String

    private let decoder: VideoDecoder
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoded: UnsafeMutablePointer<AVPacket>?
    private let videoOutput: Int32
    /// Input stream index → output stream index, for the streams copied.
    private var streamMap: [Int32: Int32] = [:]
    private var inputTimeBases: [Int32: AVRational] = [:]
    /// A frame in the encoder's pixel format, when it differs from the decoder's, and its converter.
    private var converted: UnsafeMutablePointer<AVFrame>?
    private var converter: OpaquePointer?
    /// Palette output (GIF, or a palette input kept as one): each picture gets its own palette
    /// (``PaletteFilter``), made when the first picture arrives, and made again if the pictures
    /// change size or format.
    private let usesPalettes: Bool
    private var palettes: PaletteFilter?
    /// The video stream's time base, in which decoded frames are stamped.
    private var streamTimeBase = AVRational(num: 1, den: 1)
    /// The muxer is written to by the reading thread (copied packets) and the caller's (video).
    private let muxing = DispatchSemaphore(value: 1)
    private var writeFailure: Int32 = 0

    /// Opens `input` and prepares to write `temporary` in the container that `finalPath`'s
    /// extension names, in the input's codec family. When that family cannot be written there or
    /// its encoder refuses the picture (VP9 or AV1 in QuickTime, raw RGB in Matroska, DNxHD at a
    /// size it has no profile for) and no codec was asked for, the container's own codec is used
    /// (H.264 in MP4, QuickTime and Matroska), and ``codecFallback`` says why.
    public static func open(input: String, temporary: String, finalPath: String, settings: Settings) throws(MediaError) -> VideoRewriter {
        do {
            return try VideoRewriter(input: input, temporary: temporary, finalPath: finalPath, settings: settings, containerCodec: false)
        } catch where settings.codec == nil && ["media.encoder", "media.write"].contains(error.code) {
            guard let fallback = try? VideoRewriter(
                input: input, temporary: temporary, finalPath: finalPath, settings: settings, containerCodec: true)
            else { throw error }
            fallback.codecFallback = error.message
            return fallback
        }
    }

    /// Opens `input` and prepares to write `temporary` in the container that `finalPath`'s
    /// extension names, in the input's codec family (or, `containerCodec`, the container's).
    private init(input: String, temporary: String, finalPath: String, settings: Settings, containerCodec: Bool) throws(MediaError) {
        writtenPath = temporary
        decoder = try VideoDecoder(path: input)
        guard let source = decoder.format, let decoding = decoder.codec else { throw MediaError("media.open", "cannot open \(input)") }
        guard let container = ccaptions_av_guess_format(nil, finalPath, nil) else {
            throw MediaError("media.container", "cannot tell a container from the name \(finalPath) (use .mp4, .mkv, .mov, .ts…)")
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.check(
            ccaptions_avformat_alloc_output_context2(&context, container, nil, temporary), "media.container",
            "cannot write a \(String(cString: container.pointee.name)) file")
        guard let context else { throw MediaError("media.memory", "out of memory") }
        output = context
        let inputStream = source.pointee.streams[Int(decoder.streamIndex)]!
        let parameters = inputStream.pointee.codecpar!
        // The pictures handed over: as decoded, or as the analysis converts them (palettes,
        // packed YUV, grey with alpha and other formats it does not read in place).
        let decodedFormat = PixelFormatMapping.native(decoding.pointee.pix_fmt) != nil
            ? decoding.pointee.pix_fmt : PixelFormatMapping.conversionTarget(for: decoding.pointee.pix_fmt).0
        // The encoder: the one asked for, or one of the input's family.
        let codec: UnsafePointer<AVCodec>?
        if let name = settings.codec {
            codec = ccaptions_avcodec_find_encoder_by_name(name)
            guard codec != nil else { throw MediaError("media.encoder", "no encoder called \(name) in this FFmpeg") }
        } else {
            // The input's family, unless the container cannot hold it (an animation written as
            // .mp4, .webm or .apng): then the container's own default. Muxers without a codec list
            // (MPEG-TS, GIF, APNG) answer "unknown": video codecs go into MPEG-TS as they are,
            // animation codecs only into their own container, and GIF and APNG files hold nothing
            // but their own codec (a video written as .gif becomes a GIF).
            var family = parameters.pointee.codec_id
            let fits = ccaptions_avformat_query_codec(container, family, FF_COMPLIANCE_NORMAL)
            let animation = [AV_CODEC_ID_GIF, AV_CODEC_ID_APNG, AV_CODEC_ID_PNG].contains(family)
            let ownCodecOnly = ["gif", "apng"].contains(String(cString: container.pointee.name))
            if containerCodec || fits == 0 || (fits < 0 && (animation || ownCodecOnly)), container.pointee.video_codec != AV_CODEC_ID_NONE {
                family = container.pointee.video_codec
            }
            let isRGB = ccaptions_av_pix_fmt_desc_get(decodedFormat).map {
                $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
            } ?? false
            codec = (family == AV_CODEC_ID_H264 && isRGB ? ccaptions_avcodec_find_encoder_by_name("libx264rgb") : nil)
                ?? (family == AV_CODEC_ID_H264 ? ccaptions_avcodec_find_encoder_by_name("libx264") : nil)
                ?? (family == AV_CODEC_ID_HEVC ? ccaptions_avcodec_find_encoder_by_name("libx265") : nil)
                ?? ccaptions_avcodec_find_encoder(family) ?? ccaptions_avcodec_find_encoder_by_name("libx264")
        }
        guard let codec else { throw MediaError("media.encoder", "no encoder for this video in this FFmpeg; choose one with --codec") }
        encoderName = String(cString: codec.pointee.name)
        guard let encoder = ccaptions_avcodec_alloc_context3(codec) else { throw MediaError("media.memory", "out of memory") }
        self.encoder = encoder
        // The input's own pixel format where the encoder takes it (or takes anything, as raw video
        // does): the picture dimmed as the analysis reads it is converted back to it. Encoding
        // the analysis's format instead wrote 16-bit 4:4:4 for packed 4:2:2 and, as raw video, formats
        // a QuickTime or AVI file cannot name (an unreadable file, exit 0).
        // (Formats libswscale cannot write, such as raw Bayer, go as the analysis reads them; a
        // palette is made by libavfilter.)
        let inputFormat = decoding.pointee.pix_fmt == AV_PIX_FMT_PAL8 || ccaptions_sws_isSupportedOutput(decoding.pointee.pix_fmt) > 0
            ? decoding.pointee.pix_fmt : decodedFormat
        var pixelFormat = inputFormat
        if let supported = codec.pointee.pix_fmts {
            var index = 0
            var found = false
            while supported[index] != AV_PIX_FMT_NONE {
                if supported[index] == pixelFormat { found = true }
                index += 1
            }
            if !found, codec.pointee.id == AV_CODEC_ID_GIF {
                pixelFormat = AV_PIX_FMT_PAL8
            } else if !found {
                // The nearest format the encoder takes (RGB H.264: packed RGB), each frame
                // converted by libswscale after it is dimmed. (GIF: palettes above.)
                let alpha = ccaptions_av_pix_fmt_desc_get(inputFormat).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 } ?? false
                pixelFormat = ccaptions_avcodec_find_best_pix_fmt_of_list(supported, inputFormat, alpha ? 1 : 0, nil)
                guard pixelFormat != AV_PIX_FMT_NONE else {
                    throw MediaError(
                        "media.encoder", "\(encoderName) cannot write \(PixelFormatMapping.name(inputFormat)) pictures; choose another encoder with --codec")
                }
            }
        }
        // A palette is made for each dimmed picture (GIF, or a palette input kept as one).
        usesPalettes = pixelFormat == AV_PIX_FMT_PAL8
        encoder.pointee.width = decoding.pointee.width
        encoder.pointee.height = decoding.pointee.height
        encoder.pointee.pix_fmt = pixelFormat
        encoder.pointee.sample_aspect_ratio = decoder.sampleAspectRatio
        encoder.pointee.color_range = parameters.pointee.color_range
        encoder.pointee.color_primaries = parameters.pointee.color_primaries
        encoder.pointee.color_trc = parameters.pointee.color_trc
        encoder.pointee.colorspace = parameters.pointee.color_space
        encoder.pointee.chroma_sample_location = parameters.pointee.chroma_location
        encoder.pointee.field_order = parameters.pointee.field_order
        if parameters.pointee.field_order != AV_FIELD_PROGRESSIVE, parameters.pointee.field_order != AV_FIELD_UNKNOWN {
            // Interlaced in, interlaced out (field by field coding, as the source was).
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_INTERLACED_DCT | AV_CODEC_FLAG_INTERLACED_ME)
        }
        let rate = inputStream.pointee.avg_frame_rate.num > 0 ? inputStream.pointee.avg_frame_rate : inputStream.pointee.r_frame_rate
        encoder.pointee.framerate = rate
        // x264 and x265 take any time base (variable frame rates keep their timing); other
        // encoders (MPEG-2 above all) want one tick a frame.
        let keepsTimeBase = encoderName == "libx264" || encoderName == "libx265" || rate.num <= 0 || rate.den <= 0
        encoder.pointee.time_base = keepsTimeBase ? inputStream.pointee.time_base : AVRational(num: rate.den, den: rate.num)
        streamTimeBase = inputStream.pointee.time_base
        encoder.pointee.thread_count = 0
        if Int32(container.pointee.flags) & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var options: OpaquePointer?
        defer { ccaptions_av_dict_free(&options) }
        if codec.pointee.capabilities & AV_CODEC_CAP_DELAY == 0 || !(encoderName == "libx264" || encoderName == "libx265") {
            // FFmpeg's own encoders: constant quality instead of their 200 kbit/s default.
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            encoder.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(1, (settings.crf ?? 18) / 9))
        }
        // HDR10 metadata travels in the first frame (SEI); x265 is given it as parameters, and the
        // container as stream side data.
        let hdr = HDRMetadata(firstFrameOf: input)
        if encoderName == "libx264" || encoderName == "libx265" {
            ccaptions_av_dict_set(&options, "crf", String(settings.crf ?? 18), 0)
            ccaptions_av_dict_set(&options, "preset", settings.preset ?? "medium", 0)
            if encoderName == "libx265" {
                ccaptions_av_dict_set(&options, "x265-params", (["log-level=error"] + hdr.x265Parameters).joined(separator: ":"), 0)
            }
        }
        try FFmpegCall.check(ccaptions_avcodec_open2(encoder, codec, &options), "media.encoder", "cannot open the \(encoderName) encoder")
        // The streams: the video encoded, every other copied where the container can hold it.
        for index in 0..<Int32(source.pointee.nb_streams) {
            let stream = source.pointee.streams[Int(index)]!
            if index == decoder.streamIndex {
                guard let out = ccaptions_avformat_new_stream(context, nil) else { throw MediaError("media.memory", "out of memory") }
                try FFmpegCall.check(
                    ccaptions_avcodec_parameters_from_context(out.pointee.codecpar, encoder), "media.encoder",
                    "cannot describe the encoded stream")
                out.pointee.time_base = encoder.pointee.time_base
                out.pointee.avg_frame_rate = rate
                out.pointee.sample_aspect_ratio = decoder.sampleAspectRatio
                out.pointee.disposition = stream.pointee.disposition
                try Self.copyTags(from: stream.pointee.metadata, to: &out.pointee.metadata)
                // The encoder is ours now.
                ccaptions_av_dict_set(&out.pointee.metadata, "encoder", nil, 0)
                Self.copySideData(from: stream, to: out)
                hdr.attach(to: out)
                streamMap[index] = out.pointee.index
                continue
            }
            let codecID = stream.pointee.codecpar.pointee.codec_id
            guard ccaptions_avformat_query_codec(container, codecID, FF_COMPLIANCE_NORMAL) == 1 else {
                // QuickTime keeps chapter titles and the start timecode in tracks of their own,
                // which the muxer writes again from the chapters and the timecode tag copied.
                let tag = stream.pointee.codecpar.pointee.codec_tag
                let remade = stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_DATA
                    && (tag == Self.fourCC("tmcd") || (tag == Self.fourCC("text") && source.pointee.nb_chapters > 0))
                if !remade { droppedStreams.append("stream \(index) (\(String(cString: ccaptions_avcodec_get_name(codecID))))") }
                continue
            }
            guard let out = ccaptions_avformat_new_stream(context, nil) else { throw MediaError("media.memory", "out of memory") }
            try FFmpegCall.check(
                ccaptions_avcodec_parameters_copy(out.pointee.codecpar, stream.pointee.codecpar), "media.container",
                "cannot copy stream \(index)")
            out.pointee.codecpar.pointee.codec_tag = 0
            out.pointee.time_base = stream.pointee.time_base
            out.pointee.disposition = stream.pointee.disposition
            try Self.copyTags(from: stream.pointee.metadata, to: &out.pointee.metadata)
            Self.copySideData(from: stream, to: out)
            streamMap[index] = out.pointee.index
            inputTimeBases[index] = stream.pointee.time_base
        }
        videoOutput = streamMap[decoder.streamIndex] ?? 0
        // The file's title and other tags, and its chapters.
        try Self.copyTags(from: source.pointee.metadata, to: &context.pointee.metadata)
        try FFmpegCall.check(ccaptions_copy_chapters(context, source), "media.memory", "out of memory")
        if Int32(container.pointee.flags) & AVFMT_NOFILE == 0 {
            try FFmpegCall.check(ccaptions_avio_open(&context.pointee.pb, temporary, AVIO_FLAG_WRITE), "media.write", "cannot write \(temporary)")
        }
        try FFmpegCall.check(
            ccaptions_avformat_write_header(context, nil), "media.write",
            "cannot start writing \(finalPath): \(String(cString: container.pointee.name)) refused \(encoderName) video")
        encoded = ccaptions_av_packet_alloc()
        decoder.packetSink = { [unowned self] packet in self.copy(packet) }
    }

    deinit {
        decoder.packetSink = nil
        ccaptions_av_frame_free(&converted)
        if let converter { ccaptions_sws_freeContext(converter) }
        ccaptions_avcodec_free_context(&encoder)
        ccaptions_av_packet_free(&encoded)
        if let output {
            if output.pointee.pb != nil { ccaptions_avio_closep(&output.pointee.pb) }
            ccaptions_avformat_free_context(output)
        }
    }

    /// Tags (language, title, handler, timecode…), copied.
    private static func copyTags(from source: OpaquePointer?, to target: inout OpaquePointer?) throws(MediaError) {
        try FFmpegCall.check(ccaptions_av_dict_copy(&target, source, 0), "media.memory", "out of memory")
    }

    /// A QuickTime four-character code as FFmpeg stores it.
    private static func fourCC(_ code: String) -> UInt32 {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The stream-level side data FFmpeg keeps (HDR mastering display and light levels, display
    /// matrix…), copied.
    private static func copySideData(from source: UnsafeMutablePointer<AVStream>, to target: UnsafeMutablePointer<AVStream>) {
        for index in 0..<Int(source.pointee.nb_side_data) {
            let item = source.pointee.side_data[index]
            guard let copy = ccaptions_av_stream_new_side_data(target, item.type, item.size), let data = item.data else { continue }
            copy.update(from: data, count: item.size)
        }
    }

    /// A packet of a copied stream, on the reading thread.
    private func copy(_ packet: UnsafeMutablePointer<AVPacket>) {
        let index = packet.pointee.stream_index
        guard let target = streamMap[index], let base = inputTimeBases[index], let output else { return }
        ccaptions_av_packet_rescale_ts(packet, base, output.pointee.streams[Int(target)]!.pointee.time_base)
        packet.pointee.stream_index = target
        packet.pointee.pos = -1
        write(packet)
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>) {
        muxing.wait()
        defer { muxing.signal() }
        let result = ccaptions_av_interleaved_write_frame(output, packet)
        if result < 0, writeFailure == 0 { writeFailure = result }
    }

    /// Decodes every frame, asks `change` for each (nil: unchanged), encodes it, and finishes the
    /// file. Throws when a change cannot be made to this pixel format or writing fails; the
    /// outcome says what decoding found (damage, gaps).
    public func run(_ change: (VideoFrame) -> LightChange?) throws(MediaError) -> DecodeOutcome {
        guard let encoder, let encoded, let output else { throw MediaError("media.encoder", "not open") }
        var failure: MediaError?
        let outcome = decoder.decode { (view: VideoFrame, decoded: UnsafeMutablePointer<AVFrame>, frame: UnsafeMutablePointer<AVFrame>) -> Bool in
            if let wanted = change(view), !wanted.isIdentity {
                do throws(MediaError) {
                    try wanted.apply(to: frame, view: view)
                } catch {
                    failure = error
                    return false
                }
            }
            let stamp = decoded.pointee.best_effort_timestamp != ccaptions_nopts_value()
                ? decoded.pointee.best_effort_timestamp : decoded.pointee.pts
            frame.pointee.pts = stamp == ccaptions_nopts_value()
                ? stamp : ccaptions_av_rescale_q(stamp, streamTimeBase, encoder.pointee.time_base)
            frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
            if usesPalettes {
                do throws(MediaError) {
                    try palette(frame)
                } catch {
                    failure = error
                    return false
                }
                return writeFailure == 0
            }
            var sent = frame
            if frame.pointee.format != encoder.pointee.pix_fmt.rawValue {
                // Into the encoder's format (a format change mid-stream included).
                if converted == nil { converted = ccaptions_av_frame_alloc() }
                guard let result = convert(frame) else {
                    failure = MediaError("media.encoder", "cannot convert a picture for the \(encoderName) encoder")
                    return false
                }
                sent = result
            }
            guard ccaptions_avcodec_send_frame(encoder, sent) >= 0 else {
                failure = MediaError("media.encoder", "the \(encoderName) encoder refused a frame")
                return false
            }
            return drain(encoder, into: encoded)
        }
        if let failure { throw failure }
        if let palettes { try finish(palettes) }
        ccaptions_avcodec_send_frame(encoder, nil)
        _ = drain(encoder, into: encoded)
        muxing.wait()
        let trailer = ccaptions_av_write_trailer(output)
        muxing.signal()
        if output.pointee.pb != nil { ccaptions_avio_closep(&output.pointee.pb) }
        if writeFailure < 0 { throw MediaError("media.write", "writing failed: \(FFmpegCall.message(writeFailure))") }
        try FFmpegCall.check(trailer, "media.write", "cannot finish the file")
        return outcome
    }

    /// Reads back the file ``run(_:)`` wrote: its video must decode, in the kind of pixel format
    /// (``PixelFormatMapping/sameKind(_:_:)``) and the size it was encoded in. A muxer can write
    /// what it cannot label (raw grey with alpha in QuickTime reads back as 5-5-5 RGB), and only
    /// reading the file shows it.
    public func verifyWritten() throws(MediaError) {
        guard let encoder else { return }
        let reader = try VideoDecoder(path: writtenPath)
        let written = reader.codec?.pointee.pix_fmt ?? AV_PIX_FMT_NONE
        guard PixelFormatMapping.sameKind(written, encoder.pointee.pix_fmt), reader.info.width == Int(encoder.pointee.width),
            reader.info.height == Int(encoder.pointee.height)
        else {
            throw MediaError(
                "media.write.unreadable",
                "\(PixelFormatMapping.name(encoder.pointee.pix_fmt)) \(encoderName) video reads back as "
                    + "\(PixelFormatMapping.name(written)) \(reader.info.width)×\(reader.info.height) in this container")
        }
        var pictures = 0
        _ = reader.decode { _ in
            pictures += 1
            return false
        }
        guard pictures > 0 else { throw MediaError("media.write.unreadable", "no picture of the written video could be decoded") }
    }

    /// `frame` in the encoder's pixel format (``converted``), stamped as it is.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) -> UnsafeMutablePointer<AVFrame>? {
        guard let target = converted, let encoder else { return nil }
        if target.pointee.width != frame.pointee.width || target.pointee.height != frame.pointee.height
            || target.pointee.format != encoder.pointee.pix_fmt.rawValue
        {
            ccaptions_av_frame_unref(target)
            target.pointee.width = frame.pointee.width
            target.pointee.height = frame.pointee.height
            target.pointee.format = encoder.pointee.pix_fmt.rawValue
            guard ccaptions_av_frame_get_buffer(target, 0) >= 0 else { return nil }
        }
        guard ccaptions_av_frame_make_writable(target) >= 0 else { return nil }
        converter = ccaptions_sws_getCachedContext(
            converter, frame.pointee.width, frame.pointee.height, AVPixelFormat(rawValue: frame.pointee.format),
            target.pointee.width, target.pointee.height, encoder.pointee.pix_fmt, SWS_BICUBIC, nil, nil, nil)
        guard let converter else { return nil }
        FFmpegCall.scale(converter, frame, into: target)
        target.pointee.pts = frame.pointee.pts
        target.pointee.pict_type = AV_PICTURE_TYPE_NONE
        return target
    }

    /// Hands `frame` to the palette filter and encodes the palette pictures it has ready.
    private func palette(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        guard let encoder else { return }
        if let current = palettes, current.width != frame.pointee.width || current.height != frame.pointee.height
            || current.format != frame.pointee.format
        {
            try finish(current)
            palettes = nil
        }
        if palettes == nil {
            palettes = try PaletteFilter(
                width: frame.pointee.width, height: frame.pointee.height, format: AVPixelFormat(rawValue: frame.pointee.format),
                timeBase: encoder.pointee.time_base, aspect: frame.pointee.sample_aspect_ratio)
        }
        guard let palettes, palettes.add(frame) else { throw MediaError("media.encoder", "cannot make a palette for a picture") }
        try encodeReady(palettes)
    }

    /// Lets the palette filter's last pictures out and encodes them.
    private func finish(_ filter: PaletteFilter) throws(MediaError) {
        filter.finish()
        try encodeReady(filter)
    }

    private func encodeReady(_ filter: PaletteFilter) throws(MediaError) {
        guard let encoder, let encoded else { return }
        while let picture = filter.next() {
            picture.pointee.pict_type = AV_PICTURE_TYPE_NONE
            guard ccaptions_avcodec_send_frame(encoder, picture) >= 0 else {
                throw MediaError("media.encoder", "the \(encoderName) encoder refused a frame")
            }
            _ = drain(encoder, into: encoded)
        }
    }

    /// Writes every packet the encoder has ready.
    private func drain(_ encoder: UnsafeMutablePointer<AVCodecContext>, into packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        while ccaptions_avcodec_receive_packet(encoder, packet) >= 0 {
            ccaptions_av_packet_rescale_ts(packet, encoder.pointee.time_base, output!.pointee.streams[Int(videoOutput)]!.pointee.time_base)
            packet.pointee.stream_index = videoOutput
            write(packet)
            ccaptions_av_packet_unref(packet)
        }
        return writeFailure == 0
    }
}

import CCaptionsFFmpeg
import CaptionsCore
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// What a decoding run got through.
public struct DecodeOutcome: Sendable {
    /// Frames handed to the callback.
    public var frameCount: Int
    /// Why decoding stopped before the end of the file, when it did (truncated or corrupt data).
    public var partialReason: String?
    /// Stretches of the timeline with no picture (frames lost to damage), in timeline seconds.
    public var gaps: [PresentationTimeline.Span] = []
    /// The same kind of stretch in a stream with no sign of damage: a picture of variable frame
    /// rate video (phone and screen recordings) that stays on screen longer, as players show it.
    public var heldPictures: [PresentationTimeline.Span] = []
    /// Stretches of the timeline whose pictures were decoded with errors (concealed damage).
    public var damaged: [PresentationTimeline.Span] = []
    /// Where the timestamps jumped and were mended into one timeline.
    public var discontinuities: [PresentationTimeline.Discontinuity] = []
    /// The raw timestamp of the first frame shown, in seconds.
    public var streamStart: Double?
    /// Facts about the colour of the pictures that the stream did not say and were guessed.
    public var colourGuesses: [String] = []
    /// Pixel formats seen, in order (FFmpeg's names), and whether each was converted.
    public var pixelFormats: [String] = []
    /// Quarter turns (clockwise) the first picture is shown with: the stream's display matrix, or
    /// the picture's own (``VideoFrame/quarterTurns``).
    public var quarterTurns = 0
}

/// Facts about the video stream chosen for decoding.
public struct VideoStreamInfo: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The codec's name, such as `h264`.
    public var codec: String
    /// Average frames per second, when the container says.
    public var framesPerSecond: Double?
    /// The video stream's duration in seconds, when known (not the file's: audio may run longer).
    public var duration: Double?
    /// Pixel width / height (sample aspect ratio; 1 when unknown).
    public var sampleAspect: Double
    /// Quarter turns (clockwise) a player applies from the display matrix.
    public var quarterTurns: Int
    /// The index of the stream decoded, and of the file's other video streams (cover art left
    /// out), which are not.
    public var streamIndex = 0, otherVideoStreams: [Int] = []
}

/// Opens a media file with libavformat and decodes its best video stream with libavcodec.
///
/// Frames come out in presentation order on one monotonic timeline that starts at 0
/// (``PresentationTimeline``), with their colour encoding (matrix, range, transfer, primaries;
/// untagged streams get a documented guess, listed in the outcome) and field order. Pixel formats
/// the analysis reads are handed over as decoded (``PixelFormatMapping``); any other is converted
/// with libswscale into one reused buffer without losing precision. Packets and frames are reused,
/// the decoder runs on every core (`thread_count` set explicitly), and reading and decoding run on
/// a thread of their own, a few frames ahead of the caller (``FrameRing``).
///
/// H.264 and HEVC's in-loop deblocking filter is run as ``Deblocking`` says. Skipping it on
/// pictures no other picture is predicted from changes only those pictures, by a smoothing across
/// block edges that barely moves a cell's mean; skipping it everywhere changes the reference
/// pictures, and the difference accumulates until the next keyframe (on an x264 file the mean
/// luminance of a static stretch read 5 % high).
public final class VideoDecoder {
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?
    private(set) var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private var converted: UnsafeMutablePointer<AVFrame>?
    let streamIndex: Int32
    /// Called on the reading thread with every packet of the file's other streams (for a
    /// rewriter that copies them); the packet is released after the call unless taken.
    var packetSink: ((UnsafeMutablePointer<AVPacket>) -> Void)?
    private let timeBase: AVRational
    private let fieldOrder: AVFieldOrder
    /// Whether the stream carries HDR10 metadata (mastering display or content light level): in
    /// the container, or (once a decoded picture has it in its side data, as HEVC and AV1 carry
    /// it in the bitstream) in the pictures; an untagged transfer is then taken for PQ.
    var hasHDRMetadata: Bool
    /// The pixel aspect ratio as a fraction (``VideoStreamInfo/sampleAspect``), for the rewriter.
    let sampleAspectRatio: AVRational
    private var outcomeQuarterTurns: Int?
    /// The rotation the last picture that carried one gave.
    private var pictureQuarterTurns: Int?
    private var timeline: PresentationTimeline
    var colourGuesses: [String] = []
    var pixelFormats: [String] = []
    private var damaged: [PresentationTimeline.Span] = []
    /// How frames like the last are read (``describe(_:key:)``).
    private var described: (key: RawDescription, value: Description)?
    /// The chosen stream.
    public let info: VideoStreamInfo

    /// The processors online.
    public static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Which pictures H.264 and HEVC decoding runs the in-loop deblocking filter on.
    public enum Deblocking: Sendable {
        /// Every picture: the pictures exactly as the codec defines them.
        case all
        /// Pictures other pictures are predicted from; pictures nothing refers to are left
        /// unfiltered, so no difference carries over to another picture.
        case referencePictures
        /// None: fastest; pictures drift from the true ones until the next keyframe.
        case none
    }

    /// Opens `path`; throws `media.open` for an unreadable file and `media.video.none` when it has no video.
    ///
    /// The decoder runs one thread per core; with `callerWorksBeside` (a caller that works on the
    /// frames while the decoder runs, such as the flash analysis) one more up to 1080p, so that the
    /// cores stay busy while frame threads wait on each other. Above 1080p the extra thread's
    /// frames would cost more memory than it saves time (4K 10-bit: 347 MB peak against 297 MB).
    /// `threads` caps the decoder's threads, without the extra one (a batch scanning several videos
    /// at once gives each its share of the cores).
    public init(path: String, deblocking: Deblocking = .all, callerWorksBeside: Bool = false, threads: Int? = nil) throws(MediaError) {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        var format: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.openInput(&format, path, name: path)
        var context: UnsafeMutablePointer<AVCodecContext>?
        do throws(MediaError) {
            try FFmpegCall.check(ccaptions_avformat_find_stream_info(format, nil), "media.open", "cannot read the streams of \(path)")
            var decoder: UnsafePointer<AVCodec>?
            var index = ccaptions_av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
            if index >= 0, let best = format?.pointee.streams[Int(index)], best.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
                // Cover art is one picture beside the audio, not video: another video stream, or none
                // (an episode with its artwork read as video that "stops at 0.0 s", truncated).
                let moving = (0..<Int(format?.pointee.nb_streams ?? 0)).first { other in
                    guard let candidate = format?.pointee.streams[other] else { return false }
                    return candidate.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                        && candidate.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
                }
                index = moving.map { ccaptions_av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, Int32($0), -1, &decoder, 0) } ?? -1
            }
            guard index >= 0, var decoder, let stream = format?.pointee.streams[Int(index)] else {
                throw MediaError("media.video.none", "\(path) has no video stream to scan (audio only, or audio with cover art?)")
            }
            let alphaDecoder = Self.alphaDecoder(for: stream)
            if let alphaDecoder { decoder = alphaDecoder }
            context = ccaptions_avcodec_alloc_context3(decoder)
            guard let context else { throw MediaError("media.memory", "out of memory") }
            try FFmpegCall.check(
                ccaptions_avcodec_parameters_to_context(context, stream.pointee.codecpar), "media.decoder", "cannot set up the decoder")
            if alphaDecoder != nil, context.pointee.pix_fmt == AV_PIX_FMT_YUV420P {
                // What libvpx hands over (the stream's parameters say what FFmpeg's decoder gives):
                // a rewriter takes its encoder's format from here, and would drop the alpha.
                context.pointee.pix_fmt = AV_PIX_FMT_YUVA420P
            }
            let pixels = Int(context.pointee.width) * Int(context.pointee.height)
            let cores = threads.map { max(1, min($0, Self.cores)) } ?? Self.cores
            // The extra thread only when the decoder has the machine to itself: scans that share
            // the cores (a batch's jobs) already keep them busy, and a thread more each made two
            // jobs spend a fifth more CPU than one.
            let extra = callerWorksBeside && threads == nil && pixels <= 1920 * 1088 ? 1 : 0
            context.pointee.thread_count = Int32(cores + extra)
            context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            switch deblocking {
            case .all: break
            case .referencePictures: context.pointee.skip_loop_filter = AVDISCARD_NONREF
            case .none: context.pointee.skip_loop_filter = AVDISCARD_ALL
            }
            var options: OpaquePointer?
            defer { ccaptions_av_dict_free(&options) }
            if String(cString: decoder.pointee.name) == "exr" {
                // OpenEXR holds linear light; the decoder encodes it with the sRGB curve (values
                // over 1 clip at white), which the analysis reads as SDR. Read as codes, linear
                // light looked far darker than it is: a 0.02 ↔ 0.2 flash passed.
                ccaptions_av_dict_set(&options, "apply_trc", "iec61966_2_1", 0)
            }
            try FFmpegCall.check(
                ccaptions_avcodec_open2(context, decoder, &options), "media.decoder",
                "cannot open the \(String(cString: decoder.pointee.name)) decoder")
            let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
            let base = stream.pointee.time_base
            // The video stream's own duration; the file's only when the video is all it holds
            // (audio that runs longer than the video is not truncation).
            var streamDuration = stream.pointee.duration > 0 && base.den > 0
                ? Double(stream.pointee.duration) * Double(base.num) / Double(base.den) : nil
            if streamDuration == nil, format?.pointee.nb_streams == 1, let total = format?.pointee.duration, total > 0 {
                streamDuration = Double(total) / Double(AV_TIME_BASE)
                // Matroska's duration, as FFmpeg's muxer writes it, is where the file ends on its
                // own clock: 15 s for 10 s that start at 5 s (those read as truncated at 10 s of
                // 15). mkvmerge writes the length, so only files FFmpeg wrote are taken this way.
                if let start = format?.pointee.start_time, start != FFmpegCall.noTimestamp, start > 0,
                    let name = format?.pointee.iformat?.pointee.name, String(cString: name).hasPrefix("matroska"),
                    let encoder = ccaptions_av_dict_get(format?.pointee.metadata, "encoder", nil, 0)?.pointee.value,
                    String(cString: encoder).hasPrefix("Lavf")
                {
                    streamDuration = max(0, Double(total - start) / Double(AV_TIME_BASE))
                }
            }
            // The container's pixel aspect (MOV `pasp`, Matroska's display size: all that anamorphic
            // ProRes has) before the codec's, as players and av_guess_sample_aspect_ratio take them.
            let containerAspect = stream.pointee.sample_aspect_ratio
            let aspect = containerAspect.num > 0 && containerAspect.den > 0
                ? containerAspect : stream.pointee.codecpar.pointee.sample_aspect_ratio
            sampleAspectRatio = aspect
            var size = 0
            var turns = 0
            if let matrix = ccaptions_av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 {
                turns = Self.quarterTurns(matrix) ?? 0
            }
            hasHDRMetadata = ccaptions_av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size) != nil
                || ccaptions_av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size) != nil
            let framesPerSecond = rate.den > 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil
            info = VideoStreamInfo(
                width: Int(context.pointee.width), height: Int(context.pointee.height),
                codec: String(cString: decoder.pointee.name), framesPerSecond: framesPerSecond,
                duration: streamDuration,
                sampleAspect: aspect.num > 0 && aspect.den > 0 ? Double(aspect.num) / Double(aspect.den) : 1,
                quarterTurns: turns, streamIndex: Int(index),
                otherVideoStreams: (0..<Int(format?.pointee.nb_streams ?? 0)).filter { other in
                    guard other != Int(index), let candidate = format?.pointee.streams[other] else { return false }
                    return candidate.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                        && candidate.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
                })
            streamIndex = index
            timeBase = base
            fieldOrder = stream.pointee.codecpar.pointee.field_order
            let mayJump = (Int32(format?.pointee.iformat.pointee.flags ?? 0) & AVFMT_TS_DISCONT) != 0
            timeline = PresentationTimeline(frameDuration: 1 / (framesPerSecond ?? 25), mayJump: mayJump)
        } catch {
            ccaptions_avcodec_free_context(&context)
            ccaptions_avformat_close_input(&format)
            throw error
        }
        self.format = format
        codec = context
        packet = ccaptions_av_packet_alloc()
        frame = ccaptions_av_frame_alloc()
    }

    deinit { release() }

    /// Quarter turns (clockwise) of a display matrix (nine 32-bit numbers); nil when it is not a rotation.
    private static func quarterTurns(_ matrix: UnsafeMutablePointer<UInt8>) -> Int? {
        let degrees = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { ccaptions_av_display_rotation_get($0) }
        return degrees.isFinite ? ((Int((-degrees / 90).rounded()) % 4) + 4) % 4 : nil
    }

    private func release() {
        if scaler != nil { ccaptions_sws_freeContext(scaler) }
        ccaptions_av_frame_free(&converted)
        ccaptions_av_frame_free(&frame)
        ccaptions_av_packet_free(&packet)
        ccaptions_avcodec_free_context(&codec)
        ccaptions_avformat_close_input(&format)
    }

    /// Frames decoded ahead of the one `body` is looking at (fewer for 4K, to bound memory: one
    /// for 4K with samples wider than a byte, 25 MB a picture).
    private var framesAhead: Int {
        guard info.width * info.height > 3_000_000 else { return 4 }
        let wide = codec.flatMap { ccaptions_av_pix_fmt_desc_get($0.pointee.pix_fmt) }.map { $0.pointee.comp.0.depth > 8 } ?? false
        return wide ? 1 : 2
    }

    /// libvpx's decoder for VP8 or VP9 with alpha: the alpha is carried beside each picture
    /// (Matroska's BlockAdditional, `alpha_mode` 1), and FFmpeg's own decoders drop it, so a
    /// flash made by the alpha over black was not seen (and transparent flashing was).
    private static func alphaDecoder(for stream: UnsafeMutablePointer<AVStream>) -> UnsafePointer<AVCodec>? {
        let id = stream.pointee.codecpar.pointee.codec_id
        guard id == AV_CODEC_ID_VP9 || id == AV_CODEC_ID_VP8,
            let mode = ccaptions_av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0)?.pointee.value,
            String(cString: mode) == "1"
        else { return nil }
        return ccaptions_avcodec_find_decoder_by_name(id == AV_CODEC_ID_VP9 ? "libvpx-vp9" : "libvpx")
    }

    /// Decodes every frame, calling `body` with each; stops early (returning a partial outcome)
    /// on unreadable data, and when `body` returns false.
    ///
    /// Reading and decoding run on a thread of their own, a few frames ahead (``FrameRing``);
    /// `body` runs on the calling thread, one frame at a time, in presentation order.
    public func decode(_ body: (VideoFrame) -> Bool) -> DecodeOutcome {
        decode { video, _, _ in body(video) }
    }

    /// ``decode(_:)`` with the decoded `AVFrame` (its side data) and the picture the view reads:
    /// the same frame, or, when the format is converted for the analysis, the converted picture
    /// with the decoded frame's times, field order and colour tags. The caller may change the
    /// picture in place.
    func decode(_ body: (VideoFrame, _ decoded: UnsafeMutablePointer<AVFrame>, _ picture: UnsafeMutablePointer<AVFrame>) -> Bool) -> DecodeOutcome {
        guard let format, let codec, let packet, let frame, let ring = FrameRing(depth: framesAhead) else {
            return DecodeOutcome(frameCount: 0, partialReason: "not open")
        }
        let reading = ReadingRun(
            format: format, codec: codec, packet: packet, frame: frame, streamIndex: streamIndex, sink: packetSink)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            reading.run(into: ring)
            finished.signal()
        }
        var outcome = DecodeOutcome(frameCount: 0, partialReason: nil)
        var stopped = false
        var lastEnd = 0.0
        while let decoded = ring.next() {
            if !stopped, let (video, picture) = view(of: decoded) {
                outcome.frameCount += 1
                lastEnd = video.time.seconds + (video.duration ?? timeline.frameDuration)
                if !body(video, decoded, picture) {
                    stopped = true
                    ring.stop()
                }
            }
            ring.release(decoded)
        }
        finished.wait()
        outcome.partialReason = reading.partialReason
        // A step in time is lost frames only where something was damaged: in a stream that
        // decoded cleanly it is variable frame rate, the picture before it held on screen.
        let damageSeen = reading.partialReason != nil || reading.corruptPackets + reading.markedPackets > 0 || !damaged.isEmpty
        outcome.gaps = damageSeen ? timeline.gaps : []
        outcome.heldPictures = damageSeen ? [] : timeline.gaps
        outcome.discontinuities = timeline.discontinuities
        outcome.damaged = damaged
        outcome.streamStart = timeline.streamStart
        outcome.colourGuesses = colourGuesses
        outcome.pixelFormats = pixelFormats
        outcome.quarterTurns = outcomeQuarterTurns ?? info.quarterTurns
        if reading.corruptPackets > 0, outcome.partialReason == nil {
            outcome.partialReason = "\(reading.corruptPackets) damaged packet(s) could not be decoded"
        }
        if outcome.frameCount == 0, outcome.partialReason == nil {
            outcome.partialReason = "no frame could be decoded"
        }
        if outcome.partialReason == nil, !damaged.isEmpty {
            let seconds = damaged.reduce(0) { $0 + $1.end - $1.start }
            outcome.partialReason = "\(damaged.count) stretch(es) of the video, \((seconds * 100).rounded() / 100) s in all, were decoded with errors (damaged data)"
        }
        if !outcome.gaps.isEmpty {
            let missing = outcome.gaps.reduce(0) { $0 + $1.end - $1.start }
            let sentence = "\(outcome.gaps.count) stretch(es) of the video, \((missing * 100).rounded() / 100) s in all, have no picture (damaged or lost frames)"
            outcome.partialReason = outcome.partialReason.map { $0 + "; " + sentence } ?? sentence
        }
        if outcome.partialReason == nil, !stopped, let duration = info.duration, timeline.discontinuities.isEmpty {
            let tolerance = max(0.5, 2 / (info.framesPerSecond ?? 25))
            if lastEnd + tolerance < duration {
                outcome.partialReason = "the video stops at \((lastEnd * 10).rounded() / 10) s of the \((duration * 10).rounded() / 10) s the stream announces (truncated?)"
            }
        }
        return outcome
    }

    /// The reading and decoding half of ``decode(_:)``, run on its own thread: the demuxer, the
    /// decoder and their packet and frame are used by it alone until it is done.
    private final class ReadingRun: @unchecked Sendable {
        private let format: UnsafeMutablePointer<AVFormatContext>
        private let codec: UnsafeMutablePointer<AVCodecContext>
        private let packet: UnsafeMutablePointer<AVPacket>
        private let frame: UnsafeMutablePointer<AVFrame>
        private let streamIndex: Int32
        private let sink: ((UnsafeMutablePointer<AVPacket>) -> Void)?
        /// Why reading or decoding ended before the end of the file; read after ``run(into:)``.
        private(set) var partialReason: String?
        /// Packets the decoder refused.
        private(set) var corruptPackets = 0
        /// Packets the demuxer marked as damaged.
        private(set) var markedPackets = 0

        init(
            format: UnsafeMutablePointer<AVFormatContext>, codec: UnsafeMutablePointer<AVCodecContext>,
            packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>, streamIndex: Int32,
            sink: ((UnsafeMutablePointer<AVPacket>) -> Void)?
        ) {
            self.sink = sink
            self.format = format
            self.codec = codec
            self.packet = packet
            self.frame = frame
            self.streamIndex = streamIndex
        }

        /// Reads and decodes every packet of the stream into `ring`, then flushes the decoder and
        /// marks the end; stops early on a decoding failure or when the consumer stops the ring.
        func run(into ring: FrameRing) {
            defer { ring.finish() }
            while !ring.isStopped {
                let read = ccaptions_av_read_frame(format, packet)
                if read == FFmpegCall.endOfFile { break }
                if read < 0 {
                    partialReason = "the file ends or breaks off early: \(FFmpegCall.message(read))"
                    break
                }
                defer { ccaptions_av_packet_unref(packet) }
                guard packet.pointee.stream_index == streamIndex else {
                    sink?(packet)
                    continue
                }
                // The demuxer marks packets it knows are damaged (an MPEG-TS continuity error):
                // decoded as they are; a step in time near them is lost frames, not variable
                // frame rate. (A clean join of two segments marks one too, and loses nothing.)
                if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 { markedPackets += 1 }
                if ccaptions_avcodec_send_packet(codec, packet) < 0 { corruptPackets += 1 }
                guard drain(into: ring) else { return }
            }
            guard !ring.isStopped else { return }
            ccaptions_avcodec_send_packet(codec, nil)
            _ = drain(into: ring)
        }

        /// Hands every frame the decoder has ready to `ring`; a frame the decoder cannot make is
        /// counted and skipped (the gap it leaves is found by the timeline).
        private func drain(into ring: FrameRing) -> Bool {
            while !ring.isStopped {
                let received = ccaptions_avcodec_receive_frame(codec, frame)
                if received == FFmpegCall.again || received == FFmpegCall.endOfFile { return true }
                if received < 0 {
                    corruptPackets += 1
                    if received == -12 /* ENOMEM */ {
                        partialReason = "decoding failed: \(FFmpegCall.message(received))"
                        return false
                    }
                    return true
                }
                ring.push(frame)
            }
            return true
        }
    }

    /// The frame as a ``VideoFrame``, converted first when its format needs it, and the picture
    /// it reads.
    private func view(of frame: UnsafeMutablePointer<AVFrame>) -> (VideoFrame, UnsafeMutablePointer<AVFrame>)? {
        if !hasHDRMetadata, ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) != nil
            || ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) != nil
        {
            // HDR10 metadata in the bitstream (HEVC's SEI), not the container: an untagged
            // transfer is PQ from here, the pictures described anew (whichever picture has it first).
            hasHDRMetadata = true
            described = nil
        }
        let key = RawDescription(frame.pointee)
        if key != described?.key { described = describe(frame, key: key) }
        guard let description = described?.value else { return nil }
        var source = frame
        let layout = description.layout
        if let target = description.conversion {
            guard let result = convert(frame, to: target) else { return nil }
            Self.copyProperties(of: frame, to: result)
            source = result
        }
        let colour = description.colour
        let order: VideoFrame.FieldOrder
        if frame.pointee.interlaced_frame != 0 {
            order = frame.pointee.top_field_first != 0 ? .topFirst : .bottomFirst
        } else {
            switch fieldOrder {
            case AV_FIELD_TT, AV_FIELD_TB: order = .topFirst
            case AV_FIELD_BB, AV_FIELD_BT: order = .bottomFirst
            default: order = .progressive
            }
        }
        let duration = frame.pointee.pkt_duration > 0 && timeBase.den > 0
            ? Double(frame.pointee.pkt_duration) * Double(timeBase.num) / Double(timeBase.den) : nil
        let time = timeline.place(raw: rawTime(of: frame), duration: duration)
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            let end = time + (duration ?? timeline.frameDuration)
            if let last = damaged.last, last.end >= time - 1e-6 {
                damaged[damaged.count - 1].end = end
            } else {
                damaged.append(PresentationTimeline.Span(start: time, end: end))
            }
        }
        if let matrix = ccaptions_av_frame_get_side_data(frame, AV_FRAME_DATA_DISPLAYMATRIX), matrix.pointee.size >= 36,
            let data = matrix.pointee.data, let turns = Self.quarterTurns(data)
        {
            // Rotation in the pictures themselves (H.264's display orientation SEI, often on the
            // first picture only), which players follow until another says otherwise.
            pictureQuarterTurns = turns
        }
        let turns = pictureQuarterTurns ?? info.quarterTurns
        if outcomeQuarterTurns == nil { outcomeQuarterTurns = turns }
        let data = source.pointee.data
        let lines = source.pointee.linesize
        func plane(_ base: UnsafeMutablePointer<UInt8>?, _ stride: Int32) -> VideoFrame.Plane {
            VideoFrame.Plane(base: UnsafePointer(base), stride: Int(stride))
        }
        let view = VideoFrame(
            width: Int(frame.pointee.width), height: Int(frame.pointee.height), layout: layout.layout,
            bitDepth: layout.bitDepth, matrix: colour.matrix, range: colour.range, transfer: colour.transfer,
            primaries: colour.primaries, fieldOrder: order, quarterTurns: turns,
            planes: (plane(data.0, lines.0), plane(data.1, lines.1), plane(data.2, lines.2)),
            alpha: plane(data.3, lines.3),
            time: MediaTime(value: Int64((time * 1_000_000).rounded()), timescale: 1_000_000) ?? .zero,
            duration: duration ?? timeline.frameDuration)
        return (view, source)
    }

    /// What a converted picture keeps of the decoded frame: its times, field order and colour
    /// tags (not its side data, which stays with the decoded frame).
    private static func copyProperties(of frame: UnsafeMutablePointer<AVFrame>, to picture: UnsafeMutablePointer<AVFrame>) {
        picture.pointee.pts = frame.pointee.pts
        picture.pointee.best_effort_timestamp = frame.pointee.best_effort_timestamp
        picture.pointee.pkt_duration = frame.pointee.pkt_duration
        picture.pointee.key_frame = frame.pointee.key_frame
        picture.pointee.sample_aspect_ratio = frame.pointee.sample_aspect_ratio
        picture.pointee.interlaced_frame = frame.pointee.interlaced_frame
        picture.pointee.top_field_first = frame.pointee.top_field_first
        picture.pointee.color_range = frame.pointee.color_range
        picture.pointee.color_primaries = frame.pointee.color_primaries
        picture.pointee.color_trc = frame.pointee.color_trc
        picture.pointee.colorspace = frame.pointee.colorspace
    }

    /// The raw presentation time in seconds: the best-effort timestamp, or nil.
    private func rawTime(of frame: UnsafeMutablePointer<AVFrame>) -> Double? {
        let stamp = frame.pointee.best_effort_timestamp != FFmpegCall.noTimestamp
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        guard stamp != FFmpegCall.noTimestamp, timeBase.den > 0 else { return nil }
        return Double(stamp) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// Converts a picture to `target` in a buffer allocated once per size and format.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, to target: AVPixelFormat) -> UnsafeMutablePointer<AVFrame>? {
        let width = frame.pointee.width
        let height = frame.pointee.height
        if converted == nil || converted?.pointee.width != width || converted?.pointee.height != height
            || converted?.pointee.format != target.rawValue
        {
            ccaptions_av_frame_free(&converted)
            converted = ccaptions_av_frame_alloc()
            guard let output = converted else { return nil }
            output.pointee.width = width
            output.pointee.height = height
            output.pointee.format = target.rawValue
            guard ccaptions_av_frame_get_buffer(output, 0) >= 0 else { return nil }
        }
        // An encoder may still hold the last picture (a dimmed video is encoded from it).
        guard let output = converted, ccaptions_av_frame_make_writable(output) >= 0 else { return nil }
        scaler = ccaptions_sws_getCachedContext(
            scaler, width, height, AVPixelFormat(rawValue: frame.pointee.format), width, height, target,
            SWS_POINT, nil, nil, nil)
        guard let scaler else { return nil }
        FFmpegCall.scale(scaler, frame, into: output)
        return output
    }
}

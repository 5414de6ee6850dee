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
    /// Duration in seconds, when known.
    public var duration: Double?
}

/// Opens a media file with libavformat and decodes its best video stream with libavcodec.
///
/// Frames come out in presentation order with their presentation time, colour matrix (BT.601 or
/// BT.709; untagged HD is BT.709) and range (limited or full; `yuvj` formats are full). 8-bit
/// 4:2:0, 4:2:2 and 4:4:4, NV12, grey and RGB24 are handed over as decoded; any other format is
/// converted to 4:2:0 with libswscale into one reused buffer. Packets and frames are reused, the
/// decoder runs on every core (`thread_count` set explicitly), and reading and decoding run on a
/// thread of their own, a few frames ahead of the caller (``FrameRing``).
public final class VideoDecoder {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private var converted: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The chosen stream.
    public let info: VideoStreamInfo

    /// Opens `path`; throws `media.open` for an unreadable file and `media.video.none` when it has no video.
    public init(path: String) throws(MediaError) {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        var format: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.check(ccaptions_avformat_open_input(&format, path, nil, nil), "media.open", "cannot open \(path)")
        var context: UnsafeMutablePointer<AVCodecContext>?
        do throws(MediaError) {
            try FFmpegCall.check(ccaptions_avformat_find_stream_info(format, nil), "media.open", "cannot read the streams of \(path)")
            var decoder: UnsafePointer<AVCodec>?
            let index = ccaptions_av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
            guard index >= 0, let decoder, let stream = format?.pointee.streams[Int(index)] else {
                throw MediaError("media.video.none", "\(path) has no video stream to scan (audio only?)")
            }
            context = ccaptions_avcodec_alloc_context3(decoder)
            guard let context else { throw MediaError("media.memory", "out of memory") }
            try FFmpegCall.check(
                ccaptions_avcodec_parameters_to_context(context, stream.pointee.codecpar), "media.decoder", "cannot set up the decoder")
            context.pointee.thread_count = Int32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            try FFmpegCall.check(
                ccaptions_avcodec_open2(context, decoder, nil), "media.decoder",
                "cannot open the \(String(cString: decoder.pointee.name)) decoder")
            let rate = stream.pointee.avg_frame_rate
            let duration = format.map { $0.pointee.duration > 0 ? Double($0.pointee.duration) / Double(AV_TIME_BASE) : nil } ?? nil
            info = VideoStreamInfo(
                width: Int(context.pointee.width), height: Int(context.pointee.height),
                codec: String(cString: decoder.pointee.name),
                framesPerSecond: rate.den > 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil,
                duration: duration)
            streamIndex = index
            timeBase = stream.pointee.time_base
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

    private func release() {
        if scaler != nil { ccaptions_sws_freeContext(scaler) }
        ccaptions_av_frame_free(&converted)
        ccaptions_av_frame_free(&frame)
        ccaptions_av_packet_free(&packet)
        ccaptions_avcodec_free_context(&codec)
        ccaptions_avformat_close_input(&format)
    }

    /// Frames decoded ahead of the one `body` is looking at.
    private static let framesAhead = 4

    /// Decodes every frame, calling `body` with each; stops early (returning a partial outcome)
    /// on unreadable data, and when `body` returns false.
    ///
    /// Reading and decoding run on a thread of their own, a few frames ahead (``FrameRing``);
    /// `body` runs on the calling thread, one frame at a time, in presentation order.
    public func decode(_ body: (VideoFrame) -> Bool) -> DecodeOutcome {
        guard let format, let codec, let packet, let frame, let ring = FrameRing(depth: Self.framesAhead) else {
            return DecodeOutcome(frameCount: 0, partialReason: "not open")
        }
        let reading = ReadingRun(format: format, codec: codec, packet: packet, frame: frame, streamIndex: streamIndex)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            reading.run(into: ring)
            finished.signal()
        }
        var outcome = DecodeOutcome(frameCount: 0, partialReason: nil)
        var stopped = false
        while let decoded = ring.next() {
            if !stopped, let video = view(of: decoded) {
                outcome.frameCount += 1
                if !body(video) {
                    stopped = true
                    ring.stop()
                }
            }
            ring.release(decoded)
        }
        finished.wait()
        outcome.partialReason = reading.partialReason
        if reading.corruptPackets > 0, outcome.partialReason == nil {
            outcome.partialReason = "\(reading.corruptPackets) damaged packet(s) could not be decoded"
        }
        if outcome.frameCount == 0, outcome.partialReason == nil {
            outcome.partialReason = "no frame could be decoded"
        }
        if outcome.partialReason == nil, !stopped, let duration = info.duration {
            let tolerance = max(0.5, 2 / (info.framesPerSecond ?? 25))
            let reached = lastTime.seconds
            if reached + tolerance < duration {
                outcome.partialReason = "the video stops at \((reached * 10).rounded() / 10) s of the \((duration * 10).rounded() / 10) s the file announces (truncated?)"
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
        /// Why reading or decoding ended before the end of the file; read after ``run(into:)``.
        private(set) var partialReason: String?
        /// Packets the decoder refused.
        private(set) var corruptPackets = 0

        init(
            format: UnsafeMutablePointer<AVFormatContext>, codec: UnsafeMutablePointer<AVCodecContext>,
            packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>, streamIndex: Int32
        ) {
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
                guard packet.pointee.stream_index == streamIndex else { continue }
                if ccaptions_avcodec_send_packet(codec, packet) < 0 { corruptPackets += 1 }
                guard drain(into: ring) else { return }
            }
            guard !ring.isStopped else { return }
            ccaptions_avcodec_send_packet(codec, nil)
            _ = drain(into: ring)
        }

        /// Hands every frame the decoder has ready to `ring`; false when decoding failed.
        private func drain(into ring: FrameRing) -> Bool {
            while !ring.isStopped {
                let received = ccaptions_avcodec_receive_frame(codec, frame)
                if received == FFmpegCall.again || received == FFmpegCall.endOfFile { return true }
                if received < 0 {
                    partialReason = "decoding failed: \(FFmpegCall.message(received))"
                    return false
                }
                ring.push(frame)
            }
            return true
        }
    }

    /// The frame as a ``VideoFrame``, converted to 4:2:0 first when its format needs it.
    private func view(of frame: UnsafeMutablePointer<AVFrame>) -> VideoFrame? {
        let time = presentationTime(of: frame)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
            || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].contains(format)
        let range: VideoFrame.Range = fullRange ? .full : .limited
        let matrix = Self.matrix(frame.pointee.colorspace, height: Int(frame.pointee.height))
        let layout: VideoFrame.Layout
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: layout = .planarYUV(chromaShiftX: 1, chromaShiftY: 1)
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: layout = .planarYUV(chromaShiftX: 1, chromaShiftY: 0)
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: layout = .planarYUV(chromaShiftX: 0, chromaShiftY: 0)
        case AV_PIX_FMT_NV12: layout = .nv12
        case AV_PIX_FMT_GRAY8: layout = .gray
        case AV_PIX_FMT_RGB24: layout = .rgb24
        default:
            guard let converted = convert(frame) else { return nil }
            return VideoFrame(
                width: Int(frame.pointee.width), height: Int(frame.pointee.height),
                layout: .planarYUV(chromaShiftX: 1, chromaShiftY: 1), matrix: matrix,
                range: Self.isRGB(format) ? .full : range, planes: Self.planes(of: converted), time: time)
        }
        return VideoFrame(
            width: Int(frame.pointee.width), height: Int(frame.pointee.height), layout: layout, matrix: matrix,
            range: range, planes: Self.planes(of: frame), time: time)
    }

    private static func isRGB(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = ccaptions_av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    private static func planes(of frame: UnsafeMutablePointer<AVFrame>) -> (VideoFrame.Plane, VideoFrame.Plane, VideoFrame.Plane) {
        let data = frame.pointee.data
        let lines = frame.pointee.linesize
        return (
            VideoFrame.Plane(base: UnsafePointer(data.0), stride: Int(lines.0)),
            VideoFrame.Plane(base: UnsafePointer(data.1), stride: Int(lines.1)),
            VideoFrame.Plane(base: UnsafePointer(data.2), stride: Int(lines.2))
        )
    }

    /// BT.709 when tagged so, or when untagged and HD (720 lines or more); BT.601 otherwise.
    private static func matrix(_ space: AVColorSpace, height: Int) -> VideoFrame.Matrix {
        switch space {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_FCC: .bt601
        default: height >= 720 ? .bt709 : .bt601
        }
    }

    /// Converts any pixel format to 8-bit 4:2:0 in a buffer allocated once.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) -> UnsafeMutablePointer<AVFrame>? {
        let width = frame.pointee.width
        let height = frame.pointee.height
        if converted == nil || converted?.pointee.width != width || converted?.pointee.height != height {
            ccaptions_av_frame_free(&converted)
            converted = ccaptions_av_frame_alloc()
            guard let target = converted else { return nil }
            target.pointee.width = width
            target.pointee.height = height
            target.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            guard ccaptions_av_frame_get_buffer(target, 0) >= 0 else { return nil }
        }
        guard let target = converted else { return nil }
        scaler = ccaptions_sws_getCachedContext(
            scaler, width, height, AVPixelFormat(rawValue: frame.pointee.format), width, height, AV_PIX_FMT_YUV420P,
            SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { return nil }
        var sourceData = frame.pointee.data
        var sourceLines = frame.pointee.linesize
        var targetData = target.pointee.data
        var targetLines = target.pointee.linesize
        withUnsafeBytes(of: &sourceData) { sourcePlanes in
            withUnsafeBytes(of: &sourceLines) { sourceStrides in
                withUnsafeBytes(of: &targetData) { targetPlanes in
                    withUnsafeBytes(of: &targetLines) { targetStrides in
                        _ = ccaptions_sws_scale(
                            scaler, sourcePlanes.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                            sourceStrides.bindMemory(to: Int32.self).baseAddress, 0, height,
                            targetPlanes.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).baseAddress,
                            targetStrides.bindMemory(to: Int32.self).baseAddress)
                    }
                }
            }
        }
        return target
    }

    /// The frame's presentation time: its best-effort timestamp in the stream's time base.
    private var lastTime = MediaTime.zero
    private func presentationTime(of frame: UnsafeMutablePointer<AVFrame>) -> MediaTime {
        let stamp = frame.pointee.best_effort_timestamp != FFmpegCall.noTimestamp
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        guard stamp != FFmpegCall.noTimestamp, timeBase.den > 0,
            let time = MediaTime(value: stamp * Int64(timeBase.num), timescale: Int64(timeBase.den))
        else { return lastTime }
        lastTime = time
        return time
    }
}

import CCaptionsFFmpeg
import CaptionsCore

/// A file's sound, decoded and resampled for speech recognition: 16 kHz samples, mixed to mono,
/// and each channel's loudness over time (which voice is on which channel).
public struct DecodedAudio: Sendable {
    /// Samples per second of ``mono``.
    public static let sampleRate = 16_000
    /// Samples per ``channelLevels`` entry: 20 ms.
    public static let levelWindow = 320

    /// The channels mixed (their mean), 16 kHz, in −1…1.
    public var mono: [Float]
    /// For each channel of the stream, its root-mean-square level in each 20 ms window.
    public var channelLevels: [[Float]]
    /// Why decoding stopped early, when it did (damaged or cut-short data).
    public var partialReason: String?

    /// Sound as decoded.
    public init(mono: [Float], channelLevels: [[Float]], partialReason: String? = nil) {
        (self.mono, self.channelLevels, self.partialReason) = (mono, channelLevels, partialReason)
    }

    /// The duration in seconds.
    public var duration: Double { Double(mono.count) / Double(Self.sampleRate) }

    /// The root-mean-square level of the mix from `start` to `end` seconds (0 outside the sound).
    public func level(from start: Double, to end: Double) -> Float {
        let first = max(0, Int(start * Double(Self.sampleRate))), last = min(mono.count, Int(end * Double(Self.sampleRate)))
        guard last > first else { return 0 }
        var sum: Float = 0
        for index in first..<last { sum += mono[index] * mono[index] }
        return (sum / Float(last - first)).squareRoot()
    }
}

/// Decodes the best audio stream of any file FFmpeg reads (audio or video) with libavcodec and
/// resamples it with libswresample to 16 kHz float, keeping its channels apart until they are
/// mixed, so that a recording with a voice on each channel can be told apart.
public enum AudioDecoder {
    /// The sound of `path`; `progress` is called now and then with the seconds decoded. Throws
    /// `media.open`, `media.audio.none`, `media.decoder` or `media.ffmpeg.missing`.
    public static func decode(path: String, progress: (Double) -> Void = { _ in }) throws(MediaError) -> DecodedAudio {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        var format: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.check(ccaptions_avformat_open_input(&format, path, nil, nil), "media.open", "cannot open \(path)")
        defer { ccaptions_avformat_close_input(&format) }
        try FFmpegCall.check(ccaptions_avformat_find_stream_info(format, nil), "media.open", "cannot read the streams of \(path)")
        var decoder: UnsafePointer<AVCodec>?
        let index = ccaptions_av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = format?.pointee.streams[Int(index)] else {
            throw MediaError("media.audio.none", "\(path) has no sound to transcribe")
        }
        var context = ccaptions_avcodec_alloc_context3(decoder)
        defer { ccaptions_avcodec_free_context(&context) }
        guard let codec = context else { throw MediaError("media.memory", "out of memory") }
        try FFmpegCall.check(ccaptions_avcodec_parameters_to_context(codec, stream.pointee.codecpar), "media.decoder", "cannot set up the audio decoder")
        try FFmpegCall.check(ccaptions_avcodec_open2(codec, decoder, nil), "media.decoder", "cannot open the \(String(cString: decoder.pointee.name)) decoder")

        var run = Run()
        var packet = ccaptions_av_packet_alloc()
        defer { ccaptions_av_packet_free(&packet) }
        var frame = ccaptions_av_frame_alloc()
        defer { ccaptions_av_frame_free(&frame) }
        guard let packet, let frame else { throw MediaError("media.memory", "out of memory") }
        defer { run.release() }
        var lastReport = 0.0
        while true {
            let read = ccaptions_av_read_frame(format, packet)
            if read == FFmpegCall.endOfFile { break }
            if read < 0 {
                run.partialReason = "the file ends or breaks off early: \(FFmpegCall.message(read))"
                break
            }
            defer { ccaptions_av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            if ccaptions_avcodec_send_packet(codec, packet) < 0 { run.damagedPackets += 1 }
            try run.drain(codec, frame)
            let seconds = Double(run.sampleCount) / Double(DecodedAudio.sampleRate)
            if seconds - lastReport >= 5 {
                lastReport = seconds
                progress(seconds)
            }
        }
        ccaptions_avcodec_send_packet(codec, nil)
        try run.drain(codec, frame)
        try run.flush()
        return run.result()
    }

    /// The state of one decoding: the resampler (made for the first frame's format) and what it gave.
    private struct Run {
        var resampler: OpaquePointer?
        var channels = 0
        var planes: [[Float]] = []
        var partialReason: String?
        var damagedPackets = 0
        var sampleCount: Int { planes.first?.count ?? 0 }
        private var output: [UnsafeMutablePointer<Float>] = []
        private var outputCapacity = 0

        mutating func release() {
            if resampler != nil { ccaptions_swr_free(&resampler) }
            for buffer in output { buffer.deallocate() }
            output = []
        }

        mutating func drain(_ codec: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
            while true {
                let received = ccaptions_avcodec_receive_frame(codec, frame)
                if received == FFmpegCall.again || received == FFmpegCall.endOfFile { return }
                if received < 0 {
                    damagedPackets += 1
                    return
                }
                defer { ccaptions_av_frame_unref(frame) }
                if resampler == nil {
                    var count: Int32 = 0
                    resampler = ccaptions_resampler(codec, Int32(DecodedAudio.sampleRate), &count)
                    guard resampler != nil else { throw MediaError("media.decoder", "cannot resample this sound to 16 kHz") }
                    channels = Int(count)
                    planes = Array(repeating: [], count: channels)
                }
                let input = frame.pointee.extended_data.map { UnsafeRawPointer($0).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) }
                convert(input, count: Int(frame.pointee.nb_samples), inputRate: Int(codec.pointee.sample_rate))
            }
        }

        /// What the resampler still holds.
        mutating func flush() throws(MediaError) {
            guard resampler != nil else { return }
            convert(nil, count: 0, inputRate: DecodedAudio.sampleRate)
        }

        private mutating func convert(_ input: UnsafePointer<UnsafePointer<UInt8>?>?, count: Int, inputRate: Int) {
            let capacity = count * DecodedAudio.sampleRate / max(inputRate, 1) + 256
            if capacity > outputCapacity {
                for buffer in output { buffer.deallocate() }
                output = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: capacity) }
                outputCapacity = capacity
            }
            var pointers: [UnsafeMutablePointer<UInt8>?] = output.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self) }
            let made = pointers.withUnsafeMutableBufferPointer { buffer in
                ccaptions_swr_convert(resampler, buffer.baseAddress, Int32(outputCapacity), UnsafeMutablePointer(mutating: input), Int32(count))
            }
            guard made > 0 else { return }
            for channel in 0..<channels {
                planes[channel].append(contentsOf: UnsafeBufferPointer(start: output[channel], count: Int(made)))
            }
        }

        func result() -> DecodedAudio {
            let count = sampleCount
            var mono = [Float](repeating: 0, count: count)
            let scale = 1 / Float(max(channels, 1))
            for plane in planes {
                for index in 0..<count { mono[index] += plane[index] * scale }
            }
            let window = DecodedAudio.levelWindow
            let levels = planes.map { plane in
                stride(from: 0, to: count, by: window).map { start in
                    let end = min(count, start + window)
                    var sum: Float = 0
                    for index in start..<end { sum += plane[index] * plane[index] }
                    return (sum / Float(end - start)).squareRoot()
                }
            }
            var reason = partialReason
            if damagedPackets > 0 {
                let sentence = "\(damagedPackets) damaged audio packet(s) could not be decoded"
                reason = reason.map { $0 + "; " + sentence } ?? sentence
            }
            return DecodedAudio(mono: mono, channelLevels: levels, partialReason: reason)
        }
    }
}

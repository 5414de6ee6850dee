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
    /// The stream decoded, and the file's other audio streams (not decoded) when the stream was
    /// FFmpeg's choice, not the caller's.
    public var streamIndex = 0, otherAudioStreams: [Int] = []
    /// Each channel's own samples (16 kHz), when the decoding was asked to keep them.
    public var channelSamples: [[Float]] = []

    /// Sound as decoded.
    public init(mono: [Float], channelLevels: [[Float]], partialReason: String? = nil) {
        (self.mono, self.channelLevels, self.partialReason) = (mono, channelLevels, partialReason)
    }

    /// The duration in seconds.
    public var duration: Double { Double(mono.count) / Double(Self.sampleRate) }

    /// Channel `index` alone, as a recording of its own (its samples kept by the decoding).
    public func channel(_ index: Int) -> DecodedAudio {
        var alone = DecodedAudio(mono: channelSamples[index], channelLevels: [channelLevels[index]], partialReason: partialReason)
        alone.streamIndex = streamIndex
        return alone
    }

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
    /// The sound of `path`: audio stream `stream` (a stream index, as ffprobe numbers them), else
    /// FFmpeg's choice (the default stream, else the best); `progress` is called now and then
    /// with the seconds decoded; `keepChannels` keeps each channel's samples too
    /// (``DecodedAudio/channelSamples``). Throws `media.open`, `media.audio.none`,
    /// `media.audio.stream`, `media.decoder` or `media.ffmpeg.missing`.
    public static func decode(
        path: String, stream wanted: Int? = nil, keepChannels: Bool = false, progress: (Double) -> Void = { _ in }
    ) throws(MediaError) -> DecodedAudio {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        var format: UnsafeMutablePointer<AVFormatContext>?
        // `-` is standard input, read as a stream: formats that need to seek (MP4 with its index
        // at the end) cannot be read this way.
        let (location, name) = path == "-" ? ("pipe:0", "standard input") : (path, path)
        try FFmpegCall.openInput(&format, location, name: name)
        defer { ccaptions_avformat_close_input(&format) }
        try FFmpegCall.check(
            ccaptions_avformat_find_stream_info(format, nil), "media.open",
            "cannot read the streams of \(name)\(path == "-" ? " (a format that needs to seek, such as MP4, cannot come through a pipe: give its path)" : "")")
        let audioStreams = (0..<Int(format?.pointee.nb_streams ?? 0)).filter {
            format?.pointee.streams[$0]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        }
        if let wanted, !audioStreams.contains(wanted) {
            let choices = audioStreams.isEmpty ? "it has none" : "its audio streams are \(audioStreams.map(String.init).joined(separator: ", "))"
            throw MediaError("media.audio.stream", "\(name) has no audio stream \(wanted): \(choices)")
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = ccaptions_av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, Int32(wanted ?? -1), -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = format?.pointee.streams[Int(index)] else {
            throw MediaError("media.audio.none", "\(name) has no sound to transcribe")
        }
        var context = ccaptions_avcodec_alloc_context3(decoder)
        defer { ccaptions_avcodec_free_context(&context) }
        guard let codec = context else { throw MediaError("media.memory", "out of memory") }
        try FFmpegCall.check(ccaptions_avcodec_parameters_to_context(codec, stream.pointee.codecpar), "media.decoder", "cannot set up the audio decoder")
        try FFmpegCall.check(ccaptions_avcodec_open2(codec, decoder, nil), "media.decoder", "cannot open the \(String(cString: decoder.pointee.name)) decoder")

        // The media's time 0: the container's start (where the first video frame usually is), so
        // that transcript times match a player's; sound that starts later is preceded by silence.
        let containerStart = format.map { $0.pointee.start_time != FFmpegCall.noTimestamp ? Double($0.pointee.start_time) / Double(AV_TIME_BASE) : 0 } ?? 0
        var run = Run(timeBase: stream.pointee.time_base, origin: containerStart, keepChannels: keepChannels)
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
            let seconds = Double(run.mono.count) / Double(DecodedAudio.sampleRate)
            if seconds - lastReport >= 5 {
                lastReport = seconds
                progress(seconds)
            }
        }
        ccaptions_avcodec_send_packet(codec, nil)
        try run.drain(codec, frame)
        run.flush()
        var audio = run.result()
        audio.streamIndex = Int(index)
        audio.otherAudioStreams = wanted == nil ? audioStreams.filter { $0 != Int(index) } : []
        return audio
    }

    /// The state of one decoding. Each frame is resampled (the resampler made anew when the
    /// stream's layout, sample format or rate changes), placed on the timeline by its timestamp
    /// (a gap, from damage or a dropout, is filled with silence and reported), mixed into the mono
    /// samples, and measured per channel; the channels' own samples are kept only when asked.
    private struct Run {
        let timeBase: AVRational
        let origin: Double
        var resampler: OpaquePointer?
        var resamplerKey: (format: Int32, rate: Int32, channels: Int32, mask: UInt64)?
        var channels = 0
        var mono: [Float] = []
        var partialReason: String?
        var damagedPackets = 0
        var gaps: [(start: Double, end: Double)] = []
        /// Per channel: the finished 20 ms levels, and the running sum of squares of the window being filled.
        private var levels: [[Float]] = []
        private var windowSums: [Float] = []
        private var output: [UnsafeMutablePointer<Float>] = []
        private var outputCapacity = 0

        /// Each channel's samples, when kept.
        let keepChannels: Bool
        var channelSamples: [[Float]] = []

        init(timeBase: AVRational, origin: Double, keepChannels: Bool) {
            self.timeBase = timeBase
            self.origin = origin
            self.keepChannels = keepChannels
        }

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
                let key = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels,
                           frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_NATIVE ? frame.pointee.ch_layout.u.mask : 0)
                if resampler == nil || resamplerKey.map({ $0 != key }) ?? true {
                    flush()
                    if resampler != nil { ccaptions_swr_free(&resampler) }
                    var count: Int32 = 0
                    resampler = ccaptions_resampler(frame, Int32(DecodedAudio.sampleRate), &count)
                    guard resampler != nil else { throw MediaError("media.decoder", "cannot resample this sound to 16 kHz") }
                    resamplerKey = key
                    setChannels(Int(count))
                }
                place(frame)
                let input = UnsafeMutableRawPointer(frame.pointee.extended_data).map {
                    UnsafeMutablePointer<UnsafePointer<UInt8>?>($0.assumingMemoryBound(to: UnsafePointer<UInt8>?.self))
                }
                convert(input, count: Int(frame.pointee.nb_samples), inputRate: Int(frame.pointee.sample_rate))
            }
        }

        /// Silence up to the frame's time when it starts later than the samples so far reach
        /// (by more than 50 ms: a gap in the stream); frames without a timestamp follow on.
        private mutating func place(_ frame: UnsafeMutablePointer<AVFrame>) {
            let stamp = frame.pointee.best_effort_timestamp != FFmpegCall.noTimestamp ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            guard stamp != FFmpegCall.noTimestamp, timeBase.den > 0 else { return }
            let time = Double(stamp) * Double(timeBase.num) / Double(timeBase.den) - origin
            let reached = Double(mono.count) / Double(DecodedAudio.sampleRate)
            guard time - reached > 0.05, time - reached < 6 * 3600 else { return }
            if !mono.isEmpty { gaps.append((reached, time)) }
            append(silence: Int((time - reached) * Double(DecodedAudio.sampleRate)))
        }

        private mutating func setChannels(_ count: Int) {
            channels = count
            while levels.count < count {
                // A channel that appears mid-way was silent until then.
                levels.append([Float](repeating: 0, count: levels.first?.count ?? 0))
                windowSums.append(0)
                if keepChannels { channelSamples.append([Float](repeating: 0, count: mono.count)) }
            }
        }

        /// What the resampler still holds.
        mutating func flush() {
            guard resampler != nil else { return }
            convert(nil, count: 0, inputRate: DecodedAudio.sampleRate)
        }

        private mutating func append(silence count: Int) {
            guard count > 0 else { return }
            for _ in 0..<count { appendSample { _ in 0 } }
        }

        /// Adds one sample to the mix and to each channel's level; `value` gives channel c's sample.
        @inline(__always) private mutating func appendSample(_ value: (Int) -> Float) {
            var sum: Float = 0
            for channel in 0..<levels.count {
                let sample = channel < channels ? value(channel) : 0
                sum += sample
                windowSums[channel] += sample * sample
                if keepChannels { channelSamples[channel].append(sample) }
            }
            mono.append(channels > 0 ? sum / Float(channels) : 0)
            if mono.count % DecodedAudio.levelWindow == 0 { closeWindow(DecodedAudio.levelWindow) }
        }

        private mutating func closeWindow(_ size: Int) {
            for channel in 0..<levels.count {
                levels[channel].append((windowSums[channel] / Float(max(size, 1))).squareRoot())
                windowSums[channel] = 0
            }
        }

        private mutating func convert(_ input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int, inputRate: Int) {
            let capacity = count * DecodedAudio.sampleRate / max(inputRate, 1) + 256
            if capacity > outputCapacity || output.count != channels {
                for buffer in output { buffer.deallocate() }
                output = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(capacity, outputCapacity)) }
                outputCapacity = max(capacity, outputCapacity)
            }
            var pointers: [UnsafeMutablePointer<UInt8>?] = output.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self) }
            let made = pointers.withUnsafeMutableBufferPointer { buffer in
                ccaptions_swr_convert(resampler, buffer.baseAddress, Int32(outputCapacity), input, Int32(count))
            }
            guard made > 0 else { return }
            let planes = output
            for index in 0..<Int(made) { appendSample { planes[$0][index] } }
        }

        mutating func result() -> DecodedAudio {
            let remainder = mono.count % DecodedAudio.levelWindow
            if remainder > 0 { closeWindow(remainder) }
            var reason = partialReason
            func add(_ sentence: String) { reason = reason.map { $0 + "; " + sentence } ?? sentence }
            if damagedPackets > 0 { add("\(damagedPackets) damaged audio packet(s) could not be decoded") }
            if !gaps.isEmpty {
                let seconds = gaps.reduce(0) { $0 + $1.end - $1.start }
                add("\(gaps.count) stretch(es) of the sound, \((seconds * 10).rounded() / 10) s in all, are missing (from \(SubtitleStreamReader.clock(MediaTime(milliseconds: Int64(gaps[0].start * 1000)))) on) and were read as silence")
            }
            var audio = DecodedAudio(mono: mono, channelLevels: levels, partialReason: reason)
            audio.channelSamples = channelSamples
            return audio
        }
    }
}

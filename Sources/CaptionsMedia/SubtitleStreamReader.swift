import CCaptionsFFmpeg
import CaptionsCore

/// What ``SubtitleStreamReader`` got out of a subtitle stream: its packets, and where the file was
/// damaged or ended early, so that cues which may be missing are never lost silently.
public struct SubtitleStreamContents: Sendable {
    /// The packets read, in file order (damaged ones included, with their text as read).
    public var packets: [SubtitlePacket]
    /// The damage found, in time order; empty for an intact file.
    public var damage: [SubtitleDamage]

    /// Packets and damage.
    public init(packets: [SubtitlePacket], damage: [SubtitleDamage] = []) {
        self.packets = packets
        self.damage = damage
    }

    /// One warning diagnostic per damage report (see ``SubtitleDamage/diagnostic``).
    public var diagnostics: [Diagnostic] { damage.map(\.diagnostic) }
}

/// A stretch of a subtitle stream that could not be read intact.
public struct SubtitleDamage: Sendable, Hashable {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The data is damaged: the demuxer reported an error or skipped data, a cue is marked
        /// corrupt, its text is not valid UTF-8 or its time lies past the end, or the stream's
        /// index is unreadable. Code `media.subtitle.damaged`.
        case damaged = "media.subtitle.damaged"
        /// The file ends before the end it announces (cut short while copying or downloading).
        /// Code `media.subtitle.truncated`.
        case truncated = "media.subtitle.truncated"
    }

    /// What went wrong; its raw value is the diagnostic code.
    public var kind: Kind
    /// Where cues may be missing or wrong from: the last cue read intact before the damage (it
    /// was read; later ones may not have been), or zero when there is none.
    public var start: MediaTime
    /// Where cues may be missing or wrong until: the next cue read intact after the damage, or
    /// the end of the media; `nil` when the end of the media is not known.
    public var end: MediaTime?
    /// A sentence for people: what happened and which cues may be missing or wrong.
    public var message: String

    /// A report.
    public init(kind: Kind, start: MediaTime, end: MediaTime?, message: String) {
        self.kind = kind
        self.start = start
        self.end = end
        self.message = message
    }

    /// A warning with code ``Kind/rawValue`` at line 1, column 1 (a media file has no lines), so
    /// that `--strict` refuses to write a result that may lack cues.
    public var diagnostic: Diagnostic {
        Diagnostic(.warning, Diagnostic.Code(rawValue: kind.rawValue), message, at: .start)
    }
}

/// Reads a text subtitle stream (SubRip, WebVTT, ASS/SSA, `mov_text`) out of a media container.
///
/// Damage is reported, never skipped silently. It is found from:
/// - errors from the demuxer (reading goes on, since demuxers often find their feet again, up to
///   ``errorLimit`` errors in a row), and errors it only logs while skipping damaged data
///   (Matroska's way);
/// - packets the container marks corrupt, text that is not valid UTF-8, and a `mov_text` length
///   longer than its packet;
/// - a file that stops before the duration it announces (truncated), and a cue that starts after
///   it (a damaged timestamp);
/// - a stream that declares packets none of which can be read, or more than the file has bytes
///   (a damaged MP4 sample table).
///
/// Each becomes a ``SubtitleDamage`` with the time range where cues may be missing, found from
/// the byte offsets of the packets read on either side of the damage. Undetectable: changed bytes
/// that still parse (a bit flipped in a cue's text or time), since FFmpeg checks no checksums.
public enum SubtitleStreamReader {
    /// Errors in a row from the demuxer after which reading stops (a demuxer that cannot move on
    /// would otherwise loop forever).
    public static let errorLimit = 32

    /// The packets of subtitle stream `index` (the container's stream number, as `ffprobe` shows
    /// it), or of the first text subtitle stream when `index` is nil, with the damage found.
    public static func read(path: String, stream index: Int? = nil) throws(MediaError) -> SubtitleStreamContents {
        if let failure = ccaptions_ffmpeg_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        ccaptions_av_log_set_level(AV_LOG_QUIET)
        // Allocated here so that the demuxer's messages are kept from the header on.
        var format: UnsafeMutablePointer<AVFormatContext>? = ccaptions_avformat_alloc_context()
        guard format != nil else { throw MediaError("media.memory", "out of memory") }
        // Closed after the watch ends (defers run last first): closing logs about freed objects.
        // avformat_open_input frees the context and sets it to nil when it fails.
        defer { ccaptions_avformat_close_input(&format) }
        ccaptions_problem_log_begin(format)
        defer { ccaptions_problem_log_end() }
        try FFmpegCall.openInput(&format, path, name: path)
        try FFmpegCall.check(ccaptions_avformat_find_stream_info(format, nil), "media.open", "cannot read the streams of \(path)")
        guard let format else { throw MediaError("media.open", "cannot open \(path)") }
        let chosen = try chooseStream(format, index: index, path: path)
        var allocated = ccaptions_av_packet_alloc()
        defer { ccaptions_av_packet_free(&allocated) }
        guard let packet = allocated else { throw MediaError("media.memory", "out of memory") }

        var run = ReadRun(chosen: chosen)
        var errorsInARow = 0
        while true {
            let result = ccaptions_av_read_frame(format, packet)
            if result == FFmpegCall.endOfFile { break }
            if result < 0 {
                errorsInARow += 1
                let position = ccaptions_avio_position(format.pointee.pb)
                if result != FFmpegCall.again { run.problem(at: position, FFmpegCall.message(result)) }
                if errorsInARow >= errorLimit {
                    run.problem(at: position, "reading stopped after \(errorLimit) errors in a row")
                    break
                }
                continue
            }
            errorsInARow = 0
            defer { ccaptions_av_packet_unref(packet) }
            run.take(packet, of: format)
        }
        if let pb = format.pointee.pb, pb.pointee.error < 0, pb.pointee.error != FFmpegCall.endOfFile {
            run.problem(at: ccaptions_avio_position(pb), FFmpegCall.message(pb.pointee.error))
        }
        let logged = Int(ccaptions_problem_log_count())
        for number in 0..<min(logged, Int(CCAPTIONS_PROBLEM_CAPACITY)) {
            let message = String(cString: ccaptions_problem_log_message(Int32(number)))
            run.problem(at: ccaptions_problem_log_position(Int32(number)), message.isEmpty ? "unreadable data" : message)
        }
        run.problemsDropped += max(0, logged - Int(CCAPTIONS_PROBLEM_CAPACITY))
        return run.finish(format)
    }

    /// The stream to read: its number, markup, time base and codec.
    fileprivate struct Chosen {
        var index: Int32
        var markup: SubtitlePacket.Markup
        var timeBase: AVRational
        var isMovText: Bool
        /// Packets the container says the stream holds (MP4 says; 0 when unknown).
        var declaredPackets: Int
    }

    private static func chooseStream(
        _ format: UnsafeMutablePointer<AVFormatContext>, index: Int?, path: String
    ) throws(MediaError) -> Chosen {
        for streamIndex in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[streamIndex], let parameters = stream.pointee.codecpar,
                parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE, index == nil || index == streamIndex
            else { continue }
            guard let markup = markup(of: parameters.pointee.codec_id) else {
                if index != nil {
                    throw MediaError("media.subtitle.unsupported", "stream \(streamIndex) holds picture subtitles, not text")
                }
                continue
            }
            return Chosen(
                index: Int32(streamIndex), markup: markup, timeBase: stream.pointee.time_base,
                isMovText: parameters.pointee.codec_id == AV_CODEC_ID_MOV_TEXT,
                declaredPackets: Int(clamping: stream.pointee.nb_frames))
        }
        throw MediaError(
            "media.subtitle.none",
            index.map { "\(path) has no subtitle stream \($0)" } ?? "\(path) has no text subtitle stream")
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

    /// `stamp` in `timeBase` as a time; nil when it cannot be one (no time base, or out of range).
    fileprivate static func time(_ stamp: Int64, _ timeBase: AVRational) -> MediaTime? {
        let (value, overflow) = stamp.multipliedReportingOverflow(by: Int64(timeBase.num))
        guard !overflow else { return nil }
        return MediaTime(value: value, timescale: Int64(timeBase.den))
    }

    /// The packet's text, and what is wrong with it: `mov_text` starts with a 16-bit big-endian
    /// length (styles follow it); text that is not UTF-8 is read with U+FFFD in place of bad bytes.
    fileprivate static func text(
        _ bytes: UnsafeBufferPointer<UInt8>, markup: SubtitlePacket.Markup, isMovText: Bool
    ) -> (text: String, fault: String?) {
        var fault: String?
        if markup == .plain, bytes.count >= 2 {
            let length = Int(bytes[0]) << 8 | Int(bytes[1])
            if length + 2 <= bytes.count {
                return decoded(UnsafeBufferPointer(rebasing: bytes[2..<(2 + length)]), fault: nil)
            }
            if isMovText { fault = "its length of \(length) bytes is longer than the packet" }
        } else if isMovText {
            fault = "it is too short to hold its length"
        }
        return decoded(UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.endIndex)]), fault: fault)
    }

    private static func decoded(_ body: UnsafeBufferPointer<UInt8>, fault: String?) -> (text: String, fault: String?) {
        if let valid = String(validating: body, as: UTF8.self) { return (valid, fault) }
        return (String(decoding: body, as: UTF8.self), fault ?? "its text is not valid UTF-8")
    }

    fileprivate static func sideData(_ packet: UnsafeMutablePointer<AVPacket>, _ type: AVPacketSideDataType) -> String? {
        var size = 0
        guard let data = ccaptions_av_packet_get_side_data(packet, type, &size), size > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// `00:01:02.345`: a time as a clock, to the millisecond.
    static func clock(_ time: MediaTime) -> String {
        let milliseconds = time.rounded(toTimescale: 1000)
        let magnitude = milliseconds.magnitude
        let hours = magnitude / 3_600_000
        let minutes = magnitude / 60_000 % 60
        let seconds = magnitude / 1000 % 60
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = String(magnitude % 1000)
        return (milliseconds < 0 ? "-" : "") + "\(two(hours)):\(two(minutes)):\(two(seconds))."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// The state of one read: the packets so far, where in the file each came from, and the problems
/// met; ``finish(_:)`` places each problem between the packets read around it.
private struct ReadRun {
    struct Read {
        var packet: SubtitlePacket
        /// Its byte offset in the file, or -1.
        var position: Int64
        /// What is wrong with it, if anything.
        var fault: String?
    }

    struct Problem {
        /// The byte offset the demuxer had reached, or -1.
        var position: Int64
        var message: String
    }

    let chosen: SubtitleStreamReader.Chosen
    var reads: [Read] = []
    var problems: [Problem] = []
    /// Problems past the ones kept (a long run of garbage), only counted.
    var problemsDropped = 0
    /// Packets of the stream delivered, empty ones included.
    var streamPackets = 0
    /// The latest end (time plus duration) of any packet of any stream, in seconds.
    var reached: Double?

    init(chosen: SubtitleStreamReader.Chosen) { self.chosen = chosen }

    mutating func problem(at position: Int64, _ message: String) {
        guard problems.count < 256 else {
            problemsDropped += 1
            return
        }
        problems.append(Problem(position: position, message: message))
    }

    mutating func take(_ packet: UnsafeMutablePointer<AVPacket>, of format: UnsafeMutablePointer<AVFormatContext>) {
        let streamIndex = packet.pointee.stream_index
        let stamp = packet.pointee.pts != FFmpegCall.noTimestamp ? packet.pointee.pts : packet.pointee.dts
        if stamp != FFmpegCall.noTimestamp, streamIndex >= 0, streamIndex < Int32(format.pointee.nb_streams),
            let stream = format.pointee.streams[Int(streamIndex)]
        {
            let base = stream.pointee.time_base
            if base.den > 0 {
                let end = Double(stamp) + Double(max(0, packet.pointee.duration))
                let seconds = end * Double(base.num) / Double(base.den)
                if seconds.isFinite { reached = max(reached ?? seconds, seconds) }
            }
        }
        guard streamIndex == chosen.index else { return }
        streamPackets += 1
        guard let data = packet.pointee.data else { return }
        let bytes = UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))
        let timeBase = chosen.timeBase
        guard stamp != FFmpegCall.noTimestamp, let start = SubtitleStreamReader.time(stamp, timeBase) else {
            problem(at: packet.pointee.pos, "a subtitle packet has no usable time")
            return
        }
        let end = packet.pointee.duration > 0 ? SubtitleStreamReader.time(packet.pointee.duration, timeBase).map { start + $0 } : nil
        var (text, fault) = SubtitleStreamReader.text(bytes, markup: chosen.markup, isMovText: chosen.isMovText)
        if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
            fault = "the container marks it corrupt" + (fault.map { " and \($0)" } ?? "")
        }
        reads.append(Read(
            packet: SubtitlePacket(
                start: start, end: end, text: text, markup: chosen.markup,
                settings: SubtitleStreamReader.sideData(packet, AV_PKT_DATA_WEBVTT_SETTINGS),
                identifier: SubtitleStreamReader.sideData(packet, AV_PKT_DATA_WEBVTT_IDENTIFIER)),
            position: packet.pointee.pos, fault: fault))
    }

    /// The packets and the damage, with every problem placed in time.
    func finish(_ format: UnsafeMutablePointer<AVFormatContext>) -> SubtitleStreamContents {
        let clock = SubtitleStreamReader.clock
        let timeBase = AVRational(num: 1, den: AV_TIME_BASE)
        // The end the file announces, unless it is only a guess from the bit rate. A duration
        // measured from the timestamps (MPEG-TS) counts from the start time; one the container
        // states (Matroska, MP4) is the end of its timeline.
        var announcedEnd: MediaTime?
        let method = format.pointee.duration_estimation_method
        if format.pointee.duration > 0, method != AVFMT_DURATION_FROM_BITRATE {
            let startTime = method == AVFMT_DURATION_FROM_PTS && format.pointee.start_time != FFmpegCall.noTimestamp
                ? format.pointee.start_time : 0
            let (sum, overflow) = startTime.addingReportingOverflow(format.pointee.duration)
            if !overflow { announcedEnd = SubtitleStreamReader.time(sum, timeBase) }
        }
        let reachedTime = reached.flatMap { $0.isFinite && abs($0) < 1e12 ? MediaTime(milliseconds: Int64(($0 * 1000).rounded())) : nil }
        let mediaEnd = announcedEnd ?? reachedTime
        var damage: [SubtitleDamage] = []

        // Problems in the stream of data, placed by byte offset between the packets around them.
        let placed = reads.filter { $0.position >= 0 }
        var spans: [(start: MediaTime, end: MediaTime?, problems: [Problem])] = []
        for problem in problems {
            var start = MediaTime.zero
            var end = mediaEnd
            if problem.position >= 0 {
                if let before = placed.last(where: { $0.position < problem.position }) { start = before.packet.start }
                if let after = placed.first(where: { $0.position > problem.position }) { end = after.packet.start }
            }
            if let last = spans.indices.last, spans[last].start == start, spans[last].end == end {
                spans[last].problems.append(problem)
            } else {
                spans.append((start, end, [problem]))
            }
        }
        func reasons(_ problems: [Problem]) -> String {
            var distinct: [String] = []
            for problem in problems where !distinct.contains(problem.message) { distinct.append(problem.message) }
            let more = distinct.count - 1
            return "FFmpeg: " + (distinct.first ?? "unreadable data") + (more > 0 ? " (and \(more) more)" : "")
        }
        func range(_ start: MediaTime, _ end: MediaTime?) -> String {
            "between \(clock(start)) and " + (end.map { clock($0) } ?? "the end of the media")
        }

        // The media stops before its announced end: everything after the last cue read may be
        // missing. Problems reaching to the end are the reason, and are not reported twice.
        let tolerance = 0.5
        let fileSize = format.pointee.pb.map { ccaptions_avio_size($0) } ?? -1
        if let announcedEnd, (reached ?? 0) + tolerance < announcedEnd.seconds {
            let tail = spans.filter { $0.end == mediaEnd || $0.end == nil }
            spans.removeAll { $0.end == mediaEnd || $0.end == nil }
            let start = reads.last?.packet.start ?? .zero
            let tailProblems = tail.flatMap(\.problems)
            // Damage well before the end of the file that nothing after could be read past is
            // damage; an end of file where data was still expected is a truncation.
            let damagedEarlier = tailProblems.contains { $0.position >= 0 && fileSize > 0 && $0.position < fileSize - 64 }
            let stops = "the media stops at \(clock(reachedTime ?? .zero)) of the \(clock(announcedEnd)) it announces"
            let because = tailProblems.isEmpty ? "" : " (\(reasons(tailProblems)))"
            let missing = "cues \(range(start, mediaEnd)) may be missing"
            damage.append(
                damagedEarlier
                    ? SubtitleDamage(
                        kind: .damaged, start: start, end: mediaEnd,
                        message: "damaged data, and nothing after it could be read\(because): \(stops), so \(missing)")
                    : SubtitleDamage(
                        kind: .truncated, start: start, end: mediaEnd,
                        message: "the file ends early\(because): \(stops), so \(missing)"))
        }
        for span in spans {
            damage.append(SubtitleDamage(
                kind: .damaged, start: span.start, end: span.end,
                message: "damaged data (\(reasons(span.problems))): cues \(range(span.start, span.end)) may be missing"))
        }

        // A cue starting after the end the file announces has a damaged time.
        var reads = reads
        if let announcedEnd {
            for index in reads.indices where reads[index].packet.start.seconds > announcedEnd.seconds + tolerance {
                let late = "it starts after the \(clock(announcedEnd)) the file announces, so its time is damaged"
                reads[index].fault = reads[index].fault.map { "\($0); \(late)" } ?? late
            }
        }

        // Packets read but damaged: runs of neighbours become one report.
        var index = reads.startIndex
        while index < reads.endIndex {
            guard let fault = reads[index].fault else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < reads.endIndex, reads[last + 1].fault != nil { last += 1 }
            let start = reads[index].packet.start
            let end = reads[last].packet.end ?? reads[last].packet.start
            let count = last - index + 1
            let which = count == 1 ? "the cue \(range(start, end)) is damaged" : "\(count) cues \(range(start, end)) are damaged"
            let what = count == 1 ? "it may be wrong" : "they may be wrong"
            damage.append(SubtitleDamage(kind: .damaged, start: start, end: end, message: "\(which) (\(fault)); \(what)"))
            index = last + 1
        }

        // A stream that declares packets none of which could be read (MP4 with a damaged sample
        // table). Fewer than declared is not enough: MP4 counts samples that an edit list trims
        // (a lossless cut) or a closing empty `mov_text` sample, which FFmpeg does not return.
        // A count larger than the file has bytes is a damaged sample table too.
        let impossible = fileSize > 0 && Int64(chosen.declaredPackets) > fileSize
        if damage.isEmpty, chosen.declaredPackets > 1, streamPackets == 0 || impossible {
            let read = streamPackets == 0 ? "none" : "\(streamPackets)"
            damage.append(SubtitleDamage(
                kind: .damaged, start: .zero, end: mediaEnd,
                message: "the subtitle stream declares \(chosen.declaredPackets) packets but \(read) could be read "
                    + "(its index is damaged): cues \(range(.zero, mediaEnd)) may be missing"))
        }
        if problemsDropped > 0, let first = damage.indices.first {
            damage[first].message += " (\(problemsDropped) further errors not shown)"
        }
        damage.sort { $0.start < $1.start }
        return SubtitleStreamContents(packets: reads.map(\.packet), damage: damage)
    }
}

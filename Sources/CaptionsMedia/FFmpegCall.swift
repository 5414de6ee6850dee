import CCaptionsFFmpeg
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns FFmpeg's negative return codes into errors with FFmpeg's own message.
enum FFmpegCall {
    /// FFmpeg's text for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ccaptions_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws `code` with `what` when `result` is negative; returns it otherwise.
    @discardableResult
    static func check(_ result: Int32, _ code: String, _ what: String) throws(MediaError) -> Int32 {
        guard result >= 0 else { throw MediaError(code, "\(what): \(message(result))") }
        return result
    }

    /// Opens `location` into `format`, or throws `media.open` saying why in a user's terms: an empty
    /// file, a file FFmpeg recognises as no audio or video format, or FFmpeg's own message
    /// (a missing file, no permission). `name` is how the input is called in the message.
    static func openInput(_ format: inout UnsafeMutablePointer<AVFormatContext>?, _ location: String, name: String) throws(MediaError) {
        let result = ccaptions_avformat_open_input(&format, location, nil, nil)
        guard result < 0 else { return }
        var status = stat()
        if location != "pipe:0", stat(location, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            if status.st_size == 0 { throw MediaError("media.open", "cannot open \(name): the file is empty (0 bytes)") }
            if result == ccaptions_averror_einval() || result == ccaptions_averror_invaliddata() {
                throw MediaError("media.open", "cannot open \(name): FFmpeg recognises no audio or video format in it (not a media file, or its start is damaged)")
            }
        }
        throw MediaError("media.open", "cannot open \(name): \(message(result))")
    }

    static let again = ccaptions_averror_eagain()
    static let endOfFile = ccaptions_averror_eof()
    static let noTimestamp = ccaptions_nopts_value()

    /// Converts every line of `source` into `target` (allocated, of the same size) with `scaler`.
    static func scale(_ scaler: OpaquePointer, _ source: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<AVFrame>) {
        var sourceData = source.pointee.data, sourceLines = source.pointee.linesize
        var targetData = target.pointee.data, targetLines = target.pointee.linesize
        withUnsafeBytes(of: &sourceData) { sourcePlanes in
            withUnsafeBytes(of: &sourceLines) { sourceStrides in
                withUnsafeBytes(of: &targetData) { targetPlanes in
                    withUnsafeBytes(of: &targetLines) { targetStrides in
                        _ = ccaptions_sws_scale(
                            scaler, sourcePlanes.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                            sourceStrides.bindMemory(to: Int32.self).baseAddress, 0, source.pointee.height,
                            targetPlanes.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).baseAddress,
                            targetStrides.bindMemory(to: Int32.self).baseAddress)
                    }
                }
            }
        }
    }
}

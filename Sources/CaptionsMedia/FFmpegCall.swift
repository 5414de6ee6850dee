import CCaptionsFFmpeg

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

    static let again = ccaptions_averror_eagain()
    static let endOfFile = ccaptions_averror_eof()
    static let noTimestamp = ccaptions_nopts_value()
}

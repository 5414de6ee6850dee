import CCaptionsFFmpeg

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SHA-256 of a file's content (FFmpeg's libavutil), so that a batch run can tell a file it
/// has already done from one that changed under the same name.
public enum ContentHash {
    /// The SHA-256 of the file at `path`, in lower-case hex; throws `media.open` when it cannot be
    /// read and `media.ffmpeg.missing` without FFmpeg.
    public static func sha256(ofFile path: String) throws(MediaError) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw MediaError("media.open", "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        return try sha256 { (update: (UnsafeBufferPointer<UInt8>) -> Void) throws(MediaError) in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw MediaError("media.open", "cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                buffer.withUnsafeBufferPointer { update(UnsafeBufferPointer(rebasing: $0.prefix(count))) }
            }
        }
    }

    /// The SHA-256 of `text`'s UTF-8, in lower-case hex.
    public static func sha256(of text: String) throws(MediaError) -> String {
        try sha256 { (update: (UnsafeBufferPointer<UInt8>) -> Void) throws(MediaError) in
            Array(text.utf8).withUnsafeBufferPointer { update($0) }
        }
    }

    /// The SHA-256 of what `feed` hands to its `update` function.
    private static func sha256(
        _ feed: ((UnsafeBufferPointer<UInt8>) -> Void) throws(MediaError) -> Void
    ) throws(MediaError) -> String {
        if let failure = ccaptions_avutil_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        guard let context = ccaptions_av_sha_alloc() else { throw MediaError("media.memory", "out of memory") }
        defer { ccaptions_av_free(UnsafeMutableRawPointer(context)) }
        _ = ccaptions_av_sha_init(context, 256)
        try feed { bytes in ccaptions_av_sha_update(context, bytes.baseAddress, bytes.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { ccaptions_av_sha_final(context, $0.baseAddress) }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}

/// The FFmpeg libraries in use.
public enum FFmpegLibraries {
    /// Their version (`av_version_info`), or nil when they cannot be loaded.
    public static var version: String? {
        guard ccaptions_avutil_load() == nil, let text = ccaptions_av_version_info() else { return nil }
        return String(cString: text)
    }
}

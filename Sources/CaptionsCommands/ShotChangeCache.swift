import CaptionsCore
import CaptionsMedia
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shot changes kept beside a fingerprint of the video, so that checking a second caption file
/// (or the same one after a fix) against a film does not decode it again.
///
/// The cache is `$CAPTIONS_CACHE_DIR`, else `$XDG_CACHE_HOME/captions`, else
/// `~/.cache/captions`: one JSON file per video and threshold under `shots/`, named by the
/// fingerprint (size, modification time, and a hash of the first and last MiB), which is also
/// stored inside and compared on reading. A cache that cannot be read or written is skipped.
enum ShotChangeCache {
    private struct Entry: Codable {
        var fingerprint: String
        var detector: String
        var shots: ShotChanges
    }

    /// Names the measure, so that a change to it makes old entries miss.
    static let detector = "luma-mafd-half-v2 (no deblocking)"

    /// The shot changes of `path`, from the cache or found now (then cached).
    static func shots(of path: String, threshold: Double, refresh: Bool, io: CommandIO, progress: ProgressStyle?) throws(MediaError) -> ShotChanges {
        let fingerprint = Self.fingerprint(of: path)
        let file = fingerprint.flatMap { print in directory().map { "\($0)/shots/\(print)-\(NumberFormatting.shortest(threshold)).json" } }
        if !refresh, let file, let fingerprint, let bytes = try? FileAccess.read(file, io: io),
            let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes)),
            entry.fingerprint == fingerprint, entry.detector == detector
        {
            return entry.shots
        }
        var progress = ProgressBar(io: io, style: progress, duration: nil, file: path)
        let shots = try ShotChangeDetector.detect(path: path, threshold: threshold) { progress.update(time: $0) }
        progress.finish()
        if let file, let fingerprint, shots.partialReason == nil,
            let data = try? JSONEncoder().encode(Entry(fingerprint: fingerprint, detector: detector, shots: shots))
        {
            FileAccess.makeDirectories(String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]))
            try? FileAccess.write(to: file, io: io) { emit in data.withUnsafeBytes { emit($0) } }
        }
        return shots
    }

    /// The cache folder, `nil` when no home is known.
    private static func directory() -> String? {
        let environment = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        if let folder = environment("CAPTIONS_CACHE_DIR") { return folder }
        if let folder = environment("XDG_CACHE_HOME") { return folder + "/captions" }
        return environment("HOME").map { $0 + "/.cache/captions" }
    }

    /// Size, modification time and a 64-bit FNV-1a hash of the first and last MiB, in hex.
    static func fingerprint(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let size = Int64(info.st_size)
        for offset in Set([0, max(0, size - Int64(buffer.count))]).sorted() {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard count >= 0 else { return nil }
            for byte in buffer[..<count] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return "\(String(UInt64(size), radix: 16))-\(String(UInt64(bitPattern: modified), radix: 16))-\(String(hash, radix: 16))"
    }
}

import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an input: a regular file is mapped read-only (its pages are the page cache's, so
/// nothing is copied and nothing is allocated for it); standard input, pipes and empty files are
/// read into memory. The mapping is released with the object.
///
/// As with any mapped file (ripgrep and others make the same trade), another program truncating
/// the file while it is being read would end the process with SIGBUS; files being written to
/// should be converted through standard input.
final class InputFile {
    private enum Storage {
        case mapped(UnsafeMutableRawPointer, count: Int)
        case read([UInt8])
    }

    private var storage: Storage

    /// Opens `path`, or standard input for `-`.
    init(_ path: String, io: CommandIO) throws(CaptionsError) {
        if path == "-" {
            do { storage = .read(try io.readStandardInput()) } catch {
                throw CaptionsError("input.unreadable", "cannot read standard input: \(error)")
            }
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CaptionsError(errno == ENOENT ? "input.missing" : "input.unreadable", String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw CaptionsError("input.unreadable", "is a folder, not a file") }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CaptionsError("input.unreadable", String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let size = Int(info.st_size)
        if info.st_mode & S_IFMT == S_IFREG, size > 0,
            let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | Self.populate, descriptor, 0), address != MAP_FAILED
        {
            storage = .mapped(address, count: size)
            return
        }
        do { storage = .read(try FileDescriptorIO.readAll(descriptor, sizeHint: size)) } catch {
            throw CaptionsError("input.unreadable", "cannot read: \(error)")
        }
    }

    deinit {
        if case .mapped(let address, let count) = storage { munmap(address, count) }
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withBytes<Result, Failure>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch storage {
        case .mapped(let address, let count):
            return try body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count))
        case .read(let bytes):
            return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try body(buffer) }
        }
    }

    /// The bytes as an array of the caller's; a mapping is copied and released first, so that the
    /// input is held in memory once.
    func takeBytes() -> [UInt8] {
        switch storage {
        case .read(let bytes):
            storage = .read([])
            return bytes
        case .mapped(let address, let count):
            let bytes = Array(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count))
            munmap(address, count)
            storage = .read([])
            return bytes
        }
    }

    #if os(Linux)
    /// Maps every page at once instead of one fault at a time.
    private static let populate = MAP_POPULATE
    #else
    private static let populate: Int32 = 0
    #endif
}

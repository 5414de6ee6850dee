import ArgumentParser
import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs and writing outputs safely: outputs go to a temporary file in the target's
/// folder and are renamed over it, so a failure never leaves half a file, and an output path that
/// is the input is refused.
enum FileAccess {
    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String, io: CommandIO) throws(CaptionsError) -> [UInt8] {
        try InputFile(path, io: io).takeBytes()
    }

    /// Whether two paths name the same existing file (same device and inode), so that an output
    /// never replaces its input, through links too.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        guard first != "-", second != "-" else { return false }
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Writes `text` to `path` (or standard output for `-`) as ``write(to:io:producing:)`` does;
    /// on failure prints `path: error: …` and throws `ExitCode` 1.
    static func writeText(_ text: String, to path: String, io: CommandIO) throws {
        do {
            try write(to: path, io: io) { emit in
                var text = text
                text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
            }
        } catch {
            io.writeStandardError("\(path): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
    }

    /// Writes what `produce` emits to `path` through a temporary file and a rename, or to standard
    /// output for `-`. On any failure the temporary file is removed and the target is untouched.
    static func write(
        to path: String, io: CommandIO, producing produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(CaptionsError) {
        if path == "-" {
            produce { io.writeStandardOutput($0) }
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw CaptionsError("output.unwritable", "cannot create a file next to \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Int32?
        produce { piece in
            if failure == nil, !FileDescriptorIO.writeAll(piece, to: descriptor) { failure = errno }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }
}

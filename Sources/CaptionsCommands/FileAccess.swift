import ArgumentParser
import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs and writing outputs safely: a regular output file is written to a temporary file
/// in its folder and renamed over it, so a failure never leaves half a file; devices, FIFOs and
/// links to them are written to in place, never replaced; an output path that is the input is
/// refused. See ``write(to:io:producing:)``.
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

    /// Throws the usage error every command gives when `output` names the same file as `input`
    /// (through links too): an output never replaces what it is made from.
    static func refuseToReplace(_ input: String, with output: String) throws {
        if isSameFile(input, output) {
            throw ValidationError("the output \(output) is the input; refusing to overwrite it, name another output")
        }
    }

    /// Whether `path` is a folder (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` exists (following symbolic links).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// When `path` was last modified (seconds since the epoch, to the nanosecond), nil when it does not exist.
    static func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// `mkdir -p`: the folder and the folders above it, as far as they are missing.
    static func makeDirectories(_ path: String) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            mkdir(partial, 0o755)
        }
    }

    /// Checks, before long work, that ``write(to:io:producing:)`` will be able to write `path`:
    /// not a folder, its folder there and writable (for the temporary file), and an existing file
    /// writable. Throws `output.unwritable` otherwise. (An output that is an input is refused
    /// before, by ``refuseToReplace(_:with:)``.)
    static func checkWritable(_ path: String) throws(CaptionsError) {
        guard path != "-" else { return }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw CaptionsError("output.unwritable", "cannot write \(path): it is a folder")
            }
            if access(path, W_OK) != 0 {
                throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            if info.st_mode & S_IFMT != S_IFREG { return }
        }
        let folder = split(path).folder
        if access(folder.isEmpty ? "." : folder, W_OK | X_OK) != 0 {
            throw CaptionsError(
                "output.unwritable", "cannot write \(path): its folder \(folder.isEmpty ? "." : folder): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to `path` (or standard output for `-`) as ``write(to:io:producing:)`` does;
    /// on failure prints `path: error: …` and throws `ExitCode` 1.
    static func writeText(_ text: String, to path: String, io: CommandIO) throws {
        try writeText(to: path, io: io) { $0(text) }
    }

    /// Writes the text `produce` hands over, piece by piece, as one file (as ``writeText(_:to:io:)``).
    static func writeText(to path: String, io: CommandIO, producing produce: ((String) -> Void) -> Void) throws {
        do {
            try write(to: path, io: io) { emit in
                withoutActuallyEscaping(emit) { emit in
                    produce { piece in
                        var piece = piece
                        piece.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
                    }
                }
            }
        } catch {
            io.writeStandardError("\(path): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
    }

    /// Writes what `produce` emits to `path`, or to standard output for `-`.
    ///
    /// - A regular file (new or existing) is written to a temporary file in its folder and renamed
    ///   over it, so a failure never leaves half a file: on any failure the temporary file is
    ///   removed and the target is untouched. A replaced file keeps its permission bits (and, for
    ///   root, its owner); a new one gets `0o666` less the umask.
    /// - A symbolic link is followed and its target replaced; the link stays a link. A link that
    ///   the kernel's `protected_symlinks` rule would not follow (someone else's, in a sticky
    ///   world-writable folder such as /tmp) is refused.
    /// - Anything else (a character or block device, a FIFO, a link to one) is opened and written
    ///   to directly, never replaced; and a name of one of this process's own descriptors
    ///   (`/dev/stdout`: ``ownDescriptor(_:)``) is written through that descriptor.
    ///
    /// The temporary file is `.NAME.captions-PID.tmp`. It is removed if SIGINT, SIGTERM, SIGHUP or
    /// SIGXFSZ ends the process (``TemporaryFileCleanup``), and one left by a process that no
    /// longer runs (after `kill -9`) is removed by the next write to the same name.
    static func write(
        to path: String, io: CommandIO, producing produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(CaptionsError) {
        let own = path == "-" ? 1 : ownDescriptor(path)
        if own == 1 {
            produce { io.writeStandardOutput($0) }
            return
        }
        if let descriptor = own {
            // Where the shell's redirection put it (`2>> log`): at its offset, never replaced.
            var failure: Int32?
            produce { piece in
                if failure == nil, !FileDescriptorIO.writeAll(piece, to: descriptor) { failure = errno }
            }
            if let failure {
                throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(failure)))")
            }
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw CaptionsError("output.unwritable", "cannot write \(path): it is a folder")
            case S_IFREG:
                try refuseUnwritable(path)
                let target = try followLinks(path)
                var resolved = stat()
                if stat(target, &resolved) == 0, resolved.st_dev == info.st_dev, resolved.st_ino == info.st_ino {
                    try replace(target, shownAs: path, existing: info, producing: produce)
                } else {
                    // A link the path cannot name, such as another process's /proc/PID/fd/1 to a deleted
                    // file (this process's own descriptors were written through above).
                    try writeDirectly(to: path, truncating: true, producing: produce)
                }
            default:
                _ = try followLinks(path)
                try writeDirectly(to: path, truncating: false, producing: produce)
            }
        } else if errno == ENOENT {
            try replace(try followLinks(path), shownAs: path, existing: nil, producing: produce)
        } else {
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Throws `output.unwritable` for an existing file this user may not write: renaming over
    /// it needs only the folder's permission, and replaced a read-only file, or someone else's in
    /// a folder all may write to, which the shell and `cp` refuse.
    private static func refuseUnwritable(_ path: String) throws(CaptionsError) {
        if access(path, W_OK) != 0, errno == EACCES || errno == EROFS {
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The descriptor of this process that `path` names (`/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`), when it is open. Such a path leads to whatever the shell
    /// redirected the descriptor to, often a regular file: opened anew, or replaced, it would lose
    /// what the shell wrote there before and after (`{ echo A; captions … -o /dev/stdout; } > f`).
    static func ownDescriptor(_ path: String) -> Int32? {
        let number: Int32?
        switch path {
        case "/dev/stdout": number = 1
        case "/dev/stderr": number = 2
        default:
            let prefixes = ["/dev/fd/", "/proc/self/fd/"]
            number = prefixes.first(where: path.hasPrefix).flatMap { Int32(path.dropFirst($0.count)) }
        }
        guard let number, number >= 0, fcntl(number, F_GETFD) != -1 else { return nil }
        return number
    }

    /// Writes a whole file that another library produces by path (a video from the muxer):
    /// `produce` writes the temporary file it is given, beside `path`, which is then renamed over
    /// `path`. Only a regular file (or a new name) can be replaced: a device, FIFO or socket is
    /// refused, since a video cannot be streamed into one through a rename.
    static func writeFile(to path: String, producing produce: (String) throws -> Void) throws {
        guard ownDescriptor(path) == nil else {
            throw CaptionsError("output.unwritable", "cannot write \(path): a video is written to a file by name, not to a descriptor")
        }
        var info = stat()
        var existing: stat?
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CaptionsError("output.unwritable", "cannot write \(path): not a regular file (devices, FIFOs and sockets are refused)")
            }
            try refuseUnwritable(path)
            existing = info
        }
        let target = try followLinks(path)
        let (temporary, registration) = temporaryFile(beside: target)
        defer { if let registration { TemporaryFileCleanup.unregister(registration) } }
        do {
            try produce(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        if let existing { _ = chmod(temporary, existing.st_mode & 0o7777) }
        if rename(temporary, target) != 0 {
            let failure = errno
            unlink(temporary)
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// Opens `path` write-only, without creating it, and writes to it in place.
    private static func writeDirectly(
        to path: String, truncating: Bool, producing produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(CaptionsError) {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncating ? O_TRUNC : 0))
        guard descriptor >= 0 else {
            throw CaptionsError("output.unwritable", "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Int32?
        produce { piece in
            if failure == nil, !FileDescriptorIO.writeAll(piece, to: descriptor) { failure = errno }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure {
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// Writes a temporary file beside `target` and renames it over `target`.
    private static func replace(
        _ target: String, shownAs path: String, existing: stat?,
        producing produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(CaptionsError) {
        let (temporary, registration) = temporaryFile(beside: target)
        defer { if let registration { TemporaryFileCleanup.unregister(registration) } }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existing == nil ? 0o666 : 0o600)
        guard descriptor >= 0 else {
            throw CaptionsError("output.unwritable", "cannot create a file next to \(path): \(String(cString: strerror(errno)))")
        }
        if let existing {
            // Owner first: chown clears the set-user-ID and set-group-ID bits.
            if geteuid() == 0 { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
        }
        var failure: Int32?
        produce { piece in
            if failure == nil, !FileDescriptorIO.writeAll(piece, to: descriptor) { failure = errno }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// `path` with its last component's symbolic links followed (up to 40), as `open` would; the
    /// folders on the way are left to the kernel. Refuses a link that Linux's `protected_symlinks`
    /// would refuse to follow: in a sticky, world-writable folder, owned by neither this user nor
    /// the folder's owner (following it ourselves would bypass that protection).
    private static func followLinks(_ path: String) throws(CaptionsError) -> String {
        var current = path
        for _ in 0..<40 {
            var link = stat()
            guard lstat(current, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return current }
            let (folder, _) = split(current)
            var parent = stat()
            if stat(folder.isEmpty ? "." : folder, &parent) == 0, parent.st_mode & S_ISVTX != 0,
                parent.st_mode & S_IWOTH != 0, link.st_uid != geteuid(), link.st_uid != parent.st_uid
            {
                throw CaptionsError(
                    "output.unwritable",
                    "cannot write \(path): \(current) is someone else's symbolic link in a shared folder; not following it")
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            let count = readlink(current, &buffer, buffer.count)
            guard count > 0 else { return current }
            let destination = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : folder + destination
        }
        throw CaptionsError("output.unwritable", "cannot write \(path): \(String(cString: strerror(ELOOP)))")
    }

    /// The temporary file to write beside `target` (`.NAME.captions-PID.tmp`, after removing
    /// stale ones), registered for removal if a signal ends the process.
    private static func temporaryFile(beside target: String) -> (path: String, registration: Int?) {
        let (folder, name) = split(target)
        let prefix = temporaryPrefix(for: name)
        removeStaleTemporaryFiles(in: folder, prefix: prefix)
        let temporary = folder + prefix + "\(getpid()).tmp"
        return (temporary, TemporaryFileCleanup.register(temporary))
    }

    /// The folder (empty, or ending in `/`) and the name of `path`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// `.NAME.captions-`, with NAME shortened so that the whole temporary name fits in 255 bytes.
    static func temporaryPrefix(for name: String) -> String {
        var kept = String.UnicodeScalarView()
        var length = 0
        for scalar in name.unicodeScalars {
            length += UTF8.width(scalar)
            if length > 220 { break }
            kept.append(scalar)
        }
        return "." + String(kept) + ".captions-"
    }

    /// Removes `PREFIX<pid>.tmp` files in `folder` whose process no longer runs (or that this
    /// process left and is not writing now, if its id was reused); nothing else is touched.
    private static func removeStaleTemporaryFiles(in folder: String, prefix: String) {
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
        let prefixBytes = Array(prefix.utf8)
        let suffix = Array(".tmp".utf8)
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.count > prefixBytes.count + suffix.count, name.starts(with: prefixBytes),
                name.suffix(suffix.count).elementsEqual(suffix)
            else { continue }
            let digits = name[prefixBytes.count..<(name.count - suffix.count)]
            guard digits.count <= 10, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
            let number = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            guard number > 0, number <= Int64(Int32.max) else { continue }
            let pid = pid_t(number)
            let path = folder + String(decoding: name, as: UTF8.self)
            let gone = pid == getpid() ? !TemporaryFileCleanup.isRegistered(path) : kill(pid, 0) != 0 && errno == ESRCH
            if gone { stale.append(path) }
        }
        closedir(directory)
        for path in stale { unlink(path) }
    }
}

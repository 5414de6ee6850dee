import ArgumentParser
import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input of a batch: where it is, and the relative path its output keeps.
struct BatchItem: Equatable, Sendable {
    /// The path to read.
    var path: String
    /// The path below the output folder, before its extension is replaced: the path below the
    /// deepest folder holding every input (``InputLayout``).
    var relative: String
}

/// Which files a folder contributes to a command.
enum BatchInputKind {
    /// Files whose extension names a caption format.
    case captions
    /// Video files.
    case video
    /// Audio and video files.
    case media

    private static let videoExtensions: Set = [
        "mp4", "m4v", "mov", "mkv", "webm", "ts", "m2ts", "mts", "mxf", "avi", "mpg", "mpeg", "vob", "flv", "wmv", "nut", "gif",
        "apng", "y4m", "ogv", "3gp",
    ]
    private static let audioExtensions: Set = ["mp3", "m4a", "aac", "wav", "flac", "ogg", "oga", "opus", "wma", "aiff", "aif", "caf", "mka"]
    private static let captionExtensions: Set = [
        "vtt", "webvtt", "srt", "ttml", "dfxp", "xml", "itt", "scc", "stl", "ass", "ssa", "sbv", "sub", "smi", "sami", "json",
    ]

    /// Whether a file found in a folder is taken.
    func accepts(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        let suffix = name[name.index(after: dot)...].lowercased()
        switch self {
        case .captions: return Self.captionExtensions.contains(suffix)
        case .video: return Self.videoExtensions.contains(suffix)
        case .media: return Self.videoExtensions.contains(suffix) || Self.audioExtensions.contains(suffix)
        }
    }

    /// The kinds of file a folder is searched for, for help and messages.
    var description: String {
        switch self {
        case .captions: "caption files"
        case .video: "videos"
        case .media: "audio and video files"
        }
    }
}

enum BatchInputs {
    /// The inputs named on the command line and in the manifest, folders expanded (sorted, hidden
    /// files skipped), a file named twice taken once; throws a usage error for a missing manifest.
    /// All of them, whatever the shard: outputs are named over the whole list (``inShard(_:options:)``
    /// then takes the shard's slice), so that shards name them as one process does.
    ///
    /// A file in a folder whose name is not UTF-8 (a Latin-1 `café.srt`) cannot be named again
    /// from a Swift string: it is reported as an error and counted in `unnamed`.
    ///
    /// The output folder is never searched, when it lies inside an input folder: a second run
    /// would take the first one's outputs for inputs.
    static func expand(
        _ inputs: [String], options: BatchOptions, kind: BatchInputKind, io: CommandIO, outputFolder: String? = nil,
        unnamed: inout [String]
    ) throws -> [BatchItem] {
        let skipped = outputFolder.flatMap(FileIdentity.init)
        var named = inputs
        if let manifest = options.manifest {
            let bytes: [UInt8]
            do { bytes = try FileAccess.read(manifest, io: io) } catch {
                throw ValidationError("--manifest \(manifest): \(error.message)")
            }
            // A byte order mark (Windows Notepad writes one) is not part of the first path.
            let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            for line in String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline) {
                let path = line.trimmingCharacters(in: " \t\r")
                if !path.isEmpty, !path.hasPrefix("#") { named.append(path) }
            }
        }
        var items: [BatchItem] = []
        let layout = InputLayout(inputs: named.filter { $0 != "-" })
        for path in named {
            if path == "-" { throw ValidationError("standard input ('-') cannot be one of several inputs") }
            if FileAccess.isDirectory(path) {
                let (found, undecodable, links) = walk(path, recursive: options.recursive, kind: kind, skipping: skipped)
                for link in links {
                    io.writeStandardError(
                        link.dangling
                            ? "\(join(path, link.name)): warning: a link to nothing, skipped [input.link.dangling]\n"
                            : "\(join(path, link.name)): warning: a link to a folder, not followed (links can loop); name the folder to work on it [input.link.skipped]\n")
                }
                // Each said by the shard it falls in.
                for name in undecodable where try inShard(BatchItem(path: join(path, name), relative: layout.relative(name, inFolder: path)), options: options) {
                    unnamed.append(join(path, name))
                    io.writeStandardError(
                        name.hasSuffix("/")
                            ? "\(join(path, name)): error: the folder name is not UTF-8, so what it holds cannot be opened by name; rename it [input.name.encoding]\n"
                            : "\(join(path, name)): error: the file name is not UTF-8, so it cannot be opened by name; rename it [input.name.encoding]\n")
                }
                items += found.map { BatchItem(path: join(path, $0), relative: layout.relative($0, inFolder: path)) }
            } else {
                items.append(BatchItem(path: path, relative: layout.relative(path)))
            }
        }
        // The same file twice (a manifest line repeated, `a.srt` and `./a.srt`): once.
        var seen = Set<FileIdentity>()
        return items.filter { item in
            guard let identity = FileIdentity(item.path) else { return true }
            if seen.insert(identity).inserted { return true }
            io.writeStandardError("\(item.path): warning: named more than once; it is worked on once [input.duplicate]\n")
            return false
        }
    }

    /// Whether `item` falls in the slice `--shard` names (every item without it).
    static func inShard(_ item: BatchItem, options: BatchOptions) throws -> Bool {
        guard let (index, count) = try options.parsedShard() else { return true }
        return Int(stableHash(item.relative) % UInt64(count)) == index
    }

    /// A file's device and inode.
    private struct FileIdentity: Hashable {
        var device, inode: UInt64

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
        }
    }

    /// The shard an input falls in does not depend on the machine, the order of the inputs or
    /// the folder they are mounted at: a 64-bit FNV-1a hash of the relative path.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Whether the folder at `path` (bytes: a name that is not UTF-8 cannot be a Swift string)
    /// holds a file of `kind`, at any depth, symbolic links not followed; nil when it is not a
    /// folder.
    private static func folderHoldsInputs(_ path: [UInt8], kind: BatchInputKind, depth: Int = 0) -> Bool? {
        guard depth < 32, let handle = (path + [0]).withUnsafeBytes({ opendir($0.bindMemory(to: CChar.self).baseAddress!) }) else {
            return nil
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes.first == UInt8(ascii: ".") { continue }
            let type = entry.pointee.d_type
            if type == UInt8(DT_LNK) { continue }
            if type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN),
                let holds = folderHoldsInputs(path + [0x2F] + bytes, kind: kind, depth: depth + 1)
            {
                if holds { return true }
                continue
            }
            if kind.accepts(String(decoding: bytes, as: UTF8.self)) { return true }
        }
        return false
    }

    /// The accepted files below `folder`, as paths relative to it, sorted byte-wise; and those
    /// whose names are not UTF-8 (shown with U+FFFD).
    private static func walk(
        _ folder: String, recursive: Bool, kind: BatchInputKind, skipping skipped: FileIdentity?
    ) -> (found: [String], undecodable: [String], links: [(name: String, dangling: Bool)]) {
        var found: [String] = []
        var undecodable: [String] = []
        var links: [(name: String, dangling: Bool)] = []
        var pending = [""]
        while let prefix = pending.popLast() {
            let directory = prefix.isEmpty ? folder : join(folder, prefix)
            guard let handle = opendir(directory) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let (name, valid, bytes) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    let bytes = Array(raw.prefix { $0 != 0 })
                    let name = String(decoding: bytes, as: UTF8.self)
                    return (name, name.utf8.elementsEqual(bytes), bytes)
                }
                if name.hasPrefix(".") { continue }
                let relative = prefix.isEmpty ? name : prefix + "/" + name
                var info = stat()
                let full = join(folder, relative)
                // Folders are entered only when they are real folders (no symbolic-link loops).
                if lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    if recursive, skipped != FileIdentity(full) { pending.append(relative) }
                } else if valid, info.st_mode & S_IFMT == S_IFLNK, case let dangling = stat(full, &info) != 0,
                    dangling || info.st_mode & S_IFMT == S_IFDIR
                {
                    // Said, not skipped without a word: a link to a folder (not entered: links can
                    // loop), or to nothing.
                    if dangling ? kind.accepts(name) : recursive { links.append((relative, dangling)) }
                } else if !valid, let holds = folderHoldsInputs(Array(directory.utf8) + [0x2F] + bytes, kind: kind) {
                    // A folder whose name cannot be spelled back: what it holds is reported, not
                    // skipped without a word (when it holds anything to work on).
                    if recursive, holds { undecodable.append(relative + "/") }
                } else if !valid, kind.accepts(name) {
                    undecodable.append(relative)
                } else if stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG, kind.accepts(name) {
                    found.append(relative)
                }
            }
        }
        return (
            found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, undecodable.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            links.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        )
    }
}

extension Substring {
    /// The text without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        return String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

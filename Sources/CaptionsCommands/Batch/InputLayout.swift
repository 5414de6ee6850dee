#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for where a batch's outputs go below `-o FOLDER`, for every command: each
/// output keeps its input's path relative to the deepest folder that holds all the inputs. A
/// folder given as input (on the command line or as a manifest line) counts as that folder, a file
/// as the folder it is in; those folders are first made absolute, `..` and symbolic links resolved
/// (`realpath`), so that two spellings of one folder are one. A file's own name is kept as given
/// (a link is not named after its target).
///
/// So one folder's files keep their paths below it, one file is its base name, `tree/a tree/b`
/// are `a/…` and `b/…`, a manifest of absolute paths (`find /media -name '*.srt'`) keeps the
/// paths below the folder they share, and `../x/ep.srt ../y/ep.srt` are `x/ep.srt` and `y/ep.srt`.
struct InputLayout {
    /// The path components of the folder the outputs' paths are relative to.
    let root: [Substring]

    /// The layout of `inputs` as named (files and folders, relative to the current folder).
    init(inputs: [String], isFolder: (String) -> Bool = FileAccess.isDirectory) {
        let anchors = inputs.map { Self.resolved(isFolder($0) ? $0 : Self.folder(of: $0)) }
        var root = anchors.first ?? []
        for anchor in anchors.dropFirst() {
            root = Array(zip(root, anchor).prefix { $0 == $1 }.map(\.0))
        }
        self.root = root
    }

    /// The path below ``root`` of a file found at `name` (a path below it) in the folder `folder`
    /// names.
    func relative(_ name: String, inFolder folder: String) -> String {
        let absolute = Self.resolved(folder) + name.split(separator: "/")
        guard absolute.starts(with: root), absolute.count > root.count else { return String(absolute.last ?? Substring(name)) }
        return absolute.dropFirst(root.count).joined(separator: "/")
    }

    /// The path below ``root`` of the file `path` names.
    func relative(_ path: String) -> String {
        relative(String(path.split(separator: "/").last ?? Substring(path)), inFolder: Self.folder(of: path))
    }

    /// The folder a file's path names it in, as written (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The absolute path of `folder` as components, links and `..` resolved; when it cannot be
    /// resolved (it does not exist), made absolute from the current folder with `.` dropped and
    /// each `..` taking off the component before it.
    static func resolved(_ folder: String) -> [Substring] {
        if let real = realpath(folder, nil) {
            defer { free(real) }
            return String(cString: real).split(separator: "/")
        }
        var parts = folder.hasPrefix("/") || folder == "." ? [] : resolved(".")
        for part in folder.split(separator: "/") where part != "." {
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return parts
    }
}

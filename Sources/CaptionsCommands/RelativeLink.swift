#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a page written to one path links to a file at another: the path from the page's folder
/// to the file, as a web server or a browser opening the page from disk walks it (by the names
/// given, `..` taken away lexically, links not followed).
enum RelativeLink {
    /// The path of `target` from the folder `page` is written into; `target` as given when the
    /// page goes to standard output.
    static func to(_ target: String, fromPageAt page: String) -> String {
        guard page != "-" else { return target }
        let targetParts = components(ofAbsolute: target)
        let folderParts = components(ofAbsolute: page).dropLast()
        var shared = 0
        while shared < folderParts.count, shared < targetParts.count - 1,
              folderParts[folderParts.startIndex + shared] == targetParts[shared] {
            shared += 1
        }
        let up = Array(repeating: "..", count: folderParts.count - shared)
        return (up + targetParts[shared...]).joined(separator: "/")
    }

    /// The components of `path` made absolute against the current folder, `.` and `..` resolved.
    static func components(ofAbsolute path: String) -> [String] {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil { full = String(cString: buffer) + "/" + path }
        }
        var parts: [String] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return parts
    }
}

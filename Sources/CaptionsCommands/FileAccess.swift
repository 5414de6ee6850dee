import CaptionsCore
import Foundation

/// Reading inputs and writing outputs safely: outputs go to a temporary file in the target's
/// folder and are renamed over it, so a failure never leaves half a file, and an output path that
/// is the input is refused.
enum FileAccess {
    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String, io: CommandIO) throws(CaptionsError) -> [UInt8] {
        if path == "-" {
            do { return try io.readStandardInput() } catch {
                throw CaptionsError("input.unreadable", "cannot read standard input: \(error.localizedDescription)")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CaptionsError("input.missing", "no such file")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw CaptionsError("input.unreadable", isDirectory.boolValue ? "is a folder, not a file" : "cannot read the file")
        }
        return [UInt8](data)
    }

    /// Whether two paths name the same file (after resolving links), for the never-overwrite-input rule.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        guard first != "-", second != "-" else { return false }
        let resolve = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
        if resolve(first) == resolve(second) { return true }
        guard let a = try? FileManager.default.attributesOfItem(atPath: first),
            let b = try? FileManager.default.attributesOfItem(atPath: second)
        else { return false }
        return a[.systemFileNumber] as? Int == b[.systemFileNumber] as? Int
            && a[.systemNumber] as? Int == b[.systemNumber] as? Int
    }

    /// Writes `bytes` to `path` through a temporary file and a rename, or to standard output for `-`.
    static func write(_ bytes: [UInt8], to path: String, io: CommandIO) throws(CaptionsError) {
        if path == "-" {
            io.writeStandardOutput(bytes)
            return
        }
        let target = URL(fileURLWithPath: path)
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CaptionsError("output.unwritable", "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

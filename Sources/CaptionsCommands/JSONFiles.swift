import CaptionsCore
import FoundationEssentials

/// Small JSON side files the commands take (`--speakers`, `--chapters`).
enum JSONFiles {
    /// Decodes `path` as `T`; throws a usage-style error that names the file and the problem.
    static func decode<T: Decodable>(_ type: T.Type, from path: String, io: CommandIO) throws(CaptionsError) -> T {
        let bytes = try FileAccess.read(path, io: io)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw CaptionsError("input.json.invalid", "\(path) is not the JSON expected here: \(error)")
        }
    }
}

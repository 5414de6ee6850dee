import CaptionsCore
import CaptionsFormats
import FoundationEssentials

/// Small JSON side files the commands take (`--speakers`, `--chapters`).
enum JSONFiles {
    /// Decodes `path` as `T`; throws an error that names the file, the place in it and what was
    /// expected (`example` shows the shape).
    static func decode<T: Decodable>(_ type: T.Type, from path: String, io: CommandIO, example: String) throws(CaptionsError) -> T {
        let bytes = try FileAccess.read(path, io: io)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw CaptionsError("input.json.invalid", "\(path): \(JSONProblem.describe(error)); expected JSON such as \(example)")
        }
    }

    /// A `--speakers` map: `{"SPEAKER_1": "Ann"}`.
    static func speakerNames(from path: String, io: CommandIO) throws(CaptionsError) -> [String: String] {
        try decode([String: String].self, from: path, io: io, example: #"{"SPEAKER_1": "Ann", "SPEAKER_2": "Ben"} (names as strings)"#)
    }
}

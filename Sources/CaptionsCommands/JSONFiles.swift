import ArgumentParser
import CaptionsCore
import CaptionsFormats
import FoundationEssentials

/// Small JSON side files the commands take (`--speakers`, `--chapters`).
enum JSONFiles {
    /// Decodes `path` as `T`. When it cannot, prints the error against the side file itself
    /// (`speakers.json: error: not JSON: … [input.json.invalid]`, never against the input the
    /// command reads) and throws `ExitCode` 1; `example` shows the expected shape.
    static func decode<T: Decodable>(_ type: T.Type, from path: String, io: CommandIO, example: String) throws -> T {
        do throws(CaptionsError) {
            let bytes = try FileAccess.read(path, io: io)
            do {
                return try JSONDecoder().decode(T.self, from: Data(bytes))
            } catch {
                throw CaptionsError("input.json.invalid", "\(JSONProblem.describe(error)); expected JSON such as \(example)")
            }
        } catch {
            DiagnosticPrinter(path: path == "-" ? "<stdin>" : path, showNotes: false).print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
    }

    /// A `--speakers` map: `{"SPEAKER_1": "Ann"}`.
    static func speakerNames(from path: String, io: CommandIO) throws -> [String: String] {
        try decode([String: String].self, from: path, io: io, example: #"{"SPEAKER_1": "Ann", "SPEAKER_2": "Ben"} (names as strings)"#)
    }
}

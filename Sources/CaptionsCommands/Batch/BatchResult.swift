import CaptionsCore
import FoundationEssentials

/// The result of one input of a batch: one JSON line on standard output with `--results jsonl`,
/// and the file under `-o FOLDER/.captions-results/` that `--resume` and shard merges read.
struct BatchResult {
    var path: String
    var exit: Int32
    var facts: [(String, ResultValue)] = []
    var errors = 0
    var warnings = 0
    var output: String?
    var seconds: Double
    var sha256: String?
    /// The SHA-256 of the run's settings (``BatchRunner/settings(of:)``).
    var settings: String?
    /// The line kept from an earlier run, for an input skipped by `--resume`.
    var storedLine: String?
    /// That line's status (a resumed result has no facts to tell `fail` from `error` by).
    var storedStatus: String?

    /// `ok` (exit 0); `fail` when the file was read and did not pass (2: a flash hazard, even in
    /// part of a video; 1 from `check`, which then counted its findings); `partial` (1) for a
    /// flash scan that found no hazard in the part of the video it could read (`"partial": true`,
    /// `verdict` `pass`: not a pass of the whole video); `usage` (64); else `error`.
    var status: String {
        storedStatus ?? Self.status(exit: exit, facts: facts)
    }

    /// The status of a run that exited with `exit` and recorded `facts`.
    static func status(exit: Int32, facts: [(String, ResultValue)]) -> String {
        func fact(_ name: String) -> ResultValue? { facts.last { $0.0 == name }?.1 }
        switch exit {
        case 0: return "ok"
        case 2: return "fail"
        case 1 where fact("findingErrors") != nil: return "fail"
        case 1 where fact("partial") == .bool(true) && fact("verdict") == .string("pass"): return "partial"
        case 64: return "usage"
        default: return "error"
        }
    }

    /// The batch's exit code when one input exited `a` and another `b`: a usage error (64) over
    /// an input that could not be done (1), over a hazard (2), over success (0). An unreadable
    /// file is never hidden behind another's hazard, which wrappers take for a result (the
    /// Kubernetes and Slurm examples exit 0 for 2, and 1 makes them try again).
    static func worse(_ a: Int32, _ b: Int32) -> Int32 {
        func rank(_ exit: Int32) -> Int {
            switch exit {
            case 0: 0
            case 2: 1
            case 1: 2
            default: 3
            }
        }
        return rank(a) >= rank(b) ? a : b
    }

    /// One line of JSON, fields in a fixed order, ending in a line feed.
    var jsonLine: String {
        var json = JSONWriter(compact: true)
        json.beginObject()
        json.key("path"); json.string(path)
        json.key("status"); json.string(status)
        json.key("exit"); json.integer(Int(exit))
        for (name, value) in facts {
            json.key(name)
            switch value {
            case .int(let number): json.integer(number)
            case .string(let text): json.string(text)
            case .bool(let value): json.bool(value)
            case .ranges(let ranges):
                json.beginArray()
                for range in ranges {
                    json.beginArray()
                    json.number((range.lowerBound * 1000).rounded() / 1000)
                    json.number((range.upperBound * 1000).rounded() / 1000)
                    json.endArray()
                }
                json.endArray()
            }
        }
        json.key("errors"); json.integer(errors)
        json.key("warnings"); json.integer(warnings)
        json.key("output"); json.string(output)
        json.key("seconds"); json.number((seconds * 1000).rounded() / 1000)
        if let sha256 { json.key("sha256"); json.string(sha256) }
        if let settings { json.key("settings"); json.string(settings) }
        json.endObject()
        return json.output + "\n"
    }

    /// What a result line written earlier says (for `--resume`): the input's and the settings'
    /// SHA-256, the status, the exit code and the output.
    struct Stored: Decodable {
        var sha256: String?
        var settings: String?
        var status: String?
        var exit: Int32
        var output: String?
    }

    /// The result line written earlier in `bytes`; nil when it is not one of our lines.
    static func stored(in bytes: [UInt8]) -> Stored? {
        try? JSONDecoder().decode(Stored.self, from: Data(bytes))
    }
}

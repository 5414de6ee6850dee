import CaptionsCore
import FoundationEssentials

/// The profiles that ship with the tool, embedded in the binary from `Profiles/*.json` (so that a
/// copied `captions` executable still has them), and loading of a profile from a file.
public enum ProfileCatalog {
    /// The shipped profiles' names with their JSON text, in the order help lists them.
    private static let shipped: [(name: String, bytes: [UInt8])] = [
        ("netflix", PackageResources.netflix_json),
        ("bbc", PackageResources.bbc_json),
        ("apple-itt", PackageResources.apple_itt_json),
        ("cea608", PackageResources.cea608_json),
        ("dcmp", PackageResources.dcmp_json),
    ]

    /// Other names a shipped profile answers to.
    private static let aliases = ["fcc": "dcmp", "itt": "apple-itt", "608": "cea608"]

    /// The names `--profile` accepts, comma-separated, for help and errors.
    public static var names: String { (shipped.map(\.name) + aliases.keys.sorted()).joined(separator: ", ") }

    /// The JSON text of a shipped profile (for `--print-profile`), `nil` for an unknown name.
    public static func text(named name: String) -> String? {
        let key = aliases[name.lowercased()] ?? name.lowercased()
        return shipped.first { $0.name == key }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A shipped profile by name.
    public static func profile(named name: String) throws(CaptionsError) -> QualityProfile {
        guard let text = text(named: name) else {
            throw CaptionsError("check.profile.unknown", "no profile named '\(name)'; the profiles are \(names), or a JSON file")
        }
        return try decode(Array(text.utf8), source: name)
    }

    /// Decodes a profile from JSON; `source` names it in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(CaptionsError) -> QualityProfile {
        do {
            return try JSONDecoder().decode(QualityProfile.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw CaptionsError("check.profile.invalid", "\(source) is not a valid profile: \(Self.describe(error))")
        } catch {
            throw CaptionsError("check.profile.invalid", "\(source) is not a valid profile: not JSON")
        }
    }

    /// A decoding error as a person reads it: where, and what was wrong.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) should be \(Self.name(of: type))"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)) should be \(Self.name(of: type)), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "not the JSON expected"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object or list"
        }
    }
}

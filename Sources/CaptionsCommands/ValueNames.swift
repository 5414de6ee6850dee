import ArgumentParser
import CaptionsFormats
import CaptionsQuality
import CaptionsSpeech

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names options take as values, each list defined once for the option's help, its errors and
/// the values shell completion offers (bash, zsh and fish offered none for `--to`, `--from`,
/// `--model` or `--profile`).
enum ValueNames {
    /// `--from` where captions or media are read: every format read, and `media`.
    static let inputFormats = CaptionFormat.acceptedNames + ", media"
    /// The transcripts `transcribe` and `align` write besides captions.
    static let transcriptFormats = "txt, md, html"
    /// `--to` of `transcribe` and `align`: a caption format written, or a transcript.
    static let speechOutputs = CaptionFormat.writableNames + ", " + transcriptFormats

    /// Completion offering the words of `names`, a list as help prints it ("a, b, c").
    static func completion(_ names: String) -> CompletionKind {
        .list(names.components(separatedBy: ", "))
    }

    /// `--model`: the models the installer provides.
    static let models = CompletionKind.list(SpeechInstallation.models)

    /// `--profile`: the shipped profiles' names (``ProfileCatalog/names``), and JSON files and
    /// folders for a profile of one's own.
    static let profiles = CompletionKind.custom { _, _, prefix in
        ProfileCatalog.names.components(separatedBy: ", ").filter { $0.hasPrefix(prefix) } + jsonFiles(startingWith: prefix)
    }

    /// The `.json` files and the folders whose paths start with `prefix`, sorted.
    private static func jsonFiles(startingWith prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        guard let handle = opendir(folder.isEmpty ? "." : folder) else { return [] }
        defer { closedir(handle) }
        var found: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(start), name != ".", name != "..", !name.hasPrefix(".") || start.hasPrefix(".") else { continue }
            if FileAccess.isDirectory(folder + name) {
                found.append(folder + name + "/")
            } else if name.lowercased().hasSuffix(".json") {
                found.append(folder + name)
            }
        }
        return found.sorted()
    }
}

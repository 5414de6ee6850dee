import ArgumentParser
import CaptionsFormats

/// The rule every command follows for an output's name: its extension names the format written.
/// An extension that names no format the command writes (`-o notes.srt` for a text report,
/// `-o d.json` for WebVTT, `-o a.xyz` for anything) is refused before any work, the same way by
/// every command, listing the extensions it does write; `--to` (`--format`) given explicitly
/// writes that format whatever the name. A name without an extension takes the command's default
/// format (`convert`, which has none, asks for `--to`).
enum OutputName {
    /// Extensions of files that are not captions but that a user might give by mistake.
    private static let otherKinds: [String: String] = [
        "txt": "text", "text": "text", "md": "Markdown", "markdown": "Markdown", "html": "HTML", "htm": "HTML",
        "json": "JSON", "csv": "CSV", "pdf": "PDF", "docx": "a Word document",
        "mp4": "video", "mkv": "video", "mov": "video", "webm": "video", "ts": "video", "avi": "video",
        "wav": "audio", "mp3": "audio", "m4a": "audio", "flac": "audio", "ogg": "audio",
    ]

    /// The extension of `output`'s file name, lower-case; nil for standard output and a name
    /// without one.
    static func fileExtension(of output: String) -> String? {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        guard output != "-", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The extensions of the caption formats that can be written and are told by their extension
    /// (`fix`, `convert`): each writable format's usual one (not `.sub`, which MicroDVD shares
    /// with other formats: `--to microdvd` writes it).
    static var captionExtensions: [String] {
        var seen = Set<String>()
        return CaptionFormat.allCases.filter { $0.writer() != nil }.map(\.fileExtension).filter {
            CaptionFormat(fileExtensionOf: "captions." + $0) != nil && seen.insert($0).inserted
        }
    }

    /// Throws the usage error (exit 64) every command gives when `output`'s extension is not one
    /// it `takes` (the parser of its output formats' extensions): `command` and the `extensions`
    /// it writes are named. A name without an extension, and standard output, pass.
    static func refuseUnknownExtension(_ output: String, command: String, extensions: [String], takes: (String) -> Bool) throws {
        guard let ext = fileExtension(of: output), !takes(ext) else { return }
        let kind = otherKinds[ext] ?? CaptionFormat(fileExtensionOf: "name." + ext).map { "\($0.displayName) captions" }
        let what = kind.map { ".\(ext) names \($0), not a format \(command) writes" } ?? ".\(ext) is not a format \(command) writes"
        let listed = extensions.map { "." + $0 }.joined(separator: ", ")
        throw ValidationError("-o \(output): \(what); name the output with one of \(listed), or give --to")
    }
}

import ArgumentParser
import CaptionsFormats

/// The rule every command follows for an output's name: its extension names the format written.
/// An extension that names another kind of file (`-o notes.srt` for a text report, `-o d.json`
/// for WebVTT) is refused before any work, with the extensions the command does write; one that
/// names nothing known (`.log`, none) takes the command's default format.
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

    /// Throws a usage error when `output`'s extension is not one `command` `takes` (the parser of
    /// its output formats' extensions) and names another kind of file; `writes` says what it does
    /// write.
    static func refuseOtherKind(_ output: String, command: String, writes: String, takes: (String) -> Bool) throws {
        guard let ext = fileExtension(of: output), !takes(ext) else { return }
        guard let kind = otherKinds[ext] ?? CaptionFormat(fileExtensionOf: "name." + ext).map({ "\($0.displayName) captions" }) else { return }
        throw ValidationError("-o \(output): .\(ext) names \(kind), but \(command) writes \(writes); name the output so, or give --to")
    }
}

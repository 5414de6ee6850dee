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

    /// Throws a usage error when `output`'s extension names a kind of file other than those
    /// `writes` (lower-case extensions) for `command`.
    static func refuseOtherKind(_ output: String, writes: [String], command: String) throws {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        guard output != "-", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let ext = name[name.index(after: dot)...].lowercased()
        guard !writes.contains(ext) else { return }
        guard let kind = otherKinds[ext] ?? CaptionFormat(fileExtensionOf: name).map({ "\($0.displayName) captions" }) else { return }
        let written = writes.isEmpty ? "captions (.vtt, .srt, .ttml, .scc, .stl, .ass…)" : writes.map { "." + $0 }.joined(separator: ", ")
        throw ValidationError("-o \(output): .\(ext) names \(kind), but \(command) writes \(written); name the output so, or give --to")
    }
}

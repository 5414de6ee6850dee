import CaptionsCore

/// Reads YouTube's `.sbv` and the SubViewer `.sub` it comes from: cues of a
/// `H:MM:SS.mmm,H:MM:SS.mmm` line and text lines, separated by blank lines. SubViewer's `[INFORMATION]`
/// header lines are skipped and its `[br]` is a line break. A timing line that does not parse is
/// reported with its place and its cue skipped; a file without any cue is an error.
public struct SBVReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Parses an SBV file; throws `sbv.cues.none` when nothing in it is a cue (an empty file is
    /// read as no cues, with a warning).
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "sbv")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "sbv")
        let lines = text.lines
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmedSpaces
            // Blank lines, and SubViewer's header lines before the first cue.
            guard !line.isEmpty, !(document.cues.isEmpty && line.hasPrefix("[")) else {
                index += 1
                continue
            }
            let timingLine = index
            index += 1
            var body: [Substring] = []
            while index < lines.count, !lines[index].trimmedSpaces.isEmpty {
                body.append(lines[index])
                index += 1
            }
            guard let (start, end) = Self.timing(line) else {
                document.diagnostics.append(Diagnostic(
                    .warning, "sbv.timing.malformed", "'\(line)' is not a timing line (H:MM:SS.mmm,H:MM:SS.mmm); cue skipped",
                    at: TextLines.location(timingLine)))
                continue
            }
            let joined = body.joined(separator: "\n").replacing("[br]", with: "\n").replacing("[BR]", with: "\n")
            let content: [InlineNode] = body.isEmpty ? [] : [.text(joined)]
            if end < start { document.diagnostics.append(TextLines.endBeforeStart(codePrefix: "sbv", at: TextLines.location(timingLine))) }
            document.cues.append(Cue(start: start, end: max(start, end), content: content, location: TextLines.location(timingLine)))
        }
        if document.cues.isEmpty, lines.allSatisfy({ $0.trimmedSpaces.isEmpty }) {
            // Nothing at all (how an empty document is written): no cues, as SRT reads it.
            document.diagnostics.append(Diagnostic(.warning, "sbv.empty", "the file holds no cues", at: .start))
            return document
        }
        guard !document.cues.isEmpty else {
            throw CaptionsError("sbv.cues.none", "no cue found: an SBV cue starts with a line such as 0:00:01.000,0:00:03.500", at: .start)
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// The two times of `H:MM:SS.mmm,H:MM:SS.mmm`.
    static func timing(_ line: Substring) -> (MediaTime, MediaTime)? {
        let parts = line.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = time(parts[0].trimmedSpaces), let end = time(parts[1].trimmedSpaces) else { return nil }
        return (start, end)
    }

    /// `H:MM:SS.mmm` (hours of any width, one to three fraction digits).
    static func time(_ text: Substring) -> MediaTime? { TextLines.clockTime(text, strictWidths: true) }
}

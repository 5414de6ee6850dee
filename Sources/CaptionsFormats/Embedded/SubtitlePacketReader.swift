import CaptionsCore

/// Turns the text subtitle packets of a media file into a document, reading each packet's text
/// with the parser of its markup: SRT tags and `{\anN}`, WebVTT cue text and settings, or an ASS
/// event (its `Name` field becomes the speaker, `\N` a line break, `{\anN}` a position; other
/// override tags are dropped and reported).
public enum SubtitlePacketReader {
    /// The document for `packets`, in time order; `format` names the source, such as `"matroska"`.
    ///
    /// `diagnostics` are what the media reader found about the file itself (damaged or missing
    /// data, as warnings with the time range affected); they come first in the document's
    /// diagnostics, before those about the cue text.
    public static func document(
        from packets: [SubtitlePacket], format: String, diagnostics: [Diagnostic] = []
    ) -> TimedTextDocument {
        var document = TimedTextDocument(sourceFormat: format)
        var tally = DiagnosticTally()
        // mov_text marks the gaps between cues with empty samples: those are not cues.
        let cues = packets.filter { !($0.markup == .plain && $0.text.isEmpty) }
        for (number, packet) in cues.sorted(by: { $0.start < $1.start }).enumerated() {
            var cue = Cue(id: packet.identifier ?? "", start: packet.start, end: packet.end, content: [])
            let location = SourceLocation(line: number + 1, column: 1)
            switch packet.markup {
            case .webvtt:
                cue.content = Array(packet.text.utf8).withUnsafeBufferPointer { WebVTTCueTextParser.parse($0[...]) }
                if let settings = packet.settings {
                    cue.settings = Array(settings.utf8).withUnsafeBufferPointer {
                        WebVTTSettingsParser { _, _, _ in }.parseCueSettings($0[...], regions: [])
                    }
                }
                cue.speaker = Cue.firstVoice(in: cue.content)
            case .subrip:
                (cue.content, cue.settings) = subrip(packet.text, location: location, tally: &tally)
            case .ass:
                let fields = packet.text.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
                let name = fields.count == 9 ? String(fields[3]).trimmingASCIIWhitespace() : ""
                let text = fields.count == 9 ? String(fields[8]) : packet.text
                (cue.content, cue.settings) = subrip(assToSubRip(text), location: location, tally: &tally)
                if !name.isEmpty { cue.speaker = String(name) }
            case .plain:
                cue.content = packet.text.isEmpty ? [] : [.text(packet.text)]
            }
            document.cues.append(cue)
        }
        document.diagnostics = diagnostics + tally.diagnostics
        return document
    }

    /// SRT cue text through the SRT reader's own parser.
    private static func subrip(
        _ text: String, location: SourceLocation, tally: inout DiagnosticTally
    ) -> ([InlineNode], CueSettings) {
        let normalized = text.replacing("\r\n", with: "\n").trimmingASCIIWhitespace()
        let bytes = Array(normalized.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var lines: [SRTParserLine] = []
            var start = 0
            for index in 0...buffer.count where index == buffer.count || buffer[index] == 0x0A {
                lines.append(SRTParserLine(range: start..<index, number: location.line))
                start = index + 1
            }
            var parser = SRTCueTextParser(bytes: buffer, lines: lines)
            let content = parser.parse()
            for (severity, code, message, _) in parser.leniencies { tally.add(severity, code, message, at: location) }
            return (content, parser.placement?.settings ?? CueSettings())
        }
    }

    /// ASS text as SRT text: `\N` and `\n` are line breaks, `\h` a no-break space; `{\anN}` is
    /// kept (the SRT parser reads it), `{\i1}`…`{\i0}` and `{\b1}`…`{\b0}` become `<i>`, `<b>`.
    static func assToSubRip(_ text: String) -> String {
        var result = text.replacing("\\N", with: "\n").replacing("\\n", with: "\n").replacing("\\h", with: "\u{00A0}")
        for (ass, srt) in [("{\\i1}", "<i>"), ("{\\i0}", "</i>"), ("{\\b1}", "<b>"), ("{\\b0}", "</b>"), ("{\\u1}", "<u>"), ("{\\u0}", "</u>")] {
            result = result.replacing(ass, with: srt)
        }
        return result
    }
}

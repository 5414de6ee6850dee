import CaptionsCore
import CaptionsFormats
import CaptionsQuality
import Foundation

enum QualityPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let planted = packageRoot.appendingPathComponent("Tests/CaptionsQualityTests/Planted")
    static let realworld = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realworld")
}

/// Reads a caption file by its extension (content sniffed when the extension says nothing).
func readCaptions(_ url: URL) throws -> TimedTextDocument {
    let bytes = try [UInt8](Data(contentsOf: url))
    let format = CaptionFormat(fileExtensionOf: url.path) ?? CaptionFormat.sniff(bytes)
    guard let reader = format.reader(options: CaptionFormat.ReaderOptions()) else { throw CaptionsError("test.format", "no reader") }
    return try reader.read(bytes)
}

/// Cues from `(start ms, end ms, text)`, numbered as SRT numbers them.
func document(_ cues: [(Int64, Int64, String)], language: String? = nil) -> TimedTextDocument {
    TimedTextDocument(
        language: language,
        cues: cues.enumerated().map { index, cue in
            Cue(
                id: String(index + 1), start: MediaTime(milliseconds: cue.0), end: MediaTime(milliseconds: cue.1),
                content: [.text(cue.2)], location: SourceLocation(line: index * 4 + 1, column: 1))
        })
}

/// `(cue number, code)` of every finding, in report order.
func pairs(_ report: QualityReport) -> [String] {
    report.findings.map { "\($0.cueIndex.map { String($0 + 1) } ?? "-") \($0.diagnostic.code)" }
}

/// A shipped profile, failing loudly when it does not load.
func shipped(_ name: String) throws -> QualityProfile { try ProfileCatalog.profile(named: name) }

/// The words of a document's cues, in order: what a fix must never lose.
func words(of document: TimedTextDocument) -> [Substring] {
    document.cues.sorted { $0.start < $1.start }.flatMap { cue in
        cue.plainText.split(whereSeparator: { $0.isWhitespace })
    }
}

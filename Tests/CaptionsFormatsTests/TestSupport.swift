import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// Paths the tests read: the package's fixtures and the shared conformance material beside it.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/CaptionsFormatsTests/Fixtures")
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let samples = packageRoot.appendingPathComponent("Samples")
}

/// Reads UTF-8 text as a reader sees it.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Reads `text` as WebVTT, failing the test on a thrown error.
func readWebVTT(_ text: String) throws(CaptionsError) -> TimedTextDocument {
    try WebVTTReader().read(bytes(text))
}

/// Reads `text` as SRT.
func readSRT(_ text: String) throws(CaptionsError) -> TimedTextDocument {
    try SRTReader().read(bytes(text))
}

/// Expects `reader` to read `bytes` it borrows exactly as it reads them as an owned array: the
/// same cues, comments and diagnostics, or the same error.
func expectBorrowedReadMatchesOwned(
    _ reader: some InPlaceTimedTextReader, _ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let owned = Result { () throws(CaptionsError) in try reader.read(bytes) }
    let borrowed = Result { () throws(CaptionsError) in
        try bytes.withUnsafeBufferPointer { buffer throws(CaptionsError) in try reader.read(borrowing: buffer) }
    }
    switch (owned, borrowed) {
    case (.success(let owned), .success(let borrowed)):
        #expect(owned.cues == borrowed.cues && owned.comments == borrowed.comments, sourceLocation: sourceLocation)
        #expect(owned.diagnostics == borrowed.diagnostics, sourceLocation: sourceLocation)
    case (.failure(let owned), .failure(let borrowed)):
        #expect(owned.diagnostic == borrowed.diagnostic, sourceLocation: sourceLocation)
    default:
        Issue.record("owned \(owned), borrowed \(borrowed)", sourceLocation: sourceLocation)
    }
}

/// The diagnostics as `code@line:column` strings, the way tests compare them.
func codes(_ document: TimedTextDocument) -> [String] {
    document.diagnostics.map { "\($0.code)@\($0.location.map { "\($0.line):\($0.column)" } ?? "-")" }
}

/// Compares `actual` with the golden file `name`; a missing golden, or `RECORD_GOLDENS=1`, writes
/// it and fails the test, so a recorded golden is always reviewed before it passes.
func assertGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let url = TestPaths.fixtures.appendingPathComponent(name)
    let recording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
    guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try? actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded golden \(name); review it and run again", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "golden \(name) differs", sourceLocation: sourceLocation)
}

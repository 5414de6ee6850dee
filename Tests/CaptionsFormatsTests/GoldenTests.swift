import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// Every fixture has goldens beside it: its JSON dump, and what each writer makes of it.
@Suite struct GoldenTests {
    static let fixtures = ["canonical.vtt", "lenient.srt", "plain.srt"]

    private func read(_ name: String) throws -> TimedTextDocument {
        let input = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent(name)))
        let format = try #require(CaptionFormat(fileExtensionOf: name))
        return try #require(format.reader).read(input)
    }

    private func convert(_ document: TimedTextDocument, to format: CaptionFormat) -> String {
        var reduced = document
        let writer = format.writer()!
        reduced.diagnostics += CapabilityReducer(capabilities: writer.capabilities, formatName: format.displayName)
            .reduce(&reduced)
        return String(decoding: writer.write(reduced), as: UTF8.self)
            + (format == .json ? "" : reduced.diagnostics.map { "\n# \($0.code)" }.joined())
    }

    @Test func aCanonicalWebVTTFileIsWrittenBackByteForByte() throws {
        let input = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent("canonical.vtt")))
        let document = try WebVTTReader().read(input)
        #expect(document.diagnostics.isEmpty)
        #expect(WebVTTWriter().write(document) == input)
    }

    @Test(arguments: fixtures)
    func jsonDumpMatchesGolden(name: String) throws {
        assertGolden(convert(try read(name), to: .json), named: name + ".golden")
    }

    @Test(arguments: fixtures)
    func webVTTMatchesGolden(name: String) throws {
        assertGolden(convert(try read(name), to: .webvtt), named: name + ".vtt.golden")
    }

    /// A REGION block whose settings are all invalid gives a region no cue can use: it is not
    /// written back as a bare REGION line, which readers (ours too) ignore with a warning.
    @Test func aRegionWithoutAnIdentifierIsNotWrittenBack() throws {
        let document = try WebVTTReader().read(Array("WEBVTT\n\nREGION\nfoo\n\n00:00:01.000 --> 00:00:02.000\nhi\n".utf8))
        let written = WebVTTWriter().write(document)
        #expect(!String(decoding: written, as: UTF8.self).contains("REGION"))
        #expect(try WebVTTReader().read(written).diagnostics.isEmpty)
    }

    @Test(arguments: fixtures)
    func srtMatchesGolden(name: String) throws {
        assertGolden(convert(try read(name), to: .srt), named: name + ".srt.golden")
    }
}

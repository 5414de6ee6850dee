import CaptionsCore
import CaptionsFormats
import Foundation
import PropertyBased
import Testing

/// Hostile and broken input: every reader returns a document or throws, never crashes, and what it
/// returns can always be written.
@Suite struct RobustnessTests {
    private static let readers: [any TimedTextReader] = [WebVTTReader(), SRTReader()]

    /// Reads with every reader and writes every result with every writer.
    private static func survive(_ input: [UInt8]) {
        for reader in readers {
            guard var document = try? reader.read(input) else { continue }
            for format in CaptionFormat.allCases {
                guard let writer = format.writer() else { continue }
                _ = CapabilityReducer(capabilities: writer.capabilities, formatName: format.displayName).reduce(&document)
                _ = writer.write(document)
            }
        }
    }

    @Test(arguments: [
        ("empty", [UInt8]()),
        ("binary", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 3) }),
        ("invalid UTF-8", [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x90, 0x28, 0xBC]),
        ("truncated", Array("WEBVTT\n\n00:00:01.000 --> 00:00:0".utf8)),
        ("truncated SRT", Array("1\n00:00:01,000 --> 00:00:02".utf8)),
        ("lone surrogates in UTF-16", [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00]),
    ])
    func badInputGivesAnErrorOrADocument(name: String, input: [UInt8]) {
        Self.survive(input)
    }

    @Test func emptyAndGarbageAreErrors() throws {
        #expect(try SRTReader().read([]).cues.isEmpty)  // an empty SRT file is how SRT writes no cues
        #expect(throws: CaptionsError.self) { try WebVTTReader().read([]) }
        #expect(throws: CaptionsError.self) { try SRTReader().read((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }) }
    }

    @Test func aTenMegabyteLineIsReadInLinearTime() throws {
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
        #expect(throws: CaptionsError.self) { try SRTReader().read(line) }
        let webVTT = try WebVTTReader().read(Array("WEBVTT\n\n00:00.000 --> 00:01.000\n".utf8) + line)
        #expect(webVTT.cues.first?.plainText.utf8.count == 10 << 20)
    }

    @Test func mutatedFixturesNeverCrash() async throws {
        let fixtures = try ["canonical.vtt", "lenient.srt", "plain.srt"].map {
            try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent($0)))
        }
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max / 2)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            var input = fixtures[generator.next(fixtures.count)]
            for _ in 0...generator.next(8) {
                let position = generator.next(input.count + 1)
                let interesting: [UInt8] = [0x00, 0x0A, 0x0D, 0x3C, 0x3E, 0x26, 0x2D, 0x3A, 0x2E, 0x2C, 0x7B, 0x5C, 0xFF, 0xC3]
                switch generator.next(3) {
                case 0: input.insert(interesting[generator.next(interesting.count)], at: position)
                case 1 where position < input.count: input.remove(at: position)
                default: input = Array(input[..<position])
                }
            }
            Self.survive(input)
        }
    }

    @Test func everyWebPlatformTestFileReadsWithoutCrashing() throws {
        let folder = TestPaths.shared.appendingPathComponent("conformance/webvtt/file-parsing")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasSuffix(".vtt") {
            let input = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(throws: Never.self, "\(name)") { _ = try WebVTTReader().read(input) }
            Self.survive(input)
        }
    }
}

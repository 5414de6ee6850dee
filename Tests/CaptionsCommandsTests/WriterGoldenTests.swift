import Foundation
import Testing

/// Every transcript and description writer on the samples, byte for byte against `Goldens/`.
///
/// To accept an intended change, regenerate a golden with the command in its argument list and
/// read the diff before committing it.
@Suite struct WriterGoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    private func sample(_ name: String) -> String { SampleTests.samples.appendingPathComponent(name).path }

    @Test(arguments: ["txt", "md", "html", "podcast-json"])
    func podcastTranscript(format: String) throws {
        let io = MemoryIO()
        #expect(run(["transcript", sample("podcast.vtt"), "--format", format, "--chapters", sample("podcast.chapters.json"),
                     "--speakers", sample("podcast.speakers.json")], io: io) == 0)
        let golden = try String(contentsOf: Self.goldens.appendingPathComponent("podcast.\(format)"), encoding: .utf8)
        #expect(io.outputText == golden)
    }

    @Test(arguments: [("vtt", "film.descriptions.vtt"), ("dapt", "film.dapt.ttml")])
    func filmDescriptions(format: String, golden: String) throws {
        let io = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"),
                     "--duration", "40s", "--no-speech-timing", "--format", format], io: io) == 0)
        let expected = try String(contentsOf: Self.goldens.appendingPathComponent(golden), encoding: .utf8)
        #expect(io.outputText == expected)
    }
}

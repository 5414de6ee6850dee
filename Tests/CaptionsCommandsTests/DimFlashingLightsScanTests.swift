import CaptionsCommands
import Foundation
import Testing

/// Apple's Dim Flashing Lights figures from a real scan of Apple's own test clip
/// (`../shared/dfl/`), through the CLI, against Apple's reference outputs at both display settings.
@Suite(.enabled(if: DFLMaterial.available, "needs ../shared/dfl"))
struct DimFlashingLightsScanTests {
    /// `flashes --format csv` on Apple's clip: every frame's `dfl_risk` within 0.5 and
    /// `dfl_mitigation` within 0.005 of Apple's.
    @Test(arguments: [
        ([], "TestVideo.expected-100nits-1265deg2.csv"),
        (["--display-peak", "500", "--display-area", "250"], "TestVideo.expected-500nits-250deg2.csv"),
        (["--display", "phone"], "TestVideo.expected-500nits-250deg2.csv"),
    ])
    func everyFrameMatchesApplesReference(options: [String], reference: String) throws {
        let io = MemoryIO()
        let code = run(["flashes", DFLMaterial.clip, "--format", "csv", "-q"] + options, io: io)
        #expect(code == 2)  // the clip flashes: WCAG fails it
        let ours = DFLMaterial.table(String(decoding: io.output, as: UTF8.self))
        let apple = DFLMaterial.table(try String(contentsOfFile: DFLMaterial.folder + "/" + reference, encoding: .utf8))
        try #require(ours.count == 552 && apple.count == 552)
        for (frame, (mine, theirs)) in zip(ours, apple).enumerated() {
            let risk = try #require(Double(mine["dfl_risk"] ?? "")), mitigation = try #require(Double(mine["dfl_mitigation"] ?? ""))
            let appleRisk = try #require(Double(theirs["risk"] ?? "")), appleMitigation = try #require(Double(theirs["mitigation"] ?? ""))
            #expect(abs(risk - appleRisk) <= 0.5, "frame \(frame): risk \(risk), Apple's \(appleRisk)")
            #expect(abs(mitigation - appleMitigation) <= 0.005, "frame \(frame): mitigation \(mitigation), Apple's \(appleMitigation)")
        }
        #expect(apple.contains { (Double($0["risk"] ?? "") ?? 0) > 50 })
    }

    /// The text report lists where the risk is above zero; the WebVTT track carries the
    /// mitigation in cues that follow the frames.
    @Test func theRiskIsReportedInTextAndInAMetadataTrack() throws {
        let text = MemoryIO()
        _ = run(["flashes", DFLMaterial.clip, "-q"], io: text)
        let report = String(decoding: text.output, as: UTF8.self)
        #expect(report.contains("Dim Flashing Lights (Apple's model, 100 cd/m², 1265.625 deg²): risk in 3 spans"))
        #expect(report.contains("00:00:19.333–00:00:22.667: risk up to 79.5, dimmed up to 95%"))

        let track = MemoryIO()
        _ = run(["flashes", DFLMaterial.clip, "-q", "--format", "vtt"], io: track)
        let vtt = String(decoding: track.output, as: UTF8.self)
        #expect(vtt.hasPrefix("WEBVTT\nKind: metadata"))
        // Cues of the mitigation abut frame to frame and never overlap one another.
        let cues = vtt.components(separatedBy: "\n\n").filter { $0.contains("\"type\": \"dfl\"") || $0.contains("\"type\":\"dfl\"") }
        #expect(cues.count > 20)
        let times = cues.compactMap { cue -> (String, String)? in
            guard let line = cue.split(separator: "\n").first(where: { $0.contains(" --> ") }) else { return nil }
            let parts = line.components(separatedBy: " --> ")
            return (parts[0], parts[1])
        }
        #expect(times.count == cues.count)
        for (previous, next) in zip(times, times.dropFirst()) { #expect(previous.1 <= next.0) }
    }
}

/// Where Apple's material is.
enum DFLMaterial {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/dfl").path
    static let clip = folder + "/TestVideo.mp4"
    static let available = FileManager.default.fileExists(atPath: clip)

    /// A CSV as rows keyed by the header's names.
    static func table(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }
}

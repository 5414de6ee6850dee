import CaptionsCore
import CaptionsFormats
@testable import CaptionsFuzz
import Foundation
import Testing

/// Replays the committed fuzz regression corpus (`Regressions/TARGET/*`) through the fuzz
/// harness, as `Scripts/fuzz.sh` would under libFuzzer: no input may give a finding.
@Suite struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

    /// The files of one target's folder, sorted.
    static func inputs(of target: FuzzTarget) -> [URL] {
        let folder = regressions.appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionInputsGiveNoFinding(target: FuzzTarget) throws {
        for file in Self.inputs(of: target) {
            let findings = FuzzHarness.fuzzOne(target: target, bytes: try [UInt8](Data(contentsOf: file)))
            #expect(findings.isEmpty, "\(target.rawValue)/\(file.lastPathComponent): \(findings.map(\.description))")
        }
    }

    @Test func everyTargetHasRegressionInputs() {
        for target in FuzzTarget.allCases {
            #expect(!Self.inputs(of: target).isEmpty, "no inputs in Regressions/\(target.rawValue)")
        }
    }

    @Test func theJSONCheckTellsJSONFromNotJSON() {
        for good in ["{}", "[]", " {\"a\": [1, -2.5e+3, true, null, \"x\\u00e9\\n\"]} ", "0", "\"\""] {
            #expect(JSONSyntax.problem(in: Array(good.utf8)) == nil, "\(good)")
        }
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u{1}\"", "[1] 2", "{\"a\":1,}", "nul", "\"\\x\""] {
            #expect(JSONSyntax.problem(in: Array(bad.utf8)) != nil, "\(bad)")
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONSyntax.problem(in: Array(deep.utf8)) == nil)
    }

    @Test func ignoreRulesMatchACheckPrefixAndMessageText() {
        let finding = FuzzFinding("roundtrip.ttml-imsc1", "[cues reordered] write differs")
        #expect(finding.matches(("roundtrip.ttml", nil)))
        #expect(finding.matches(("roundtrip.ttml", "reordered")))
        #expect(!finding.matches(("roundtrip.ttml", "settings")))
        #expect(!finding.matches(("roundtrip.srt", nil)))
    }
}

/// The A/53 seeds are real caption data (made from `Samples/dialogue.vtt` written as SCC), so the
/// fuzzer starts from inputs that decode to cues on channel 1 and, from field 2, on channel 3; the
/// CEA-708 seed (no 608 data) decodes to cues from service 1.
@Suite struct ClosedCaptionSeedTests {
    @Test(arguments: [("popon.a53", 1), ("rollup.a53", 1), ("popon-field2.a53", 3), ("cea708-service1.a53", 1)])
    func seedsDecodeToCues(name: String, channel: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: FuzzRegressionTests.regressions.appendingPathComponent("a53/\(name)")))
        #expect(bytes.count % 2 == (channel == 1 ? 0 : 1), "the harness reads channel 1 for even lengths, 3 for odd")
        let pictures = stride(from: 0, to: bytes.count, by: 30).map {
            ClosedCaptionData(time: MediaTime(value: Int64($0 / 30) * 1001, timescale: 30000)!, triplets: Array(bytes[$0..<min(bytes.count, $0 + 30)]))
        }
        let document = ClosedCaptionDecoder.document(from: pictures, end: .zero, channel: channel)
        #expect(document.cues.count >= (name.hasPrefix("cea708") ? 2 : 3), "\(document.diagnostics)")
        #expect(document.sourceFormat == (name.hasPrefix("cea708") ? "cea708" : "cea608"))
    }
}

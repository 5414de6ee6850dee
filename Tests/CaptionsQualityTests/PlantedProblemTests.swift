import CaptionsCore
import CaptionsQuality
import Foundation
import Testing

/// Caption files with planted problems, each beside the exact list of findings it must produce
/// (`Planted/*.expected`): every planted problem is found, nothing else is reported, `fix`
/// repairs every fixable one, and fixing the fixed file changes nothing.
@Suite struct PlantedProblemTests {
    struct Expectation {
        var profile = "netflix"
        var language: String?
        var check: [String] = []
        var afterFix: [String] = []

        init(_ text: String) {
            var section = ""
            for line in text.split(separator: "\n").map(String.init) {
                if line.hasPrefix("# profile: ") { profile = String(line.dropFirst(11)) }
                if line.hasPrefix("# language: ") { language = String(line.dropFirst(12)) }
                if line.hasPrefix("#") { continue }
                if line.hasSuffix(":") { section = line; continue }
                if section == "check:" { check.append(line) } else if section == "after fix:" { afterFix.append(line) }
            }
        }
    }

    static let files: [String] = (try? FileManager.default.contentsOfDirectory(atPath: QualityPaths.planted.path))?
        .filter { !$0.hasSuffix(".expected") }.sorted() ?? []

    @Test func thereArePlantedFiles() {
        #expect(Self.files.count >= 4)
    }

    @Test(arguments: files)
    func findsExactlyThePlantedProblems(_ name: String) throws {
        let url = QualityPaths.planted.appendingPathComponent(name)
        let expected = Expectation(try String(contentsOf: url.deletingPathExtension().appendingPathExtension("expected"), encoding: .utf8))
        let checker = QualityChecker(profile: try shipped(expected.profile), language: expected.language)
        let report = checker.check(try readCaptions(url))
        #expect(pairs(report) == expected.check, "\(name): \(report.findings.map(\.diagnostic.message))")
    }

    @Test(arguments: files)
    func fixRepairsWhatItCanAndIsIdempotent(_ name: String) throws {
        let url = QualityPaths.planted.appendingPathComponent(name)
        let expected = Expectation(try String(contentsOf: url.deletingPathExtension().appendingPathExtension("expected"), encoding: .utf8))
        let checker = QualityChecker(profile: try shipped(expected.profile), language: expected.language)
        let original = try readCaptions(url)
        let fixed = QualityFixer(checker: checker).fix(original)
        #expect(pairs(fixed.remaining) == expected.afterFix, "\(name): \(fixed.remaining.findings.map(\.diagnostic.message))")
        #expect(fixed.remaining.findings.allSatisfy { !$0.fixable || $0.diagnostic.code == "check.readingSpeed" })
        #expect(words(of: fixed.document).joined(separator: " ").filter { !$0.isWhitespace }
            == words(of: original).joined(separator: " ").filter { !$0.isWhitespace })
        let again = QualityFixer(checker: checker).fix(fixed.document)
        #expect(again.changes.isEmpty, "\(name): \(again.changes.map(\.message))")
        #expect(again.document.cues == fixed.document.cues)
    }
}

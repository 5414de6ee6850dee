import ArgumentParser
import CaptionsCommands
import Foundation
import Testing

/// Standard streams in memory, for running commands in-process.
final class MemoryIO: CommandIO {
    var input: [UInt8]
    var output: [UInt8] = []
    var errors = ""

    init(input: String = "") { self.input = Array(input.utf8) }

    func readStandardInput() throws(CaptionsIOError) -> [UInt8] { input }
    func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) { output += bytes }
    func writeStandardError(_ text: String) { errors += text }
    func discard(_ result: sending Any) {}
    var standardErrorIsTerminal: Bool { false }

    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `captions ARGS` in-process and returns the exit code.
@discardableResult
func run(_ arguments: [String], io: MemoryIO) -> Int32 {
    do {
        var command = try CaptionsCommand.parseAsRoot(arguments)
        if let command = command as? any IOCommand {
            try command.execute(io: io)
        } else {
            try command.run()
        }
        return 0
    } catch {
        return CaptionsCommand.exitCode(for: error).rawValue
    }
}

/// A fresh folder for a test's files.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("captions-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Removes a folder from ``temporaryFolder()`` and everything in it.
func removeTemporaryFolder(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
}

/// Headless Chromium, when installed, to check that HTML pages render.
enum Chromium {
    static let path = "/usr/bin/chromium"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// A PNG screenshot of `page` at 1000×900.
    static func screenshot(of page: URL, in folder: URL) throws -> Data {
        let shot = folder.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,900",
                             "--screenshot=\(shot.path)", page.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try Data(contentsOf: shot)
    }
}

let sampleSRT = "1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n"

@Suite struct ConvertCommandTests {
    /// A document or a picture saved under a caption name is named for what it is, whatever the
    /// name; `--from` still reads it as told.
    @Test(arguments: [
        ("script.srt", Array("{\\rtf1\\ansi 1\\par 00:00:01,000 --> 00:00:02,000\\par Hello\\par}".utf8), "an RTF document"),
        ("script.txt", [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60), "a ZIP archive"),
        ("frame.vtt", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "a PNG picture"),
        ("notes", Array("%PDF-1.7\n".utf8), "a PDF document"),
    ])
    func documentsAreNamedNotReadAsCaptions(name: String, bytes: [UInt8], kind: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent(name)
        try Data(bytes).write(to: input)
        let io = MemoryIO()
        #expect(run(["convert", input.path, "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("\(input.path):1:1: error: \(kind)"), "\(io.errors)")
        #expect(io.errors.contains("[input.notCaptions]"))
        let forced = MemoryIO()
        #expect(run(["convert", input.path, "--from", "srt", "--to", "vtt"], io: forced) == 1)
        #expect(!forced.errors.contains("[input.notCaptions]"), "--from reads as told: \(forced.errors)")
    }

    @Test func convertsFilesByExtension() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("talk.srt")
        try sampleSRT.write(to: input, atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["convert", input.path, "-o", folder.appendingPathComponent("talk.vtt").path], io: io) == 0)
        let output = try String(contentsOf: folder.appendingPathComponent("talk.vtt"), encoding: .utf8)
        #expect(output.hasPrefix("WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n<i>Hello</i>\n"))
        #expect(io.errors.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// `--encoding` on binary EBU STL ran iconv over its blocks: no cue, exit 0. It names the code
    /// table the text is read in, in place of the header's: a file labelled Latin that holds
    /// Cyrillic reads right with `--encoding iso-8859-5`.
    @Test func anEncodingNamesTheCodeTableOfBinarySTL() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("talk.srt")
        try "1\n00:00:01,000 --> 00:00:02,000\nПривет\n".write(to: input, atomically: true, encoding: .utf8)
        let stl = folder.appendingPathComponent("talk.stl").path
        #expect(run(["convert", input.path, "-o", stl], io: MemoryIO()) == 0)
        let io = MemoryIO()
        #expect(run(["convert", stl, "--encoding", "iso-8859-5", "--to", "vtt"], io: io) == 0)
        #expect(io.outputText.contains("\nПривет\n"), "\(io.outputText)")
        // Labelled Latin (CCT "00" at byte 12): read as the header says, then as told.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: stl)))
        (bytes[12], bytes[13]) = (0x30, 0x30)
        let mislabelled = folder.appendingPathComponent("mislabelled.stl").path
        try Data(bytes).write(to: URL(fileURLWithPath: mislabelled))
        let wrong = MemoryIO(), told = MemoryIO()
        #expect(run(["convert", mislabelled, "--to", "vtt"], io: wrong) == 0)
        #expect(!wrong.outputText.contains("Привет"))
        #expect(run(["convert", mislabelled, "--encoding", "ISO-8859-5", "--to", "vtt"], io: told) == 0)
        #expect(told.outputText.contains("\nПривет\n"), "\(told.outputText)")
        #expect(run(["convert", mislabelled, "--encoding", "shift_jis", "--to", "vtt"], io: MemoryIO()) == 64)
    }

    @Test func readsStandardInputAndWritesStandardOutput() {
        let io = MemoryIO(input: sampleSRT)
        #expect(run(["convert", "-", "--to", "vtt"], io: io) == 0)
        #expect(io.outputText.hasPrefix("WEBVTT\n"))
        let json = MemoryIO(input: "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>Hi</v>\n")
        #expect(run(["convert", "-", "--to", "json"], io: json) == 0)
        let object = try? JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any]
        let cues = object?["cues"] as? [[String: Any]]
        #expect(cues?.first?["speaker"] as? String == "Ann")
        #expect(cues?.first?["startTime"] as? Double == 1)
    }

    @Test func shiftsRetimesAndMerges() {
        let io = MemoryIO(input: "1\n00:00:25,000 --> 00:00:50,000\nA\n\n2\n00:00:50,000 --> 00:00:51,000\nA\n")
        #expect(run(["convert", "-", "--to", "srt", "--fps", "25:23.976", "--shift", "-0.025s", "--merge"], io: io) == 0)
        #expect(io.outputText == "1\n00:00:26,043 --> 00:00:53,153\nA\n")
    }

    @Test func warningsGoToStandardErrorWithPositionsAndStrictFails() {
        let lenient = "1\n00:00:01.000 --> 00:00:02,000\nx\n"
        let io = MemoryIO(input: lenient)
        #expect(run(["convert", "-", "--to", "vtt"], io: io) == 0)
        #expect(io.errors.contains("<stdin>:2:1: warning: '.' before the milliseconds read as ',' [srt.timestamp.separator]"))
        let strict = MemoryIO(input: lenient)
        #expect(run(["convert", "-", "--to", "vtt", "--strict"], io: strict) == 1)
        #expect(strict.output.isEmpty)
    }

    @Test func lossesAreReportedAndStrictRefusesThem() {
        let voices = "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>Hi</v>\n"
        let io = MemoryIO(input: voices)
        #expect(run(["convert", "-", "--to", "srt"], io: io) == 0)
        #expect(io.errors.contains("[convert.lost.voices]"))
        #expect(io.outputText.contains("\nHi\n"))
        let prefixed = MemoryIO(input: voices)
        #expect(run(["convert", "-", "--to", "srt", "--speaker-prefix"], io: prefixed) == 0)
        #expect(prefixed.outputText.contains("\nAnn: Hi\n"))
        #expect(run(["convert", "-", "--to", "srt", "--strict"], io: MemoryIO(input: voices)) == 1)
    }

    @Test func invalidInputExitsOneAndWritesNothing() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let target = folder.appendingPathComponent("out.vtt")
        for bad in ["not captions at all", "1\n999999:00:00,000 --> 999999:00:01,000\nx\n"] {
            let io = MemoryIO(input: bad)
            #expect(run(["convert", "-", "--from", "srt", "-o", target.path], io: io) == 1, "\(bad)")
            #expect(!FileManager.default.fileExists(atPath: target.path))
            #expect(io.errors.contains(": error: "))
        }
        let missing = MemoryIO()
        #expect(run(["convert", folder.appendingPathComponent("nope.srt").path, "--to", "vtt"], io: missing) == 1)
        #expect(missing.errors.contains("[input.missing]"))
    }

    @Test func usageErrorsExitSixtyFour() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("same.srt")
        try sampleSRT.write(to: input, atomically: true, encoding: .utf8)
        #expect(run(["convert", input.path], io: MemoryIO()) == 64)
        #expect(run(["convert", input.path, "--to", "docx"], io: MemoryIO()) == 64)
        #expect(run(["convert", input.path, "--to", "vtt", "--shift", "soon"], io: MemoryIO()) == 64)
        #expect(run(["convert", input.path, "--to", "vtt", "--fps", "25"], io: MemoryIO()) == 64)
        #expect(run(["convert", input.path, "-o", input.path], io: MemoryIO()) == 64)
        #expect(try String(contentsOf: input, encoding: .utf8) == sampleSRT)
    }
}

/// SCC and STL have no markup: text that looks like a tag is written as it is (it used to get an
/// invisible U+200B, which neither can show, and read back as `<?i>`), with no warning.
@Test(arguments: ["scc", "stl"])
func textLikeMarkupIsWrittenAsItIsWhereThereIsNoMarkup(format: String) throws {
    let io = MemoryIO(input: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx &lt;i&gt; y\n\n00:00:03.000 --> 00:00:04.000\n{\\an8} z\n")
    #expect(run(["convert", "-", "--from", "vtt", "--to", format], io: io) == 0, "\(io.errors)")
    #expect(!io.errors.contains("literalMarkup"), "\(io.errors)")
    let back = MemoryIO()
    back.input = io.output
    #expect(run(["convert", "-", "--from", format, "--to", "json"], io: back) == 0, "\(back.errors)")
    let cues = try #require((try JSONSerialization.jsonObject(with: Data(back.output)) as? [String: Any])?["cues"] as? [[String: Any]])
    #expect(cues.map { $0["text"] as? String } == ["x &lt;i&gt; y", "{\\an8} z"], "WebVTT cue text, escaped")
}

/// One `--fps` between two formats that count frames (SCC in, MicroDVD out) is asked about: it
/// used to time the SCC at the MicroDVD's 25 frames a second, 3.5 s early an hour in, without a
/// word. `--input-fps` gives the input's rate, and `--fps` is then the output's.
@Test func oneFrameRateForTwoFrameCountingFormatsIsAskedAbout() throws {
    let scc = "Scenarist_SCC V1.0\n\n01:00:00:00\t9420 9420 94ae 94ae 9470 9470 c8e5 ecec ef80 942f 942f\n\n01:00:02:00\t942c 942c\n"
    let ambiguous = MemoryIO(input: scc)
    #expect(run(["convert", "-", "--from", "scc", "--to", "microdvd", "--fps", "25"], io: ambiguous) == 64)
    #expect(ambiguous.output.isEmpty)
    let command = try #require(try CaptionsCommand.parseAsRoot(["convert", "-", "--from", "scc", "--to", "microdvd", "--fps", "25"]) as? any IOCommand)
    #expect(throws: ValidationError.self) { try command.execute(io: MemoryIO(input: scc)) }
    do { try command.execute(io: MemoryIO(input: scc)) } catch { #expect("\(error)".contains("--input-fps"), "\(error)") }

    let told = MemoryIO(input: scc)
    #expect(run(["convert", "-", "--from", "scc", "--to", "microdvd", "--fps", "25", "--input-fps", "29.97", "-q"], io: told) == 0, "\(told.errors)")
    let direct = MemoryIO(input: scc)
    #expect(run(["convert", "-", "--from", "scc", "--to", "srt", "-q"], io: direct) == 0)
    // The caption shows at 01:00:03.9 (non-drop timecode counted at 29.97): frame 90098 at 25.
    #expect(direct.outputText.contains("01:00:03,900 --> "), "\(direct.outputText)")
    #expect(told.outputText.contains("{90098}{"), "\(told.outputText)")

    // One format on both sides, or a rate-less output, keeps --fps for the input.
    let same = MemoryIO(input: scc)
    #expect(run(["convert", "-", "--from", "scc", "--to", "srt", "--fps", "25", "-q"], io: same) == 0)
    #expect(!same.outputText.contains("01:00:03,900"), "read at 25: \(same.outputText)")
}

/// `-o film.sub` is ambiguous (MicroDVD, SubViewer and VobSub all use .sub): the error says so
/// and names the `--to` that writes MicroDVD, instead of only listing every format.
@Test func aSubOutputNameAsksForMicroDVD() throws {
    let command = try #require(try CaptionsCommand.parseAsRoot(["convert", "-", "--from", "srt", "-o", "/tmp/never-written.sub"]) as? any IOCommand)
    do {
        try command.execute(io: MemoryIO(input: "1\n00:00:01,000 --> 00:00:02,000\nHi\n"))
        Issue.record("no error")
    } catch { #expect("\(error)".contains("--to microdvd"), "\(error)") }
}

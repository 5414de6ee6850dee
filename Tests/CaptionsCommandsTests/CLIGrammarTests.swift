import ArgumentParser
import CaptionsCommands
import CaptionsFlash
import CaptionsQuality
import Foundation
import Testing

/// One grammar on every command, and the rough edges a new user found (issue 14).
@Suite struct CLIGrammarTests {
    func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func theVersionNamesTheMeasuresAndTheLibraries() {
        let text = VersionInfo.text
        #expect(text.hasPrefix("captions \(VersionInfo.version)\n"))
        #expect(text.contains("Dim Flashing Lights: Apple's model"))
        #expect(text.contains("shot changes: luma-mafd-half-v2 (no deblocking)"))
        #expect(text.contains("libxml2: 2."))
        #expect(text.contains("FFmpeg: "))
    }

    /// A first word that names no command lists the commands, with the likeliest one.
    @Test func anUnknownCommandListsTheCommands() {
        let names = CaptionsCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        let flash = CaptionsCommand.unknownCommandMessage("flash", names: names)
        #expect(flash.hasPrefix("Error: 'flash' is not a command (did you mean 'flashes'?). The commands are: convert, check, fix,"))
        #expect(names.allSatisfy { flash.contains($0) })
        #expect(!CaptionsCommand.unknownCommandMessage("bogus", names: names).contains("did you mean"))
    }

    /// `--to itt` names iTT as `-o x.itt` does (it wrote IMSC1 with a media time base).
    @Test func toITTWritesITT() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:02,000\nHi\n", "in.srt", in: folder)
        let named = folder.appendingPathComponent("out.itt").path
        let byName = MemoryIO(), byOption = MemoryIO()
        #expect(run(["convert", srt, "-o", named], io: byName) == 0)
        #expect(run(["convert", srt, "--to", "itt"], io: byOption) == 0)
        #expect(byOption.outputText.contains("ttp:timeBase=\"smpte\""), "\(byOption.outputText)")
        #expect(byOption.output == Array(try Data(contentsOf: URL(fileURLWithPath: named))))
    }

    /// Two flash reports into one file: refused before the scan (the second replaced the first).
    @Test func twoFlashReportsIntoOneFileAreAUsageError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let (json, html) = (folder.appendingPathComponent("d.json").path, folder.appendingPathComponent("d.html").path)
        for arguments in [["-o", json, "--report", "html:\(json)"], ["--report", "json:-"], ["--report", "csv:\(html)", "--report", "vtt:\(html)"]] {
            #expect(run(["flashes", "missing-video.mp4"] + arguments, io: MemoryIO()) == 64, "\(arguments)")
        }
        // Each report in its own file: on to the scan, which finds no video.
        #expect(run(["flashes", "missing-video.mp4", "-o", json, "--report", "html:\(html)"], io: MemoryIO()) == 1)
    }

    @Test func theModelDumpReadsBackAndJSONIsRecognisedOnStandardInput() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let vtt = try write(
            "WEBVTT\n\nREGION\nid:r1\nwidth:40%\n\nc1\n00:00:01.000 --> 00:00:02.000 region:r1 align:left line:10%\n<v Ann>Hello <b>there</b> <c.red>x</c> <00:00:01.500>y</v>\n\n00:00:03.250 --> 00:00:04.000 position:30%\nSecond\n",
            "in.vtt", in: folder)
        let direct = MemoryIO(), dump = MemoryIO()
        #expect(run(["convert", vtt, "--to", "vtt"], io: direct) == 0)
        #expect(run(["convert", vtt, "--to", "json"], io: dump) == 0)
        let json = try write(dump.outputText, "dump.json", in: folder)
        let back = MemoryIO()
        #expect(run(["convert", json, "--to", "vtt"], io: back) == 0)
        #expect(back.outputText == direct.outputText)
        // Standard input has no name: JSON is told from its content (it was read as SRT).
        let piped = MemoryIO(input: dump.outputText)
        #expect(run(["convert", "-", "--format", "vtt"], io: piped) == 0)
        #expect(piped.outputText == direct.outputText)
        // Podcasting 2.0 JSON still reads through --from json.
        let podcast = MemoryIO(input: #"{"version":"1.0.0","segments":[{"speaker":"Ann","startTime":0.5,"endTime":1.25,"body":"Hi."}]}"#)
        #expect(run(["convert", "-", "--from", "json", "--to", "srt"], io: podcast) == 0)
        #expect(podcast.outputText.contains("00:00:00,500 --> 00:00:01,250"))
        let neither = MemoryIO(input: #"{"items": []}"#)
        #expect(run(["convert", "-", "--from", "json", "--to", "srt"], io: neither) == 1)
        #expect(neither.errors.contains("neither a caption dump"))
    }

    @Test func mergingNumberedCuesIsNoLossUnderStrict() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write(
            "1\n00:00:01,000 --> 00:00:02,000\nSame\n\n2\n00:00:02,000 --> 00:00:03,000\nSame\n\n3\n00:00:04,000 --> 00:00:05,000\nNext\n",
            "m.srt", in: folder)
        let io = MemoryIO()
        #expect(run(["convert", srt, "--to", "srt", "--merge", "--strict"], io: io) == 0)
        #expect(io.outputText == "1\n00:00:01,000 --> 00:00:03,000\nSame\n\n2\n00:00:04,000 --> 00:00:05,000\nNext\n")
        // A named identifier is still a loss in SRT.
        let vtt = try write("WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.000\nHi\n", "n.vtt", in: folder)
        #expect(run(["convert", vtt, "--to", "srt", "--strict"], io: MemoryIO()) == 1)
    }

    @Test func droppingSoundTagsKeepsSpeechInParentheses() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write(
            "1\n00:00:01,000 --> 00:00:02,000\n(LAUGHS) C'est pour eux (vraiment tous).\n\n2\n00:00:02,000 --> 00:00:03,000\n[music] (door slams) Who's there?\n",
            "s.srt", in: folder)
        let io = MemoryIO()
        #expect(run(["transcript", srt, "--drop-sound-tags", "--no-timestamps"], io: io) == 0)
        #expect(io.outputText.contains("C'est pour eux (vraiment tous). Who's there?"))
        #expect(!io.outputText.contains("LAUGHS") && !io.outputText.contains("music") && !io.outputText.contains("door"))
    }

    @Test func describeReadsACSVSavedBySpreadsheets() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let dialogue = try write("1\n00:00:00,000 --> 00:00:01,000\nHello.\n\n2\n00:00:09,000 --> 00:00:10,000\nBye.\n", "d.srt", in: folder)
        for (name, csv) in [("bom.csv", "\u{FEFF}start,text\n00:00:02,A door opens.\n"), ("semicolon.csv", "start;text\n00:00:02;A door opens.\n")] {
            let script = try write(csv, name, in: folder)
            let io = MemoryIO()
            #expect(run(["describe", "--script", script, "--dialogue", dialogue, "--no-speech-timing"], io: io) == 0, "\(name): \(io.errors)")
            #expect(io.outputText.contains("A door opens."), "\(name)")
            #expect(io.errors.contains("1 of 1 descriptions placed"), "\(name): \(io.errors)")
        }
    }

    @Test func aBadSpeakerMapSaysWhereAndWhat() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:02,000\nHi\n", "a.srt", in: folder)
        let map = try write(#"{"SPEAKER_1": 7}"#, "map.json", in: folder)
        let io = MemoryIO()
        #expect(run(["convert", srt, "--to", "vtt", "--speakers", map], io: io) == 1)
        #expect(io.errors.contains("\(map): error: SPEAKER_1: expected a string; expected JSON such as {\"SPEAKER_1\": \"Ann\""), "\(io.errors)")
        #expect(!io.errors.contains("DecodingError"))
    }

    /// A missing or broken side file (`--speakers`, `--chapters`) is reported against itself, not
    /// against the input the command reads; `transcribe` says so before it listens.
    @Test func aSideFileErrorNamesTheSideFile() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:02,000\nHi\n", "a.srt", in: folder)
        let broken = try write("{", "broken.json", in: folder)
        let missing = folder.appendingPathComponent("missing.json").path
        let audio = folder.appendingPathComponent("a.wav").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "anullsrc=d=1", audio]))
        for (command, input) in [(["convert", srt, "--to", "vtt"], srt), (["transcript", srt], srt),
                                 (["transcribe", audio, "-o", folder.appendingPathComponent("o.vtt").path], audio)] {
            for (option, side, why) in [("--speakers", broken, "not JSON"), ("--speakers", missing, "No such file"),
                                        ("--chapters", broken, "not JSON")] where option == "--speakers" || command[0] == "transcript" {
                let io = MemoryIO()
                #expect(run(command + [option, side], io: io) == 1, "\(command[0]) \(option) \(side)")
                #expect(io.errors.hasPrefix("\(side): error: "), "\(command[0]) \(option): \(io.errors)")
                #expect(io.errors.contains(why) && !io.errors.contains(input), "\(command[0]) \(option): \(io.errors)")
            }
        }
    }

    @Test func quietAndVerboseMeanTheSameEverywhere() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // A warning (a short arrow), a note (an unclosed tag), and a result all the same.
        let srt = try write("1\n00:00:01,000 --> 00:00:02,000\n<i>Hi\n\n2\n00:00:03,000 -> 00:00:04,000\nBroken\n", "w.srt", in: folder)
        let fixed = folder.appendingPathComponent("fixed.srt").path, pauses = folder.appendingPathComponent("pauses.vtt").path
        for command in [
            ["convert", srt, "--to", "vtt"], ["transcript", srt], ["check", srt], ["fix", srt, "-o", fixed],
            ["describe", "--dialogue", srt, "--times-only", "--duration", "10s", "-o", pauses],
        ] {
            let loud = MemoryIO(), quiet = MemoryIO()
            run(command, io: loud)
            run(command + ["-q"], io: quiet)
            let reportsOnly = ["check", "fix", "describe"].contains(command[0])
            #expect(loud.errors.contains(": warning: ") || reportsOnly, "\(command[0])")
            #expect(!loud.errors.contains(": note: ") || command[0] == "fix", "\(command[0])")
            #expect(!quiet.errors.contains(": warning: ") && !quiet.errors.contains(": note: "), "\(command[0])")
            #expect(quiet.errors.split(separator: "\n").allSatisfy { $0.contains(": error: ") }, "\(command[0]): \(quiet.errors)")
            #expect(quiet.outputText == loud.outputText, "\(command[0])")
            let verbose = MemoryIO()
            #expect(run(command + ["-v"], io: verbose) == run(command, io: MemoryIO()))
            #expect(verbose.errors.contains(": note: ") || reportsOnly, "\(command[0])")
        }
        // -q hides no failure: under --strict the warnings that fail the command and the failure
        // itself are said; machine progress that was asked for still comes.
        let strict = MemoryIO()
        #expect(run(["convert", srt, "--to", "vtt", "--strict", "-q"], io: strict) == 1)
        #expect(strict.errors.contains(": warning: ") && strict.errors.contains("error: warnings are errors under --strict"), "\(strict.errors)")
        let progress = MemoryIO()
        run(["convert", srt, srt, "-o", folder.appendingPathComponent("many").path, "--to", "vtt", "--progress", "json", "-q"], io: progress)
        #expect(progress.errors.split(separator: "\n").allSatisfy { $0.hasPrefix("{") || $0.contains(": error: ") }, "\(progress.errors)")
    }

    /// `describe` reads its dialogue as `convert` does, `--from` included (it had none).
    @Test func describeTakesTheDialoguesFormat() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:03,000\nHello there.\n", "a.srt", in: folder)
        let base = ["describe", "--dialogue", srt, "--times-only", "--duration", "10s"]
        #expect(run(base + ["--from", "srt"], io: MemoryIO()) == 0)
        #expect(run(base + ["--from", "vtt"], io: MemoryIO()) == 1)  // read as told: no WEBVTT line
        #expect(run(base + ["--from", "nope"], io: MemoryIO()) == 64)
    }

    /// An output named for another kind of file than the command writes is refused before any
    /// work (WebVTT was written into `d.srt` and `d.json`, a text report into `c.vtt`, with exit 0).
    @Test func anOutputNamedForAnotherKindOfFileIsRefused() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:03,000\nHello there.\n", "a.srt", in: folder)
        func out(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (arguments, ext) in [
            (["describe", "--dialogue", srt, "--times-only", "--duration", "10s", "-o", out("d.srt")], "srt"),
            (["describe", "--dialogue", srt, "--times-only", "--duration", "10s", "-o", out("d.json")], "json"),
            (["fix", srt, "-o", out("f.txt")], "txt"), (["fix", srt, "-o", out("f.md")], "md"),
            (["check", srt, "-o", out("c.vtt")], "vtt"), (["flashes", out("missing.mp4"), "-o", out("f.srt")], "srt"),
        ] {
            let io = MemoryIO()
            #expect(run(arguments, io: io) == 64, "\(arguments): .\(ext)")
            #expect(!FileManager.default.fileExists(atPath: arguments.last!), "\(arguments)")
        }
        // What each does write, and a name that says nothing (the default format).
        #expect(run(["describe", "--dialogue", srt, "--times-only", "--duration", "10s", "-o", out("d.ttml")], io: MemoryIO()) != 64)
        #expect(run(["fix", srt, "-o", out("f.ass")], io: MemoryIO()) != 64)
        #expect(run(["check", srt, "-o", out("c.log")], io: MemoryIO()) != 64)
        for name in ["d.ttml", "f.ass", "c.log"] { #expect(FileManager.default.fileExists(atPath: out(name)), "\(name)") }
    }

    /// An output extension that names nothing (`-o a.xyz`) is refused by every command the same
    /// way, listing the extensions it writes; `fix`, `check`, `describe` and `flashes` wrote into
    /// it with exit 0. `--to`/`--format` given explicitly writes that format whatever the name.
    @Test func anUnknownOutputExtensionIsRefusedByEveryCommand() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:03,000\nHello there.\n", "a.srt", in: folder)
        let output = folder.appendingPathComponent("a.xyz").path
        let describe = ["describe", "--dialogue", srt, "--times-only", "--duration", "10s"]
        for (arguments, to, listed) in [
            (["convert", srt], "vtt", ".vtt, .srt"), (["transcript", srt], "txt", ".txt, .md"), (["fix", srt], "vtt", ".vtt, .srt"),
            (["check", srt], "text", ".txt, .json, .html"), (describe, "vtt", ".vtt"),
            (["flashes", folder.appendingPathComponent("missing.mp4").path], "json", ".txt, .json, .csv, .vtt, .html"),
        ] {
            #expect(run(arguments + ["-o", output], io: MemoryIO()) == 64, "\(arguments)")
            let message = #expect(throws: ValidationError.self) {
                try (CaptionsCommand.parseAsRoot(arguments + ["-o", output]) as? any IOCommand)?.execute(io: MemoryIO())
            }?.message ?? ""
            #expect(message.hasPrefix("-o \(output): .xyz is not a format \(arguments[0]) writes; name the output with one of \(listed)"), "\(message)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
            guard arguments[0] != "flashes" else { continue }
            #expect(run(arguments + ["-o", output, "--to", to], io: MemoryIO()) != 64, "\(arguments)")
            #expect(FileManager.default.fileExists(atPath: output), "\(arguments)")
            try FileManager.default.removeItem(atPath: output)
        }
    }

    @Test func everyReportTakesItsFormatFromTheOutputName() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let srt = try write("1\n00:00:01,000 --> 00:00:03,000\nHello there.\n", "a.srt", in: folder)
        for (command, name, start) in [
            ("transcript", "t.html", "<!doctype html>"), ("check", "c.json", "{"), ("transcript", "t.md", "#"),
            ("transcript", "t.json", "{"), ("transcript", "t.htm", "<!doctype html>"), ("transcript", "t", "(0:01)"),
        ] {
            let output = folder.appendingPathComponent(name).path
            #expect(run([command, srt, "-o", output], io: MemoryIO()) == 0)
            #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix(start), "\(command) \(name)")
        }
        // A transcript is never plain text under a name that says otherwise.
        let refused = folder.appendingPathComponent("t.vtt").path
        #expect(run(["transcript", srt, "-o", refused], io: MemoryIO()) == 64)
        #expect(!FileManager.default.fileExists(atPath: refused))
        // The formats' everyday names are accepted too.
        let markdown = MemoryIO()
        #expect(run(["transcript", srt, "--to", "markdown"], io: markdown) == 0)
        #expect(markdown.outputText.hasPrefix("#"))
        // Every command's --to takes any case and the names its files take (check and flashes
        // took only their lower-case names: "--to txt" and "--to JSON" were usage errors).
        for arguments in [["check", srt, "--to", "JSON"], ["check", srt, "--to", "txt"], ["transcript", srt, "--to", "HTML"]] {
            #expect(run(arguments, io: MemoryIO()) == 0, "\(arguments)")
        }
        #expect(FlashReportFormat(argument: "WebVTT") == .vtt && FlashReportFormat(argument: "txt") == .text)
        #expect(FlashReportFormat(argument: "pdf") == nil && QualityReportFormat(argument: "HTM") == .html)
        // --to and --format are one option.
        let a = MemoryIO(), b = MemoryIO()
        #expect(run(["convert", srt, "--to", "srt"], io: a) == 0)
        #expect(run(["convert", srt, "--format", "srt"], io: b) == 0)
        #expect(a.outputText == b.outputText)
    }

    /// `flashes --fast --exact` asks for two opposite decodings: a usage error (--exact won
    /// without a word).
    @Test func fastAndExactTogetherAreAUsageError() throws {
        #expect(run(["flashes", "x.mp4", "--fast", "--exact"], io: MemoryIO()) == 64)
        do {
            _ = try CaptionsCommand.parseAsRoot(["flashes", "x.mp4", "--fast", "--exact"])
            Issue.record("--fast --exact was accepted")
        } catch {
            #expect(CaptionsCommand.message(for: error).contains("--fast skips deblocking and --exact runs it on every picture"))
        }
        #expect(throws: Never.self) { try CaptionsCommand.parseAsRoot(["flashes", "x.mp4", "--exact"]) }
    }

    @Test func usageErrorsListTheChoices() throws {
        let io = MemoryIO()
        #expect(run(["convert", "x.srt", "--from", "xyz", "--to", "vtt"], io: io) == 64)
        #expect(run(["convert", "x.srt", "--shard", "5/4", "--to", "vtt"], io: io) == 64)
        #expect(run(["flashes", "x.mp4", "--format", "pdf"], io: io) == 64)
        do {
            _ = try CaptionsCommand.parseAsRoot(["flashes", "x.mp4", "--format", "pdf"])
            Issue.record("pdf was accepted")
        } catch {
            let message = CaptionsCommand.message(for: error)
            #expect(message.contains("text") && message.contains("json") && message.contains("html"))
        }
        do {
            _ = try CaptionsCommand.parseAsRoot(["convert", "x.srt", "--progress", "loud"])
            Issue.record("loud was accepted")
        } catch {
            #expect(CaptionsCommand.message(for: error).contains("json"))
        }
        #expect(CaptionsCommand.helpMessage(for: TranscribeCommand.self).contains("offline"))
    }
}

/// Shell completion offers file names where a command takes files (inputs, `-o`, `--manifest`,
/// `--speakers`…): the bash and zsh scripts offered none.
@Suite struct CompletionTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path), "needs the release CLI"))
    func pathsCompleteAsFiles() throws {
        for shell in ["zsh", "fish"] {
            let process = Process()
            process.executableURL = BatchCommandTests.executable
            process.arguments = ["--generate-completion-script", shell]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let script = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // Every command's inputs, and its paths: `_files` in zsh, `-F` in fish (none before).
            let (files, least) = shell == "zsh" ? ("_files", 20) : (" -F", 5)
            #expect(script.components(separatedBy: files).count > least, "\(shell): \(script.components(separatedBy: files).count - 1)")
        }
    }
}

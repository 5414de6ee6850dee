import ArgumentParser
import CaptionsCommands
import Foundation
import Testing

/// The man page and the shell completions, generated from the same definitions as `--help`.
@Suite struct ShellFilesTests {
    /// The words bash offers after `option` in `subcommand`'s completion function (the `-W` list
    /// of the line after the option's case), or the line itself when it is not a word list.
    func offered(_ script: String, _ subcommand: String, _ option: String) throws -> String {
        let start = try #require(script.range(of: "\n_captions_\(subcommand)() {\n"), "no function for \(subcommand)")
        let body = script[start.upperBound...]
        let end = body.range(of: "\n}\n")?.lowerBound ?? body.endIndex
        let lines = body[..<end].split(separator: "\n")
        let index = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("'\(option)'") && $0.hasSuffix(")") },
                                 "no case for \(option) in \(subcommand)")
        let line = lines[lines.index(after: index)]
        guard line.contains("-W '") else { return String(line) }
        // -W 'webvtt'$'\n''srt'…: the quoted words, without the quoted line feeds between them.
        return line.components(separatedBy: "'").enumerated().filter { $0.offset % 2 == 1 && $0.element != "\\n" }.map(\.element)
            .joined(separator: " ")
    }

    /// `--to`, `--from`, `--model` and `--profile` complete with the names their help lists
    /// (bash offered nothing for them).
    @Test func bashOffersTheNamesHelpLists() throws {
        let script = CaptionsCommand.completionScript(for: .bash)
        for command in ["convert", "fix"] {
            #expect(try offered(script, command, "--to") == "webvtt srt microdvd scc stl ass sbv ttml json podcast-json", "\(command)")
        }
        for command in ["transcribe", "align"] {
            #expect(try offered(script, command, "--to").hasSuffix("podcast-json txt md html"), "\(command)")
            #expect(try offered(script, command, "--model") == "base tiny.en", "\(command)")
        }
        for command in ["convert", "check", "fix", "transcript"] {
            let names = try offered(script, command, "--from")
            #expect(names.hasPrefix("webvtt srt") && names.hasSuffix(" media"), "\(command): \(names)")
        }
        #expect(try offered(script, "describe", "--from").hasPrefix("webvtt srt"))
        #expect(try offered(script, "check", "--print-profile") == "netflix bbc apple-itt cea608 dcmp 608 fcc itt")
        for command in ["check", "fix"] {
            #expect(try offered(script, command, "--profile").contains("---completion \(command) -- --profile"), "\(command)")
        }
    }

    /// `--profile` offers the shipped profiles and the JSON files that start with what was typed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path), "needs the release CLI"))
    func profilesCompleteWithNamesAndJSONFiles() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        try "{}".write(to: folder.appendingPathComponent("house.json"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.appendingPathComponent("house.txt"), atomically: true, encoding: .utf8)
        func complete(_ word: String) throws -> [String] {
            let process = Process()
            process.executableURL = BatchCommandTests.executable
            process.currentDirectoryURL = folder
            process.arguments = ["---completion", "check", "--", "--profile", "3", "\(word.count)", "captions", "check", "--profile", word]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try complete("") == ["netflix", "bbc", "apple-itt", "cea608", "dcmp", "608", "fcc", "itt", "house.json"])
        #expect(try complete("ho") == ["house.json"])
        #expect(try complete("n") == ["netflix"])
    }

    static let generateManual = FlashSamples.root.appendingPathComponent(".build/tools/release/generate-manual")

    /// The man page keeps every character of the help that is not ASCII, as groff escapes
    /// (generate-manual dropped them: "14 (CC1CC4", "R/(R+G+B)  0.8", "cd/m").
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path)
        && FileManager.default.isExecutableFile(atPath: generateManual.path), "needs the release CLI and generate-manual (Scripts/install-shell.sh)"))
    func theManPageKeepsCharactersThatAreNotASCII() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let process = Process()
        process.executableURL = FlashSamples.root.appendingPathComponent("Scripts/man-page.sh")
        process.arguments = [folder.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["GENERATE_MANUAL": Self.generateManual.path]) { $1 }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let page = try String(contentsOf: folder.appendingPathComponent("captions.1"), encoding: .utf8)
        #expect(page.contains(#"1\[u2013]4 (CC1\[u2013]CC4"#))
        #expect(page.contains(#"R/(R+G+B) \[u2265] 0.8 and \[u0394]u\[u2032]v\[u2032]"#))
        #expect(page.contains(#"cd/m\[u00B2]"#) && !page.contains("@@u"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { return }
        let man = Process()
        man.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        man.arguments = ["-l", folder.appendingPathComponent("captions.1").path]
        man.environment = ["MANWIDTH": "300", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        man.standardOutput = pipe
        man.standardError = FileHandle.nullDevice
        try man.run()
        let shown = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        man.waitUntilExit()
        #expect(shown.contains("R/(R+G+B) ≥ 0.8 and Δu′v′ > 0.2") && shown.contains("CC1–CC4") && shown.contains("cd/m²"), "\(shown.prefix(300))")
    }
}

import ArgumentParser

/// The `captions` command: one verb per job.
public struct CaptionsCommand: ParsableCommand {
    /// Names, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "captions",
        abstract: "Convert captions (also out of video), check and fix them against delivery profiles, transcribe and align speech offline, scan videos for flashing hazards and dim them, and write transcripts.",
        discussion: """
            Exit codes: 0 ok, 1 invalid input (or a loss under --strict), 2 a flash hazard found (or left by dim --method wcag), 64 usage error. \
            With several inputs, the worst of them in that order: 64, then 1 (an input that could not be done, even if another has a hazard), then 2.
            Diagnostics go to standard error as path:line:column: severity: message [code].
            """,
        version: VersionInfo.version,
        subcommands: [ConvertCommand.self, CheckCommand.self, FixCommand.self, TranscriptCommand.self, TranscribeCommand.self, AlignCommand.self, DescribeCommand.self, FlashesCommand.self, DimCommand.self]
    )

    /// Used by ArgumentParser.
    public init() {}

    /// Runs the command line: `--version` alone (or after a command's name) prints
    /// ``VersionInfo/text`` (the libraries' versions too, so looked up only when asked); a first
    /// word that names no command is a usage error listing the commands; everything else goes to
    /// ArgumentParser.
    public static func runCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        ProcessIO.guardStandardDescriptors()
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        if arguments == ["--version"] || (arguments.count == 2 && names.contains(arguments[0]) && arguments[1] == "--version") {
            write(VersionInfo.text, to: 1)
            return
        }
        if let first = arguments.first, !first.hasPrefix("-"), first != "help", !names.contains(first) {
            write(unknownCommandMessage(first, names: names), to: 2)
            exit(withError: ExitCode(64))
        }
        main(arguments)
    }

    /// What `captions WORD` says when WORD names no command: the commands, and the likeliest one.
    public static func unknownCommandMessage(_ word: String, names: [String]) -> String {
        let lowered = word.lowercased()
        let likely = names.first { $0.hasPrefix(lowered) || lowered.hasPrefix($0) }
        let guess = likely.map { " (did you mean '\($0)'?)" } ?? ""
        return """
            Error: '\(word)' is not a command\(guess). The commands are: \(names.joined(separator: ", ")).
              See 'captions --help' for more information.

            """
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { _ = FileDescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }
}

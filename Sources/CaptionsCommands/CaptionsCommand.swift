import ArgumentParser

/// The `captions` command: one verb per job.
public struct CaptionsCommand: ParsableCommand {
    /// Names, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "captions",
        abstract: "Convert captions (also out of video), check and fix them against delivery profiles, transcribe and align speech offline, scan videos for flashing hazards and dim them, and write transcripts.",
        discussion: """
            Exit codes: 0 ok, 1 invalid input (or a loss under --strict), 2 a flash hazard found (or left by dim --method wcag), 64 usage error.
            Diagnostics go to standard error as path:line:column: severity: message [code].
            """,
        version: VersionInfo.version,
        subcommands: [ConvertCommand.self, CheckCommand.self, FixCommand.self, TranscriptCommand.self, TranscribeCommand.self, AlignCommand.self, DescribeCommand.self, FlashesCommand.self, DimCommand.self]
    )

    /// Used by ArgumentParser.
    public init() {}

    /// Runs the command line: `--version` alone prints ``VersionInfo/text`` (the libraries'
    /// versions too, so looked up only when asked), everything else goes to ArgumentParser.
    public static func runCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        ProcessIO.guardStandardDescriptors()
        if arguments == ["--version"] {
            var text = VersionInfo.text
            text.withUTF8 { FileDescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: 1) }
            return
        }
        main(arguments)
    }
}

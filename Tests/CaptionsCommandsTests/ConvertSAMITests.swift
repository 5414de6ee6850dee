import ArgumentParser
import CaptionsCommands
import Foundation
import Testing

/// `convert` reads SAMI (by extension or content) and refuses to write it, naming what it can write.
@Suite struct ConvertSAMITests {
    static let sami = "<SAMI><BODY>\n<SYNC Start=1000><P>Hello<br>world\n<SYNC Start=2000><P>&nbsp;\n</BODY></SAMI>\n"

    @Test func samiIsReadFromStandardInput() {
        let io = MemoryIO(input: Self.sami)
        #expect(run(["convert", "-", "--to", "srt"], io: io) == 0)
        #expect(io.outputText == "1\n00:00:01,000 --> 00:00:02,000\nHello\nworld\n")
    }

    /// `--language` picks one language of several.
    @Test func aLanguageIsChosenByCodeOrClass() {
        let twoLanguages = """
            <SAMI><HEAD><STYLE TYPE="text/css"><!--
            .ENUSCC { Name: English; lang: en-US; }
            .FRFRCC { Name: French; lang: fr-FR; }
            --></STYLE></HEAD><BODY>
            <SYNC Start=1000><P Class=ENUSCC>Hello<P Class=FRFRCC>Bonjour
            <SYNC Start=2000><P Class=ENUSCC>&nbsp;<P Class=FRFRCC>&nbsp;
            </BODY></SAMI>
            """
        for (arguments, text) in [([], "Hello"), (["--language", "fr-FR"], "Bonjour"), (["--language", "FRFRCC"], "Bonjour")] {
            let io = MemoryIO(input: twoLanguages)
            #expect(run(["convert", "-", "--to", "srt"] + arguments, io: io) == 0)
            #expect(io.outputText == "1\n00:00:01,000 --> 00:00:02,000\n\(text)\n", "\(arguments)")
        }
    }

    @Test func samiCannotBeWritten() throws {
        let io = MemoryIO(input: sampleSRT)
        #expect(run(["convert", "-", "--to", "sami"], io: io) == 64)
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("talk.srt")
        try sampleSRT.write(to: input, atomically: true, encoding: .utf8)
        let byExtension = MemoryIO()
        #expect(run(["convert", input.path, "-o", folder.appendingPathComponent("talk.smi").path], io: byExtension) == 64)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("talk.smi").path))
    }

    @Test func theUsageErrorNamesTheWritableFormats() {
        do {
            let command = try CaptionsCommand.parseAsRoot(["convert", "-", "--to", "sami"])
            try (command as? ConvertCommand)?.execute(io: MemoryIO(input: sampleSRT))
            Issue.record("no usage error")
        } catch {
            let message = CaptionsCommand.message(for: error)
            #expect(message.contains("SAMI can be read but not written"))
            #expect(message.contains("webvtt, srt"))
            #expect(!message.contains("sami,"))
        }
    }
}

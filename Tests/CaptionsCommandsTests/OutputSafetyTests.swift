import ArgumentParser
import Foundation
import Testing

@testable import CaptionsCommands
import CaptionsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 15, part 3: `-o` never replaces a device, a FIFO or a symbolic link, keeps file modes,
/// and leaves no temporary file behind (signals, or a stale one from a killed run).
@Suite struct OutputSafetyTests {
    /// The `stat` of `path` (following links) or, with `link`, of the link itself.
    static func status(_ path: String, link: Bool = false) -> stat? {
        var info = stat()
        return (link ? lstat(path, &info) : stat(path, &info)) == 0 ? info : nil
    }

    static func kind(_ path: String, link: Bool = false) -> mode_t? {
        status(path, link: link).map { $0.st_mode & S_IFMT }
    }

    /// A folder with `talk.srt` (``sampleSRT``) in it.
    static func folderWithInput() throws -> (folder: URL, input: String) {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("talk.srt")
        try sampleSRT.write(to: input, atomically: true, encoding: .utf8)
        return (folder, input.path)
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aFIFOStaysAFIFOAndReceivesTheOutput() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let fifo = folder.appendingPathComponent("out.vtt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Open the read end first (non-blocking, so no writer is needed yet): the converter's open
        // for writing then succeeds at once and the few hundred bytes fit in the pipe's buffer.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", fifo], io: io) == 0)
        #expect(io.errors.isEmpty)
        #expect(Self.kind(fifo, link: true) == S_IFIFO)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(reader, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n"))
        #expect(try Self.names(in: folder) == ["out.vtt", "talk.srt"])
    }

    @Test func devNullStaysACharacterDevice() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let before = try #require(Self.status("/dev/null"))
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", "/dev/null", "--to", "vtt"], io: io) == 0)
        #expect(io.errors.isEmpty)
        let after = try #require(Self.status("/dev/null", link: true))
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
    }

    /// A null device of our own (as root) and a link to it: neither is replaced. Unlike the
    /// /dev/null test, this one is harmless to run against code that does replace them.
    @Test(.enabled(if: geteuid() == 0)) func ownDeviceAndALinkToItAreWrittenInPlace() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let device = folder.appendingPathComponent("null.vtt").path
        let link = folder.appendingPathComponent("link.vtt").path
        let null = try #require(Self.status("/dev/null"))
        try #require(mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "null.vtt")
        #expect(run(["convert", input, "-o", device], io: MemoryIO()) == 0)
        #expect(run(["convert", input, "-o", link], io: MemoryIO()) == 0)
        #expect(Self.kind(device, link: true) == S_IFCHR)
        #expect(Self.kind(link, link: true) == S_IFLNK)
        #expect(try Self.names(in: folder) == ["link.vtt", "null.vtt", "talk.srt"])
    }

    @Test func devFullFailsWithExitOneAndStaysADevice() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        try #require(Self.kind("/dev/full") == S_IFCHR)
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", "/dev/full", "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("output.unwritable"))
        #expect(io.errors.contains(String(cString: strerror(ENOSPC))))
        #expect(Self.kind("/dev/full", link: true) == S_IFCHR)
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsReplaced() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let subfolder = folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
        let target = subfolder.appendingPathComponent("target.vtt")
        try "old".write(to: target, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link.vtt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/target.vtt")
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", link], io: io) == 0)
        #expect(io.errors.isEmpty)
        #expect(Self.kind(link, link: true) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/target.vtt")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("WEBVTT\n"))
        #expect(try Self.names(in: folder) == ["link.vtt", "real", "talk.srt"])
        #expect(try Self.names(in: subfolder) == ["target.vtt"])
    }

    @Test func aDanglingSymbolicLinkGetsItsTargetCreated() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let link = folder.appendingPathComponent("link.vtt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "new.vtt")
        #expect(run(["convert", input, "-o", link], io: MemoryIO()) == 0)
        #expect(Self.kind(link, link: true) == S_IFLNK)
        #expect(try String(contentsOf: folder.appendingPathComponent("new.vtt"), encoding: .utf8).hasPrefix("WEBVTT\n"))
    }

    /// Following a link ourselves must not bypass Linux's `protected_symlinks`: someone else's
    /// link in a sticky world-writable folder (the /tmp attack on root) is not followed.
    @Test(.enabled(if: geteuid() == 0)) func someoneElsesLinkInAStickyFolderIsNotFollowed() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let shared = folder.appendingPathComponent("shared").path
        try #require(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
        let victim = folder.appendingPathComponent("victim.vtt").path
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = shared + "/out.vtt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        try #require(lchown(link, 12345, 12345) == 0)
        let io = MemoryIO()
        #expect(run(["convert", input, "-o", link], io: io) == 1)
        #expect(io.errors.contains("output.unwritable"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(Self.kind(link, link: true) == S_IFLNK)
    }

    /// Renaming over a file needs only its folder's permission: a user who may not write a file
    /// (someone else's, or read-only) in a folder all may write to replaced it, where the shell
    /// and `cp` refuse. Run as `nobody` through `setpriv`, with the release CLI.
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path)))
    func aFileTheUserMayNotWriteIsNotReplaced() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        try #require(chmod(folder.path, 0o777) == 0 && chmod(input, 0o644) == 0)
        let victim = folder.appendingPathComponent("root.vtt").path
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        try #require(chmod(victim, 0o644) == 0)
        // A copy of the CLI that `nobody` may run wherever the checkout is.
        let cli = folder.appendingPathComponent("captions").path
        try FileManager.default.copyItem(atPath: BatchCommandTests.executable.path, toPath: cli)
        try #require(chmod(cli, 0o755) == 0)
        // A process another test starts while the copy is being written inherits its descriptor
        // until it runs its own program, and the copy cannot run meanwhile ("Text file busy"):
        // tried again after a moment.
        var (status, message): (Int32, String) = (0, "")
        for attempt in 0..<10 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", cli, "convert", input, "-o", victim]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            status = process.terminationStatus
            guard status == 126, message.contains("Text file busy"), attempt < 9 else { break }
            usleep(200_000)
        }
        #expect(status == 1)
        #expect(message.contains("output.unwritable"), "\(message)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test func aLinkToTheInputIsRefused() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let link = folder.appendingPathComponent("talk-link.srt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "talk.srt")
        #expect(run(["convert", input, "-o", link], io: MemoryIO()) == 64)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == sampleSRT)
        #expect(Self.kind(link, link: true) == S_IFLNK)
    }

    @Test func noCommandWritesOverItsInputAndEachSaysSoAsAUsageError() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let link = folder.appendingPathComponent("talk-link.srt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "talk.srt")
        let json = folder.appendingPathComponent("talk.json").path
        #expect(run(["convert", input, "-o", json, "--to", "podcast-json"], io: MemoryIO()) == 0)
        let converted = try String(contentsOfFile: json, encoding: .utf8)
        let map = folder.appendingPathComponent("names.json").path
        try #"{"A": "Ann"}"#.write(toFile: map, atomically: true, encoding: .utf8)
        for arguments in [
            ["check", input, "-o", link], ["check", input, "-o", input], ["fix", input, "-o", input],
            ["transcript", json, "-o", json], ["describe", "--dialogue", input, "--times-only", "-o", input],
            // One file with batch options, and a folder whose JSON captions' reports would be their own names.
            ["check", input, "-o", input, "--results", "jsonl"], ["check", folder.path, "--format", "json", "-o", folder.path],
            // Files read through options.
            ["convert", input, "--speakers", map, "-o", map], ["check", input, "--profile", map, "-o", map, "--format", "text"],
            ["transcript", input, "--descriptions", json, "-o", json],
        ] {
            let io = MemoryIO()
            #expect(run(arguments, io: io) == 64, "\(arguments)")
        }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == sampleSRT)
        #expect(try String(contentsOfFile: json, encoding: .utf8) == converted)
        #expect(try String(contentsOfFile: map, encoding: .utf8) == #"{"A": "Ann"}"#)
        // In a folder, only the file whose output would be itself is refused; the others are done.
        let mixed = folder.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: mixed, withIntermediateDirectories: true)
        try sampleSRT.write(to: mixed.appendingPathComponent("a.srt"), atomically: true, encoding: .utf8)
        #expect(run(["convert", input, "-o", mixed.appendingPathComponent("b.vtt").path], io: MemoryIO()) == 0)
        #expect(run(["convert", mixed.path, "--to", "vtt", "-o", mixed.path], io: MemoryIO()) == 64)
        let names = try Self.names(in: mixed).filter { !$0.hasPrefix(".") }
        #expect(names == ["a.srt", "a.vtt", "b.vtt"], "\(names)")
        // Said as a parse error is: with the subcommand's own usage, not the root's.
        let message = CheckCommand.usageMessage(for: ValidationError("the output is the input"))
        #expect(message.hasPrefix("Error: the output is the input\nUsage: captions check "))
        #expect(message.contains("See 'captions check --help'"))
    }

    @Test func aReplacedFileKeepsItsMode() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let output = folder.appendingPathComponent("out.vtt").path
        try "old".write(toFile: output, atomically: true, encoding: .utf8)
        for mode: mode_t in [0o600, 0o640, 0o755] {
            #expect(chmod(output, mode) == 0)
            #expect(run(["convert", input, "-o", output], io: MemoryIO()) == 0)
            #expect(Self.status(output).map { $0.st_mode & 0o7777 } == mode)
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("WEBVTT\n"))
    }

    #if os(Linux)
    @Test func aNewFileGetsTheUmaskMode() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        // The umask, read without changing it (tests run in parallel).
        let statusText = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(statusText.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let umask = try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        let output = folder.appendingPathComponent("new.vtt").path
        #expect(run(["convert", input, "-o", output], io: MemoryIO()) == 0)
        #expect(Self.status(output).map { $0.st_mode & 0o7777 } == 0o666 & ~umask)
    }
    #endif

    @Test func aStaleTemporaryFileOfAProcessThatIsGoneIsRemoved() throws {
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        // A process id that no longer runs: a child that has exited and been waited for.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        try #require(kill(dead, 0) != 0 && errno == ESRCH)
        let stale = ".out.vtt.captions-\(dead).tmp"
        let kept = [
            ".out.vtt.captions-1.tmp",  // process 1 always runs
            ".out.vtt.captions-x\(dead).tmp",  // not the pattern
            ".other.vtt.captions-\(dead).tmp",  // another output's
            "out.vtt.captions-\(dead).tmp",
        ]
        for name in [stale] + kept {
            try "partial".write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        let output = folder.appendingPathComponent("out.vtt").path
        #expect(run(["convert", input, "-o", output], io: MemoryIO()) == 0)
        #expect(try Self.names(in: folder) == (kept + ["out.vtt", "talk.srt"]).sorted())
    }

    @Test func theTemporaryFileIsNamedAfterTheOutputAndTheProcess() {
        #expect(FileAccess.temporaryPrefix(for: "out.vtt") == ".out.vtt.captions-")
        let long = String(repeating: "é", count: 127) + ".vtt"  // 258 bytes
        let prefix = FileAccess.temporaryPrefix(for: long)
        #expect(prefix.utf8.count + "4194304.tmp".utf8.count <= 255)
        #expect(prefix.hasPrefix(".éé") && prefix.hasSuffix("é.captions-"))
    }

    /// What the signal handler runs: registered files are removed, others are not.
    @Test func theCleanupRemovesRegisteredFilesOnly() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let registered = folder.appendingPathComponent(".a.vtt.captions-\(getpid()).tmp").path
        let forgotten = folder.appendingPathComponent(".b.vtt.captions-\(getpid()).tmp").path
        let other = folder.appendingPathComponent("c.vtt").path
        for path in [registered, forgotten, other] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        }
        let slot = try #require(TemporaryFileCleanup.register(registered))
        let forgottenSlot = try #require(TemporaryFileCleanup.register(forgotten))
        TemporaryFileCleanup.unregister(forgottenSlot)
        #expect(TemporaryFileCleanup.isRegistered(registered))
        #expect(!TemporaryFileCleanup.isRegistered(forgotten))
        // The handler's own loop, over this test's slots only: other tests' files (a video being
        // written by `dim` for minutes) are registered at the same time.
        TemporaryFileCleanup.removeRegisteredFiles(inSlots: [slot, forgottenSlot])
        TemporaryFileCleanup.unregister(slot)
        #expect(!FileManager.default.fileExists(atPath: registered))
        #expect(FileManager.default.fileExists(atPath: forgotten))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    #if os(Linux)  // posix_spawnattr_t and environ differ on Darwin
    /// The `captions` executable built beside this test bundle, if there is one.
    static let executable: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = folder.appendingPathComponent("captions")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }()

    /// A real process ended by a signal in the middle of writing, deterministically: a file size
    /// limit of 512 bytes makes the kernel send SIGXFSZ on the write that passes it. The handler
    /// removes the temporary file and the process still ends by that signal.
    @Test(.enabled(if: executable != nil)) func aSignalMidWriteRemovesTheTemporaryFile() throws {
        let executable = try #require(Self.executable)
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("long.srt")
        let cues = (0..<2000).map { "\($0 + 1)\n00:00:01,000 --> 00:00:02,000\nLine number \($0)\n" }
        try cues.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.vtt").path
        let status = try Self.spawnAndWait([
            "/bin/sh", "-c", "ulimit -f 1 && exec \"$0\" convert \"$1\" -o \"$2\" 2>/dev/null", executable.path, input.path, output,
        ])
        #expect(status & 0x7f == SIGXFSZ)  // ended by the signal, not by exit(1) after EFBIG
        #expect(try Self.names(in: folder) == ["long.srt"])
    }

    /// `-o /dev/stdout` (and `/dev/stderr`, `/dev/fd/N`) when the shell sent that descriptor to a
    /// file: written where the shell's other output goes, in order, appending under `>>`; the file
    /// was replaced, and what the shell wrote around the command was lost.
    @Test(.enabled(if: executable != nil)) func theShellsRedirectionsAreWrittenThroughNotReplaced() throws {
        let executable = try #require(Self.executable)
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("in.srt")
        try sampleSRT.write(to: input, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("log.txt").path
        try "EARLIER\n".write(toFile: log, atomically: true, encoding: .utf8)
        let inode = try #require(Self.status(log)).st_ino
        let script = """
            { echo BEFORE; "$0" convert "$1" --to srt -o /dev/stdout; echo BETWEEN; \
              "$0" convert "$1" --to srt -o /dev/fd/3 3>&1; echo AFTER; } >> "$2"
            """
        let status = try Self.spawnAndWait(["/bin/sh", "-c", script, executable.path, input.path, log])
        #expect(status == 0)
        #expect(try #require(Self.status(log)).st_ino == inode, "the file the shell opened is the one written")
        let cue = "1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n"
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("EARLIER\nBEFORE\n" + cue), "\(text)")
        #expect(text.components(separatedBy: cue).count == 3, "\(text)")
        #expect(text.contains("BETWEEN\n" + cue) && text.hasSuffix("AFTER\n"), "\(text)")
    }

    /// Runs `arguments` with an empty signal mask and default signal actions (a test runs on a
    /// thread that may block signals, and a child would inherit that), and returns its wait status.
    /// Standard output that cannot be written (a full disk, a closed stream) is an error, exit 1,
    /// not a truncated file and exit 0; with standard output closed, an output file does not take
    /// its descriptor (what went to standard output would have gone into the file).
    @Test(.enabled(if: executable != nil && FileManager.default.fileExists(atPath: "/dev/full")))
    func standardOutputThatCannotBeWrittenIsAnError() throws {
        let executable = try #require(Self.executable)
        let (folder, input) = try Self.folderWithInput()
        defer { removeTemporaryFolder(folder) }
        let errors = folder.appendingPathComponent("errors.txt").path
        for redirect in ["> /dev/full", ">&-"] {
            for command in ["convert \"$1\" --to vtt", "convert \"$1\" -o - --to vtt", "check \"$1\" --format json"] {
                let status = try Self.spawnAndWait(["/bin/sh", "-c", "exec \"$0\" \(command) \(redirect) 2> \"$2\"", executable.path, input, errors])
                #expect(status >> 8 & 0xff == 1, "\(command) \(redirect)")
                #expect(try String(contentsOfFile: errors, encoding: .utf8).contains("cannot write to standard output"), "\(command) \(redirect)")
            }
        }
        let output = folder.appendingPathComponent("out.vtt").path
        #expect(try Self.spawnAndWait(["/bin/sh", "-c", "exec \"$0\" convert \"$1\" -o \"$2\" >&-", executable.path, input, output]) == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("WEBVTT"))
    }

    static func spawnAndWait(_ arguments: [String]) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var handled = sigset_t()
        sigemptyset(&handled)
        // SIGPIPE too, whatever the list says: the test runner may ignore it, and a shell would not.
        for number in TemporaryFileCleanup.signals + [SIGPIPE] { sigaddset(&handled, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &handled)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], nil, &attributes, &cArguments, environ)
        try #require(spawned == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }
    #endif
}

import CaptionsCommands
import CaptionsCore
import CaptionsMedia
import Foundation
import Testing

/// `captions convert movie.mkv -o movie.vtt`: subtitle streams read out of media files.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg to make the media"))
struct EmbeddedSubtitleTests {
    static let subtitles = """
        1
        00:00:00,500 --> 00:00:02,000
        - Are you coming?
        - In a minute.

        2
        00:00:02,100 --> 00:00:04,900
        <i>(door slams)</i>

        """

    /// A 6-second clip in `folder` with the subtitles muxed as `codec` into `name`.
    private func movie(_ name: String, codec: String, in folder: URL) throws -> String {
        let video = ["-c:v", "libx264", "-preset", "ultrafast"]
        let srt = folder.appendingPathComponent("in.srt")
        try Self.subtitles.write(to: srt, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent(name).path
        #expect(FlashSamples.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=6", "-i", srt.path, "-map", "0", "-map", "1"] + video
                + ["-c:s", codec, output]))
        return output
    }

    @Test(arguments: [("movie.mkv", "srt"), ("movie.mkv", "ass"), ("movie.mp4", "mov_text")])
    func subtitleStreamsConvert(name: String, codec: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let io = MemoryIO()
        #expect(run(["convert", try movie(name, codec: codec, in: folder), "--to", "srt"], io: io) == 0)
        let text = io.outputText
        #expect(text.contains("1\n00:00:00,500 --> 00:00:02,000\n- Are you coming?\n- In a minute.\n"), "\(text)")
        #expect(text.contains("2\n00:00:02,100 --> 00:00:04,900\n"))
        #expect(text.contains("(door slams)"))
        if codec != "mov_text" { #expect(text.contains("<i>(door slams)</i>")) }
        #expect(!text.contains("3\n"))
        #expect(!io.errors.contains("media.subtitle."), "an intact file is not damaged: \(io.errors)")
    }

    @Test func aVideoWithoutSubtitlesIsAnError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("silent.mp4").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast", path]))
        let io = MemoryIO()
        #expect(run(["convert", path, "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("[media.subtitle.none]"))
    }

    @Test func mediaIsKnownByItsContentWhateverItsName() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // A Matroska file saved under a caption-like name, and under none.
        let movie = try movie("movie.mkv", codec: "srt", in: folder)
        for name in ["movie.txt", "movie"] {
            let renamed = folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: movie, toPath: renamed)
            let io = MemoryIO()
            #expect(run(["convert", renamed, "--to", "srt"], io: io) == 0, "\(io.errors)")
            #expect(io.outputText.contains("00:00:00,500 --> 00:00:02,000\n- Are you coming?"), "\(io.outputText)")
        }
        // Audio alone, given to the commands that read captions: what to run instead.
        let audio = folder.appendingPathComponent("episode.mp3").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", audio]))
        for command in ["convert", "transcript"] {
            let io = MemoryIO()
            #expect(run([command, audio, "--to", command == "convert" ? "vtt" : "text"], io: io) == 1)
            #expect(io.errors.contains("captions transcribe \(audio)"), "\(command): \(io.errors)")
            #expect(!io.errors.contains("SRT"))
        }
        // Media on standard input cannot be handed to FFmpeg.
        let io = MemoryIO()
        io.input = try Array(Data(contentsOf: URL(fileURLWithPath: audio)))
        #expect(run(["convert", "-", "--to", "vtt"], io: io) == 1)
        #expect(io.errors.contains("[input.media.stdin]"), "\(io.errors)")
    }

    // MARK: Damaged media says so (issue 15)

    static let spreadSubtitles = """
        1
        00:00:01,000 --> 00:00:03,000
        First cue

        2
        00:00:06,000 --> 00:00:08,000
        Second cue

        3
        00:00:11,000 --> 00:00:13,000
        Third cue

        """

    /// A 15-second clip (5 frames a second, a keyframe each second, a Matroska cluster every two
    /// seconds) with `spreadSubtitles` as `codec`, written bit-exactly so the bytes are the same
    /// on every run.
    private func spreadMovie(_ name: String, codec: String, in folder: URL, extra: [String] = []) throws -> URL {
        let srt = folder.appendingPathComponent("spread.srt")
        try Self.spreadSubtitles.write(to: srt, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent(name)
        #expect(FlashSamples.ffmpeg(
            ["-f", "lavfi", "-i", "color=c=black:s=64x48:r=5:d=15", "-i", srt.path, "-map", "0", "-map", "1",
             "-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-c:s", codec, "-fflags", "+bitexact"]
                + extra + [output.path]))
        return output
    }

    /// The file with `edit` applied to its bytes, written beside it as `name`.
    private func damaged(_ source: URL, _ name: String, _ edit: (inout [UInt8]) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: source))
        edit(&bytes)
        let target = source.deletingLastPathComponent().appendingPathComponent(name)
        try Data(bytes).write(to: target)
        return target.path
    }

    /// Where `text` first occurs in `bytes`.
    private func offset(of text: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Converts `path` to WebVTT with and without `--strict`: without, it is written (exit 0)
    /// with the warnings; with, it fails (exit 1) and writes nothing. Returns the output and the
    /// warnings of the first run.
    private func convertBothWays(_ path: String, in folder: URL) -> (output: String, errors: String) {
        let lenient = MemoryIO()
        let status = run(["convert", path, "--to", "vtt"], io: lenient)
        #expect(status == 0, "\(lenient.errors)")
        let target = folder.appendingPathComponent("strict.vtt")
        let strict = MemoryIO()
        #expect(run(["convert", path, "--strict", "-o", target.path], io: strict) == 1, "\(strict.errors)")
        #expect(strict.errors.contains("warnings are errors under --strict; nothing written"))
        #expect(!FileManager.default.fileExists(atPath: target.path), "--strict wrote a file for damaged media")
        return (lenient.outputText, lenient.errors)
    }

    @Test func aTruncatedMatroskaFileWarnsWhichCuesMayBeMissing() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let movie = try spreadMovie("movie.mkv", codec: "srt", in: folder)
        // Cut in the middle of the second cue's text: the rest of the file is gone.
        let path = try damaged(movie, "cut.mkv") { bytes in
            if let cut = offset(of: "Second cue", in: bytes) { bytes.removeSubrange((cut + 3)...) }
        }
        let (output, errors) = convertBothWays(path, in: folder)
        #expect(output.contains("First cue"))
        #expect(!output.contains("Third cue"))
        #expect(errors.contains("\(path):1:1: warning: "), "\(errors)")
        #expect(errors.contains("[media.subtitle.truncated]"), "\(errors)")
        #expect(errors.contains("cues between 00:00:01.000 and 00:00:15.000 may be missing"), "\(errors)")
    }

    @Test func damagedBytesInTheSecondCuesClusterWarnWithTheRangeBetweenGoodCues() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let movie = try spreadMovie("movie.mkv", codec: "srt", in: folder, extra: ["-cluster_time_limit", "2000"])
        // Zeros over the block header before the second cue's text: Matroska skips to the next
        // cluster, logging an error but returning none.
        let path = try damaged(movie, "damaged.mkv") { bytes in
            if let text = offset(of: "Second cue", in: bytes) {
                bytes.replaceSubrange((text - 20)..<(text - 4), with: repeatElement(0, count: 16))
            }
        }
        let (output, errors) = convertBothWays(path, in: folder)
        #expect(output.contains("First cue"))
        #expect(!output.contains("Second cue"))
        #expect(output.contains("Third cue"), "reading goes on after the damage")
        #expect(errors.contains("[media.subtitle.damaged]"), "\(errors)")
        #expect(errors.contains("cues between 00:00:01.000 and 00:00:11.000 may be missing"), "\(errors)")

        // The same through the library: a report with the range, no FFmpeg types.
        let contents = try SubtitleStreamReader.read(path: path)
        #expect(contents.packets.count == 2)
        #expect(contents.damage.map(\.kind) == [.damaged])
        #expect(contents.damage.first?.start == MediaTime(seconds: 1))
        #expect(contents.damage.first?.end == MediaTime(seconds: 11))
        #expect(try SubtitleStreamReader.read(path: movie.path).damage.isEmpty)
    }

    @Test func aCueWhoseTextIsNotUTF8IsReportedAsDamaged() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let movie = try spreadMovie("movie.mkv", codec: "srt", in: folder)
        let path = try damaged(movie, "garbled.mkv") { bytes in
            if let text = offset(of: "Second", in: bytes) { bytes.replaceSubrange(text..<(text + 3), with: [0xFF, 0xFE, 0xC3]) }
        }
        let (output, errors) = convertBothWays(path, in: folder)
        #expect(output.contains("First cue") && output.contains("Third cue"))
        #expect(errors.contains("[media.subtitle.damaged]"), "\(errors)")
        #expect(errors.contains("the cue between 00:00:06.000 and 00:00:08.000 is damaged (its text is not valid UTF-8)"), "\(errors)")
    }

    @Test func aTruncatedMP4FileWarnsWhichCuesMayBeMissing() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // The index first (faststart), so that the cut leaves it whole and only data is lost.
        let movie = try spreadMovie("movie.mp4", codec: "mov_text", in: folder, extra: ["-movflags", "+faststart"])
        let path = try damaged(movie, "cut.mp4") { bytes in
            if let cut = offset(of: "Second cue", in: bytes) { bytes.removeSubrange((cut + 3)...) }
        }
        let (output, errors) = convertBothWays(path, in: folder)
        #expect(output.contains("First cue"))
        #expect(!output.contains("Third cue"))
        #expect(errors.contains("[media.subtitle.truncated]"), "\(errors)")
        #expect(errors.contains("and 00:00:15.000 may be missing"), "\(errors)")
    }

    @Test(arguments: [("movie.mkv", "srt"), ("movie.mp4", "mov_text"), ("movie.webm", "webvtt")])
    func intactFilesHaveNoDamageWarning(name: String, codec: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let extra = codec == "webvtt" ? ["-c:v", "libvpx-vp9", "-deadline", "realtime"] : []
        let movie = try spreadMovie(name, codec: codec, in: folder, extra: extra)
        let io = MemoryIO()
        #expect(run(["convert", movie.path, "--strict", "--to", "srt"], io: io) == 0, "\(io.errors)")
        #expect(!io.errors.contains("media.subtitle."), "\(io.errors)")
        #expect(io.outputText.contains("Third cue"))
    }
}

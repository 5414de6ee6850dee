import CaptionsCommands
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
}

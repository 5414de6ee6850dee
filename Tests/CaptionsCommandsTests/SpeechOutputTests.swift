@testable import CaptionsCommands
@testable import CaptionsFormats
import Testing

/// Where `transcribe` and `align` write, and how the page links its media.
struct SpeechOutputTests {
    @Test func theFormatComesFromTheExtensionElseWebVTT() throws {
        func name(_ target: CaptionsOrTranscript) -> String {
            switch target {
            case .captions(let format): format.rawValue
            case .transcript(let format): format.rawValue
            }
        }
        #expect(name(try CaptionsOrTranscript(to: nil, output: "subs")) == name(.captions(.webvtt)))
        #expect(name(try CaptionsOrTranscript(to: nil, output: "out.d/episode")) == name(.captions(.webvtt)))
        #expect(name(try CaptionsOrTranscript(to: nil, output: "episode.srt")) == name(.captions(.srt)))
        #expect(name(try CaptionsOrTranscript(to: nil, output: "episode.html")) == "html")
        #expect(name(try CaptionsOrTranscript(to: "md", output: "-")) == "md")
        #expect(throws: (any Error).self) { try CaptionsOrTranscript(to: "xyz", output: "-") }
    }

    @Test func mediaLinksArePercentEncoded() {
        #expect(XMLText.urlPath("episode #12?.mp3") == "episode%20%2312%3F.mp3")
        #expect(XMLText.urlPath("shows/é.mp3") == "shows/%C3%A9.mp3")
        // An address on the web stays one (it was made a relative path: https%3A//…).
        #expect(XMLText.mediaSource("https://host/a b.mp3?t=1#x") == "https://host/a%20b.mp3?t=1#x")
        #expect(XMLText.mediaSource("episode #12?.mp3") == "episode%20%2312%3F.mp3")
        #expect(XMLText.mediaSource("javascript:alert(1)") == "javascript%3Aalert%281%29")
    }

    /// The page made from a recording links it from the page's own folder, by the names given.
    @Test func thePageLinksTheRecordingFromItsOwnFolder() {
        #expect(RelativeLink.to("/shows/ep1.mp3", fromPageAt: "/shows/ep1.html") == "ep1.mp3")
        #expect(RelativeLink.to("/shows/audio/ep1.mp3", fromPageAt: "/shows/pages/ep1.html") == "../audio/ep1.mp3")
        #expect(RelativeLink.to("/shows/ep1.mp3", fromPageAt: "/site/a/b/ep1.html") == "../../../shows/ep1.mp3")
        #expect(RelativeLink.to("/shows/./x/../ep1.mp3", fromPageAt: "/shows/pages/./ep1.html") == "../ep1.mp3")
        // A folder named as the file is not taken for it.
        #expect(RelativeLink.to("/a/ep1", fromPageAt: "/a/ep1/page.html") == "../ep1")
        // Relative paths from the current folder, and standard output (the link as given).
        #expect(RelativeLink.to("audio/ep1.mp3", fromPageAt: "pages/ep1.html") == "../audio/ep1.mp3")
        #expect(RelativeLink.to("audio/ep1.mp3", fromPageAt: "-") == "audio/ep1.mp3")
    }

    /// A script that cannot be read is named in the error, not the recording (`sp1.wav: error:
    /// No such file or directory` sent people looking for the audio).
    @Test func alignNamesTheScriptItCannotRead() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let recording = folder.appendingPathComponent("sp1.wav").path
        for (script, why) in [
            (folder.appendingPathComponent("nothere.txt").path, "No such file or directory [input.missing]"),
            (folder.path, "is a folder, not a file [input.unreadable]"),
        ] {
            let io = MemoryIO()
            #expect(run(["align", recording, "--text", script], io: io) == 1)
            #expect(io.errors == "\(script): error: cannot read the script (--text): \(why)\n", "\(io.errors)")
        }
    }
}

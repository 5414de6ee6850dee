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
}

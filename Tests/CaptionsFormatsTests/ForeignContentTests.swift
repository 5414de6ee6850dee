import CaptionsFormats
import Testing

/// Files that are not captions are told by their first bytes; caption text never is.
@Suite struct ForeignContentTests {
    @Test func containersAndDocumentsAreNamed() {
        var transport = [UInt8](repeating: 0xFF, count: 600)
        // Packet headers: sync byte, PID 0 (the programme table) with a payload, continuity 0.
        for packet in 0..<3 { transport.replaceSubrange(packet * 188..<packet * 188 + 4, with: [0x47, 0x40, 0x00, 0x10]) }
        var m2ts = [UInt8](repeating: 0xFF, count: 600)
        for packet in 0..<3 { m2ts.replaceSubrange(4 + packet * 192..<8 + packet * 192, with: [0x47, 0x40, 0x00, 0x10]) }
        // Sync bytes alone, among text, are not enough.
        #expect(ForeignContent.identify(transport.map { $0 == 0x47 ? 0x47 : 0x20 }) == nil)
        #expect(ForeignContent.identify(transport) == .media("an MPEG transport stream"))
        #expect(ForeignContent.identify(m2ts) == .media("an MPEG transport stream"))
        #expect(ForeignContent.identify([0, 0, 0, 0x18] + Array("ftypisom".utf8)) == .media("an MP4 or QuickTime file"))
        #expect(ForeignContent.identify([0, 0, 1, 0xBA, 0x44]) == .media("an MPEG program stream"))
        #expect(ForeignContent.identify(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .media("a WAV file"))
        // RIFF that is neither AVI nor WAV is not taken for either.
        #expect(ForeignContent.identify(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == nil)
        guard case .document(let name, _) = ForeignContent.identify(Array("{\\rtf1\\ansi".utf8)) else {
            Issue.record("RTF not named")
            return
        }
        #expect(name.hasPrefix("an RTF document"))
    }

    @Test func captionTextIsNeverForeign() {
        let texts = [
            "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n", "1\n00:00:01,000 --> 00:00:02,000\nHi\n", "{\"version\": \"1.0.0\"}",
            "<tt xmlns=\"http://www.w3.org/ns/ttml\"/>", "[Script Info]\n", "Scenarist_SCC V1.0\n", "{1}{25}Hi\n",
            // A line of G at the three places a transport stream's packets start still needs the bytes between.
            String(repeating: "G", count: 400),
        ]
        for text in texts { #expect(ForeignContent.identify(Array(text.utf8)) == nil, "\(text.prefix(20))") }
        // UTF-16 text, with its byte order mark either way round, and UTF-8's.
        for bom: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB, 0xBF]] {
            #expect(ForeignContent.identify(bom + [0x31, 0, 0x0A, 0]) == nil)
        }
    }
}

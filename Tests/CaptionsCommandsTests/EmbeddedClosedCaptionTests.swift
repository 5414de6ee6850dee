import CaptionsCommands
import CaptionsCore
import Foundation
import Testing

/// `captions convert news.ts -o news.vtt`: CEA-608 captions carried in a video's pictures.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs FFmpeg"))
struct EmbeddedClosedCaptionTests {
    static let dialogue = """
        1
        00:00:01,000 --> 00:00:03,000
        Are you coming?

        2
        00:00:03,500 --> 00:00:06,000
        In a minute.
        I'm nearly done.

        3
        00:00:07,000 --> 00:00:09,000
        <i>(door slams)</i>

        """

    /// An SCC file written by `captions convert` from `dialogue` (`mode`: pop-on or roll-up).
    private func scc(mode: String, in folder: URL) throws -> URL {
        let srt = folder.appendingPathComponent("dialogue.srt")
        try Self.dialogue.write(to: srt, atomically: true, encoding: .utf8)
        let scc = folder.appendingPathComponent("dialogue-\(mode).scc")
        #expect(run(["convert", srt.path, "-o", scc.path, "--scc-mode", mode], io: MemoryIO()) == 0)
        return scc
    }

    /// SRT cues as (start ms, end ms, text) read back from `captions convert … --to srt`.
    static func cues(_ srt: String) -> [(start: Int, end: Int, text: String)] {
        srt.replacing("\r\n", with: "\n").split(separator: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 3, let arrow = lines[1].range(of: " --> ") else { return nil }
            func ms(_ text: Substring) -> Int? {
                let parts = text.split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Int($0) }
                return parts.count == 4 ? ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + parts[3] : nil
            }
            guard let start = ms(lines[1][..<arrow.lowerBound]), let end = ms(lines[1][arrow.upperBound...]) else { return nil }
            return (start, end, lines[2...].joined(separator: "\n"))
        }
    }

    private func convert(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let io = MemoryIO()
        let status = run(["convert"] + arguments + ["--to", "srt"], io: io)
        return (status, io.outputText, io.errors)
    }

    /// The captions come out of the video as the SCC file they were made from reads: same text,
    /// same times to within a frame, from an MPEG-2 transport stream and from H.264 in MP4.
    @Test(arguments: [("pop-on", "mpeg2video", "ts"), ("roll-up", "mpeg2video", "ts"), ("pop-on", "libx264", "mp4"), ("roll-up", "libx264", "mp4")])
    func captionsInVideoReadAsTheirSCCFile(mode: String, encoder: String, container: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let scc = try scc(mode: mode, in: folder)
        let (pictures, offset, _) = ClosedCaptionClip.pictures(fromSCC: try String(contentsOf: scc, encoding: .utf8))
        let clip = folder.appendingPathComponent("news.\(container)").path
        try ClosedCaptionClip.write(pictures, encoder: encoder, to: clip)

        let fromSCC = convert([scc.path])
        let fromVideo = convert([clip])
        #expect(fromSCC.status == 0 && fromVideo.status == 0, "\(fromVideo.errors)")
        #expect(!fromVideo.errors.contains("[media.") && !fromVideo.errors.contains("[scc."), "an intact clip reads cleanly: \(fromVideo.errors)")
        let expected = Self.cues(fromSCC.output), read = Self.cues(fromVideo.output)
        #expect(read.map(\.text) == expected.map(\.text), "\(fromVideo.output)")
        #expect(read.count >= 3, "\(fromVideo.output)")
        let shift = Int((Double(offset) * 1001 / 30).rounded())
        for (got, want) in zip(read, expected) {
            #expect(abs(got.start + shift - want.start) <= 34, "\(got) against \(want)")
            if got != read.last! { #expect(abs(got.end + shift - want.end) <= 34, "\(got) against \(want)") }
        }
        // The words themselves, as the source said them (pop-on keeps the lines).
        let text = read.map(\.text).joined(separator: "\n")
        for words in ["Are you coming?", "In a minute.", "I'm nearly done.", "(door slams)"] {
            #expect(text.contains(words), "\(words) in \(text)")
        }
    }

    /// The SCC files of the real-world corpus (those under two minutes from first to last code,
    /// at 29.97, one pair a frame without overlap), carried in MPEG-2 video, read as the files do.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Self.realWorld.path)))
    func realWorldSCCFilesCarriedInVideoReadAsTheFiles() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let files = FileManager.default.enumerator(at: Self.realWorld, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension.lowercased() == "scc" }.sorted { $0.path < $1.path } ?? []
        var compared = 0, agreeing = 0
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let (pictures, offset, collisions) = ClosedCaptionClip.pictures(fromSCC: text)
            guard collisions == 0, pictures.count < 3600 else { continue }
            let clip = folder.appendingPathComponent("clip.ts").path
            try ClosedCaptionClip.write(pictures, encoder: "mpeg2video", to: clip)
            let expected = Self.cues(convert([file.path]).output), read = Self.cues(convert([clip]).output)
            guard !expected.isEmpty else { continue }
            compared += 1
            let shift = Int((Double(offset) * 1001 / 30).rounded())
            let same = read.count == expected.count && zip(read, expected).allSatisfy {
                $0.text == $1.text && abs($0.start + shift - $1.start) <= 34
            }
            #expect(same, "\(file.lastPathComponent): \(read.prefix(3)) against \(expected.prefix(3))")
            if same { agreeing += 1 }
        }
        #expect(compared >= 10, "\(compared) files compared")
        print("real-world SCC in MPEG-2 video: \(agreeing) of \(compared) read as their SCC file")
    }

    static let realWorld = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/realworld")

    /// FFmpeg's own 608 decoder (`ccaption`, through the movie filter's `+subcc` output) reads the
    /// same words from the same clip: the clip really carries 608 captions, and we read all of them.
    @Test func ffmpegReadsTheSameWords() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let scc = try scc(mode: "pop-on", in: folder)
        let clip = folder.appendingPathComponent("news.ts").path
        try ClosedCaptionClip.write(ClosedCaptionClip.pictures(fromSCC: try String(contentsOf: scc, encoding: .utf8)).pictures, encoder: "mpeg2video", to: clip)
        let peer = folder.appendingPathComponent("peer.srt")
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "movie=\(clip)[out0+subcc]", "-map", "0:1", peer.path]))
        // FFmpeg writes positions as ASS tags ({\an7}, \h for a leading space) and 0x27 as ’.
        func words(_ text: String) -> [Substring] {
            Self.cues(text).flatMap {
                $0.text.replacing(/<[^>]*>|\{[^}]*\}|\\h/, with: " ").replacing("’", with: "'").split(whereSeparator: \.isWhitespace)
            }
        }
        let theirs = words(try String(contentsOf: peer, encoding: .utf8))
        let ours = words(convert([clip]).output)
        #expect(!theirs.isEmpty)
        #expect(ours == theirs)
    }

    /// Channel CC3 rides on field 2: `--channel 3` reads it; channel 1 is empty and says where to look.
    @Test func channelThreeIsReadFromFieldTwo() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let scc = try scc(mode: "pop-on", in: folder)
        let (pictures, _, _) = ClosedCaptionClip.pictures(fromSCC: try String(contentsOf: scc, encoding: .utf8), field2: true)
        let clip = folder.appendingPathComponent("news.ts").path
        try ClosedCaptionClip.write(pictures, encoder: "mpeg2video", to: clip)
        let third = convert([clip, "--channel", "3"])
        #expect(third.status == 0)
        #expect(Self.cues(third.output).map(\.text) == Self.cues(convert([scc.path]).output).map(\.text))
        let first = convert([clip])
        #expect(Self.cues(first.output).isEmpty)
        #expect(first.errors.contains("[cea608.captions.none]") && first.errors.contains("--channel 3"), "\(first.errors)")
    }

    /// CEA-708 service blocks in the same A/53 data (`cc_type` 3 and 2) come out of an H.264
    /// clip when it carries no 608, and by `--service N` beside it.
    @Test(arguments: ["libx264", "mpeg2video"])
    func cea708ServicesComeOutOfTheVideo(encoder: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // Service 1 (picture 10): DefineWindow 0, visible, anchored bottom centre; "Hello 708".
        // Service 2 (picture 11): the same window with "Hola". Picture 70: DeleteWindows 0 (service 1).
        let window: [UInt8] = [0x98, 0x20, 0x80 | 90, 50, 0x71, 31, 0x00]
        func triplets(sequence: UInt8, service: UInt8, _ bytes: [UInt8]) -> [UInt8] {
            var packet: [UInt8] = [0, service << 5 | UInt8(bytes.count)] + bytes
            if packet.count % 2 == 1 { packet.append(0) }
            packet[0] = sequence << 6 | UInt8(packet.count / 2)
            var result: [UInt8] = []
            for pair in stride(from: 0, to: packet.count, by: 2) {
                result += [pair == 0 ? 0xFF : 0xFE, packet[pair], packet[pair + 1]]
            }
            return result
        }
        let packet1 = triplets(sequence: 0, service: 1, window + Array("Hello 708".utf8))
        let packet2 = triplets(sequence: 1, service: 2, window + Array("Hola".utf8))
        let packet3 = triplets(sequence: 2, service: 1, [0x8C, 0x01])
        var pictures = [[UInt8]](repeating: [0xFC, 0x80, 0x80, 0xFD, 0x80, 0x80], count: 100)
        pictures[10] += packet1
        pictures[11] += packet2
        pictures[70] += packet3
        let clip = folder.appendingPathComponent(encoder == "libx264" ? "news.mp4" : "news.ts").path
        try ClosedCaptionClip.write(pictures, encoder: encoder, to: clip)
        let result = convert([clip, "-v"])
        #expect(result.status == 0, "\(result.errors)")
        let cues = Self.cues(result.output)
        #expect(cues.map { $0.text.trimmingCharacters(in: .newlines) } == ["Hello 708"], "\(result.output)")
        #expect(cues.first.map { abs($0.start - 334) <= 1 && abs($0.end - 2336) <= 1 } == true, "\(cues)")
        #expect(result.errors.contains("[cea708.service.chosen]"))
        #expect(Self.cues(convert([clip, "--service", "2"]).output).map { $0.text.trimmingCharacters(in: .newlines) } == ["Hola"])
    }

    /// `captions dim` re-encodes the pictures and keeps the captions they carry.
    @Test func dimmingKeepsTheCaptions() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let scc = try scc(mode: "pop-on", in: folder)
        let clip = folder.appendingPathComponent("news.mp4").path
        try ClosedCaptionClip.write(ClosedCaptionClip.pictures(fromSCC: try String(contentsOf: scc, encoding: .utf8)).pictures, encoder: "libx264", to: clip)
        let dimmed = folder.appendingPathComponent("dimmed.mp4").path
        #expect(run(["dim", clip, "-o", dimmed], io: MemoryIO()) == 0)
        let before = Self.cues(convert([clip]).output), after = Self.cues(convert([dimmed]).output)
        #expect(before.count >= 3)
        #expect(after.map(\.text) == before.map(\.text))
    }

    /// A video without caption data, or an audio file, is refused with `media.subtitle.none`.
    @Test func aVideoWithoutCaptionsSaysSo() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let clip = folder.appendingPathComponent("plain.ts").path
        try ClosedCaptionClip.write(Array(repeating: [], count: 30), encoder: "mpeg2video", to: clip)
        let result = convert([clip])
        #expect(result.status == 1)
        #expect(result.errors.contains("[media.subtitle.none]") && result.errors.contains("no closed captions"), "\(result.errors)")
    }

    /// Damage in the video is reported with its time range, and the captions around it still come out.
    @Test func damagedVideoIsReportedWithTheCaptionsAroundIt() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let scc = try scc(mode: "pop-on", in: folder)
        let clip = folder.appendingPathComponent("news.ts")
        try ClosedCaptionClip.write(ClosedCaptionClip.pictures(fromSCC: try String(contentsOf: scc, encoding: .utf8)).pictures, encoder: "mpeg2video", to: clip.path)
        var bytes = try Data(contentsOf: clip)
        // Two seconds' worth of transport packets in the middle (from 4 s on) lost.
        let packetsPerSecond = bytes.count / 188 / 10
        let from = 188 * packetsPerSecond * 4, to = from + 188 * packetsPerSecond * 2
        bytes.removeSubrange(from..<to)
        try bytes.write(to: clip)
        let result = convert([clip.path])
        #expect(result.status == 0)
        #expect(result.errors.contains("[media.subtitle.damaged]"), "\(result.errors)")
        #expect(Self.cues(result.output).contains { $0.text.contains("Are you coming?") })
    }
}

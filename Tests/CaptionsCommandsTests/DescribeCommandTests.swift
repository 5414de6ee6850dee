import CaptionsCore
import CaptionsFormats
import Foundation
import Testing

/// `captions describe` on the film sample, as Samples/README.md shows it.
@Suite struct DescribeCommandTests {
    func sample(_ name: String) -> String { SampleTests.samples.appendingPathComponent(name).path }

    private func describe(_ extra: [String]) -> MemoryIO {
        let io = MemoryIO()
        let status = run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"), "--duration", "40s", "--no-speech-timing"] + extra, io: io)
        #expect(status == 0, "\(io.errors)")
        return io
    }

    @Test func webVTTDescriptionsFitThePausesAndTheMisfitIsReported() throws {
        let io = describe([])
        let document = try WebVTTReader().read(io.output)
        #expect(io.outputText.hasPrefix("WEBVTT\nKind: descriptions\n"))
        #expect(document.cues.map(\.id) == ["d1", "d2", "d4.1", "d4.2", "d5"])
        let dialogue = try WebVTTReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: sample("film.vtt")))))
        for description in document.cues {
            for line in dialogue.cues { #expect(description.end! <= line.start || description.start >= line.end!) }
        }
        #expect(io.errors.contains("film.descriptions.csv:4:1: warning: no pause fits this description at 00:00:18.000"))
        #expect(io.errors.contains("[describe.no-fit]"))
        #expect(io.errors.contains("4 of 5 descriptions placed in 5 cues"))
    }

    /// The audio preview is an output like `-o`: never over the dialogue, the script or `-o`.
    @Test func theAudioPreviewNeverReplacesAnInputOrTheOutput() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let dialogue = folder.appendingPathComponent("dialogue.vtt").path
        let script = folder.appendingPathComponent("script.csv").path
        let output = folder.appendingPathComponent("described.vtt").path
        try FileManager.default.copyItem(atPath: sample("film.vtt"), toPath: dialogue)
        try FileManager.default.copyItem(atPath: sample("film.descriptions.csv"), toPath: script)
        let before = try [dialogue, script].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for speak in [dialogue, script, output] {
            let io = MemoryIO()
            let status = run(["describe", "--script", script, "--dialogue", dialogue, "-o", output, "--speak", speak, "--no-speech-timing"], io: io)
            #expect(status == 64, "\(speak): \(io.errors)")
        }
        #expect(try [dialogue, script].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func strictExitsOneWhenADescriptionDoesNotFit() {
        let io = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"), "--strict"], io: io) == 1)
        #expect(io.errors.contains(": error: no pause fits"))
    }

    @Test func daptCarriesEveryMandatoryAttributeAndTheSameTimes() throws {
        let vtt = try WebVTTReader().read(describe([]).output)
        let io = describe(["--format", "dapt", "--speak-tag"])
        for attribute in ["ttp:contentProfiles=\"\(DAPTWriter.contentProfile)\"", "daptm:scriptType=\"preRecording\"",
                          "daptm:scriptRepresents=\"visual.nonText visual.text\"", "daptm:langSrc=\"zxx\"", "xml:lang=\"en\"",
                          "xml:id=\"d4.2\"", "tta:speak=\"normal\""] {
            #expect(io.outputText.contains(attribute), "\(attribute)")
        }
        let dapt = try TTMLReader().read(io.output)
        #expect(dapt.cues.map(\.plainText) == vtt.cues.map(\.plainText))
        #expect(dapt.cues.map(\.start) == vtt.cues.map(\.start))
        #expect(dapt.cues.map(\.end) == vtt.cues.map(\.end))
    }

    @Test func timesOnlyWritesThePausesAsEmptyEvents() throws {
        let io = MemoryIO()
        #expect(run(["describe", "--times-only", "--dialogue", sample("film.vtt"), "--duration", "40s", "--format", "dapt"], io: io) == 0)
        #expect(io.outputText.components(separatedBy: "<div xml:id=\"gap").count - 1 == 5)
        #expect(io.outputText.contains("<div xml:id=\"gap3\" begin=\"00:00:18.250\" end=\"00:00:19.250\"/>"))
    }

    @Test func aBadScriptRowIsAnErrorWithItsPosition() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID()).csv")
        try "start,end,text\n00:00:10,00:00:05,Backwards.\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let io = MemoryIO()
        #expect(run(["describe", "--script", script.path, "--dialogue", sample("film.vtt")], io: io) == 1)
        #expect(io.errors.contains("\(script.path):2:1: error: the end is not after the start [describe.script.end-before-start]"))
        #expect(io.output.isEmpty)
    }
}

extension DescribeCommandTests {
    @Test func anEmptyDialogueWithoutADurationIsAnError() throws {
        let dialogue = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).vtt")
        try "WEBVTT\n".write(to: dialogue, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: dialogue) }
        let io = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", dialogue.path], io: io) == 1)
        #expect(io.errors.contains("[describe.dialogue.empty]"))
        let withDuration = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", dialogue.path, "--duration", "60s"], io: withDuration) == 0)
        #expect(withDuration.errors.contains("5 of 5 descriptions placed"))
    }

    @Test func theTimelineLengthComesFromTheVideo() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let video = folder.appendingPathComponent("film.mp4")
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=64x36:r=10:d=40", video.path]))
        let io = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"), "--media", video.path, "--no-speech-timing"], io: io) == 0)
        #expect(io.outputText.contains("d5\n00:00:31.500 --> 00:00:37.875\n"))
        let missing = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"), "--media", folder.appendingPathComponent("none.mp4").path], io: missing) == 1)
        #expect(missing.errors.contains("[media.open]"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng"), "needs espeak-ng"))
    func espeakMeasuresSpokenLengths() throws {
        let estimated = try WebVTTReader().read(describe([]).output)
        let io = MemoryIO()
        #expect(run(["describe", "--script", sample("film.descriptions.csv"), "--dialogue", sample("film.vtt"), "--duration", "40s"], io: io) == 0)
        #expect(io.errors.contains("spoken lengths measured with espeak-ng"))
        let measured = try WebVTTReader().read(io.output)
        #expect(measured.cues.map(\.plainText) == estimated.cues.map(\.plainText))
        #expect(measured.cues.map(\.end) != estimated.cues.map(\.end))
        let dialogue = try WebVTTReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: sample("film.vtt")))))
        for description in measured.cues {
            #expect(description.end! > description.start)
            for line in dialogue.cues { #expect(description.end! <= line.start || description.start >= line.end!) }
        }
    }

    @Test(.enabled(if: ["espeak-ng", "ffmpeg"].allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }, "needs espeak-ng and ffmpeg"))
    func speakRendersAPreviewTrackAsLongAsTheMedia() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let preview = folder.appendingPathComponent("preview.wav")
        let io = describe(["--speak", preview.path])
        #expect(io.errors.contains("audio preview written to"))
        let wav = try Data(contentsOf: preview)
        #expect(wav.starts(with: Array("RIFF".utf8)))
        // 40 s of 16-bit mono at 22050 Hz, plus the header.
        #expect((1_764_000...1_764_200).contains(wav.count), "\(wav.count)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["preview.wav"])
    }
}

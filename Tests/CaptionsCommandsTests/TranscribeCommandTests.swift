@testable import CaptionsCommands
import CaptionsCore
import CaptionsMedia
import CaptionsSpeech
import Foundation
import Testing

/// `captions transcribe` on real read speech: LibriVox recordings that ship in Debian's
/// `pocketsphinx-testdata`, with their reference transcriptions.
@Suite(.serialized)
struct TranscribeCommandTests {
    static let librivox = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
    static var speechInstalled: Bool { if case .success = SpeechInstallation.find() { true } else { false } }
    static var available: Bool {
        speechInstalled && FileManager.default.fileExists(atPath: librivox.appendingPathComponent("transcription").path)
            && FlashSamples.available
    }

    /// The utterances and their reference words, in file order.
    static func utterances() throws -> [(file: String, words: [String])] {
        try String(contentsOf: librivox.appendingPathComponent("transcription"), encoding: .utf8)
            .split(separator: "\n").compactMap { line in
                guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
                let id = line[line.index(after: open)..<close]
                let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }.map(String.init)
                return (librivox.appendingPathComponent(id + ".wav").path, words)
            }
    }

    /// Lower case, letters, digits and apostrophes only; hyphenated words split.
    static func normalised(_ text: String) -> [String] {
        text.lowercased().replacing("mr.", with: "mister").split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
    }

    /// Word error rate: word edits (substitutions, insertions, deletions) over reference words.
    static func wordErrorRate(_ hypothesis: [String], _ reference: [String]) -> Double {
        var previous = Array(0...hypothesis.count)
        for (i, word) in reference.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: hypothesis.count)
            for (j, other) in hypothesis.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (word == other ? 0 : 1))
            }
            previous = current
        }
        return Double(previous[hypothesis.count]) / Double(max(reference.count, 1))
    }

    @Test func theWordErrorRateMeasureCounts() {
        #expect(Self.wordErrorRate(["a", "b", "c"], ["a", "b", "c"]) == 0)
        #expect(Self.wordErrorRate(["a", "x", "c", "d"], ["a", "b", "c"]) == 2.0 / 3)
    }

    @Test(.enabled(if: available, "needs the speech recogniser (Scripts/install-speech.sh), pocketsphinx-testdata and ffmpeg"))
    func readSpeechIsTranscribedWithinEightPercentWordErrors() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterances = try Self.utterances()
        #expect(utterances.count == 5)
        let list = folder.appendingPathComponent("list.txt")
        try utterances.map { "file '\($0.file)'" }.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let episode = folder.appendingPathComponent("episode.m4a").path
        #expect(FlashSamples.ffmpeg(["-f", "concat", "-safe", "0", "-i", list.path, "-c:a", "aac", episode]))
        let output = folder.appendingPathComponent("episode.vtt").path
        let io = MemoryIO()
        #expect(run(["transcribe", episode, "-o", output, "-q"], io: io) == 0, "\(io.errors)")
        let vtt = try String(contentsOfFile: output, encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT"))
        #expect(vtt.contains("NOTE Machine-generated"))
        // The cues' text: not the header (`WEBVTT`, `Language: en`), the note or the timings.
        let text = vtt.split(separator: "\n\n").dropFirst().filter { !$0.hasPrefix("NOTE") }
            .flatMap { $0.split(separator: "\n").filter { !$0.contains("-->") } }.joined(separator: " ")
        let reference = utterances.flatMap(\.words)
        let rate = Self.wordErrorRate(Self.normalised(text), Self.normalised(reference.joined(separator: " ")))
        #expect(rate <= 0.08, "word error rate \(rate): \(text)")
        print("transcribe: word error rate \(rate) on \(reference.count) words of LibriVox (Whisper base, beam 5)")
    }

    /// Our machine-generated note goes only where comments go: SRT under `--strict` is written
    /// (the note's loss made every strict SRT transcript fail).
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func strictSRTIsWrittenWithoutOurNote() throws {
        let io = MemoryIO()
        let utterance = try Self.utterances()[1].file
        #expect(run(["transcribe", utterance, "--to", "srt", "--strict", "--model", "tiny.en", "--beam", "1", "-q"], io: io) == 0, "\(io.errors)")
        #expect(io.outputText.contains(" --> ") && !io.outputText.contains("Machine-generated"), "\(io.outputText)")
    }

    /// `--progress json` reports a single file too: lines with the position reached in the
    /// recording, the last one `"done": true` at the end of it.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func progressAsJSONIsReportedForOneFile() throws {
        let io = MemoryIO()
        let utterance = try Self.utterances()[1].file
        #expect(run(["transcribe", utterance, "--to", "srt", "--model", "tiny.en", "--beam", "1", "--progress", "json"], io: io) == 0, "\(io.errors)")
        let lines = io.errors.split(separator: "\n").filter { $0.hasPrefix("{") }
        let last = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }, "\(io.errors)")
        #expect(last["done"] as? Bool == true && (last["segments"] as? Int ?? 0) >= 1, "\(last)")
        let duration = try #require(last["duration"] as? Double)
        #expect(duration > 1 && abs((last["position"] as? Double ?? 0) - duration) < 2, "\(last)")
    }

    /// A sentence said three times with pauses between is written three times: Whisper leaves
    /// out what it has just written, and the stretches of speech it heard nothing in are listened
    /// to again; the repeats are not collapsed as a loop.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func aSentenceSaidAgainAfterAPauseIsWrittenEachTime() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterance = try Self.utterances()[1]
        let thrice = folder.appendingPathComponent("thrice.wav").path
        #expect(FlashSamples.ffmpeg([
            "-i", utterance.file, "-filter_complex", "[0:a]apad=pad_dur=3,asplit=3[a][b][c];[a][b][c]concat=n=3:v=0:a=1", thrice,
        ]))
        let io = MemoryIO()
        #expect(run(["transcribe", thrice, "--to", "srt", "-q"], io: io) == 0, "\(io.errors)")
        let cues = io.outputText.split(separator: "\n\n").map { cue in
            Self.normalised(cue.split(separator: "\n").dropFirst(2).joined(separator: " "))
        }
        let reference = Self.normalised(utterance.words.joined(separator: " "))
        #expect(cues.count == 3, "\(io.outputText)")
        for cue in cues { #expect(Self.wordErrorRate(cue, reference) <= 0.25, "\(cue)") }
        // Each where it was said: a copy every 2.99 + 3 seconds.
        let starts = io.outputText.split(separator: "\n").filter { $0.contains(" --> ") }.map { line in
            let parts = line.prefix(12).split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Double($0) }
            return parts.count == 4 ? parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000 : -1
        }
        #expect(starts.count == 3 && starts.indices.allSatisfy { abs(starts[$0] - starts[0] - Double($0) * 5.99) < 0.4 }, "\(starts)")
    }

    #if os(Linux)
    /// A reader of the progress that has gone away (`2>&1 | …` whose reader exited) ends the
    /// process by SIGPIPE at its first progress line, mid-recognition, as it would any Unix tool;
    /// the recogniser's temporary files (its log, the samples) are removed, not left behind.
    @Test(.enabled(if: available && OutputSafetyTests.executable != nil, "needs the speech recogniser and the built CLI"))
    func aClosedPipeMidRecognitionLeavesNoTemporaryFiles() throws {
        let executable = try #require(OutputSafetyTests.executable)
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let long = folder.appendingPathComponent("long.wav").path
        #expect(FlashSamples.ffmpeg(["-stream_loop", "3", "-i", try Self.utterances()[1].file, long]))
        // The reader exits at once; the first progress line comes a second or more later, from
        // inside the recogniser's callback, while its files exist.
        let status = try OutputSafetyTests.spawnAndWait([
            "/bin/sh", "-c", "TMPDIR=\"$2\" \"$0\" transcribe \"$1\" --model tiny.en --beam 1 --progress json -o \"$2/out.vtt\" 2>&1 >/dev/null | exit 0",
            executable.path, long, folder.path,
        ])
        #expect(status == 0)
        // Only ours: onnxruntime keeps a session id (`.ses`) in the temporary folder on purpose.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("captions-") || $0 == "out.vtt" }
        #expect(left.isEmpty, "\(left)")
    }
    #endif

    /// `-o page.html` gives the transcript page with a player for the recording, linked from the
    /// page's folder; a recording piped to standard input (`-`) is transcribed too.
    @Test(.enabled(if: available && FileManager.default.isExecutableFile(atPath: BatchCommandTests.executable.path),
                   "needs the speech recogniser, pocketsphinx-testdata, ffmpeg and the release CLI"))
    func thePagePlaysTheRecordingAndStandardInputIsHeard() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterance = try Self.utterances()[1]
        let audio = folder.appendingPathComponent("audio/ep #1.mp3")
        try FileManager.default.createDirectory(at: audio.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FlashSamples.ffmpeg(["-i", utterance.file, audio.path]))
        let page = folder.appendingPathComponent("pages/ep1.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        let io = MemoryIO()
        #expect(run(["transcribe", audio.path, "-o", page.path, "--model", "tiny.en", "--beam", "1", "-q"], io: io) == 0, "\(io.errors)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(#"<audio id="player" controls preload="metadata" src="../audio/ep%20%231.mp3">"#), "\(html)")
        #expect(html.contains("data-start="))
        #expect(html.contains(#"<p class="note">Machine-generated by captions transcribe"#), "the page says what made it")

        let process = Process()
        process.executableURL = BatchCommandTests.executable
        process.arguments = ["transcribe", "-", "--to", "json", "--model", "tiny.en", "--beam", "1", "-q"]
        process.environment = ProcessInfo.processInfo.environment
        process.standardInput = try FileHandle(forReadingFrom: audio)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let json = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        func words(_ json: Data) throws -> [String] {
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            return Self.normalised((object["cues"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: " "))
        }
        let fromFile = MemoryIO()
        #expect(run(["transcribe", audio.path, "--to", "json", "--model", "tiny.en", "--beam", "1", "-q"], io: fromFile) == 0)
        let heard = try words(json), direct = try words(Data(fromFile.outputText.utf8))
        #expect(heard.count >= 6 && heard == direct, "\(heard) against \(direct)")
    }

    /// A script against a recording with no speech is an error, not cues of no duration at 0:00.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func aScriptAgainstSilenceIsAnError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let silence = folder.appendingPathComponent("silence.wav").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "3", silence]))
        let script = folder.appendingPathComponent("script.txt")
        try "Nobody says this.\n".write(to: script, atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["align", silence, "--text", script.path, "--model", "tiny.en", "--beam", "1"], io: io) == 1)
        #expect(io.errors.contains("[align.speech.none]"), "\(io.errors)")
        #expect(io.outputText.isEmpty)
    }

    /// A script that is not what the recording says is an error against the script, and nothing
    /// is written (it was timed word by word against whatever was heard, exit 0).
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func aScriptOfAnotherRecordingIsAnError() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let script = folder.appendingPathComponent("script.txt")
        try "Welcome to the show. Today we talk about gardening, tomatoes and the weather in spring.\n".write(to: script, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.vtt").path
        let io = MemoryIO()
        #expect(run(["align", try Self.utterances()[0].file, "--text", script.path, "-o", output, "--model", "tiny.en", "--beam", "1"], io: io) == 1)
        #expect(io.errors.hasPrefix(script.path + ": error: the script does not seem to be what the recording says"), "\(io.errors)")
        #expect(io.errors.contains("[align.mismatch]") && !FileManager.default.fileExists(atPath: output))
    }

    /// The cues (Podcasting 2.0 JSON) of `transcribe --speaker-per-channel` on a stereo clip that
    /// ffmpeg makes of utterances `first` and `second` with `filter`; `speakers`, when given, is
    /// the `--speakers` map.
    static func perChannelCues(_ first: Int, _ second: Int, filter: String, speakers: String? = nil, options: [String] = []) throws
        -> [[String: Any]]
    {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterances = try utterances()
        let stereo = folder.appendingPathComponent("stereo.wav").path
        #expect(FlashSamples.ffmpeg(["-i", utterances[first].file, "-i", utterances[second].file, "-filter_complex", filter, stereo]))
        var arguments = ["transcribe", stereo, "--to", "json", "--speaker-per-channel", "-q"] + options
        if let speakers {
            let names = folder.appendingPathComponent("names.json")
            try speakers.write(to: names, atomically: true, encoding: .utf8)
            arguments += ["--speakers", names.path]
        }
        let io = MemoryIO()
        #expect(run(arguments, io: io) == 0, "\(io.errors)")
        #expect(!io.outputText.isEmpty, "no output; errors: \(io.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(io.outputText.utf8)) as? [String: Any])
        return try #require(json["cues"] as? [[String: Any]])
    }

    /// Two voices, each on its own channel, at different times: each cue is named after its channel.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func speakersAreToldApartByChannel() throws {
        // Utterance 2 ("he was not an ill disposed young man") on the left from 0 s, utterance 5
        // ("he might even have been made amiable himself") on the right from 4.5 s.
        let cues = try Self.perChannelCues(
            1, 4, filter: "[0]apad=whole_dur=9[a];[1]adelay=4500,apad=whole_dur=9[b];[a][b]join=inputs=2:channel_layout=stereo",
            speakers: #"{"Speaker 1": "Ann", "Speaker 2": "Bob"}"#)
        let spoken = cues.map { ($0["speaker"] as? String ?? "", Self.normalised(($0["text"] as? String) ?? "").joined(separator: " ")) }
        #expect(spoken.contains { $0.0 == "Ann" && $0.1.contains("ill disposed") }, "\(spoken)")
        #expect(spoken.contains { $0.0 == "Bob" && $0.1.contains("amiable himself") }, "\(spoken)")
        #expect(!spoken.contains { $0.0 == "Bob" && $0.1.contains("ill disposed") })
    }

    /// Two voices talking at once, each on its own channel with the other's spill at −20 dB: each
    /// channel is heard on its own, so both sentences come out whole, at once, each named once.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func voicesTalkingAtOnceOnTheirOwnChannelsAreBothKept() throws {
        // Utterance 1 ("…might be prudently in his power to do for them") on the left from 0 s,
        // utterance 2 ("he was not an ill disposed young man") on the right from 2.5 s.
        let cues = try Self.perChannelCues(
            0, 1,
            filter: "[0]apad=whole_dur=9,asplit[a][a2];[1]adelay=2500,apad=whole_dur=9,asplit[b][b2];[a2]volume=0.1[as];[b2]volume=0.1[bs];"
                + "[a][bs]amix=inputs=2:normalize=0[l];[b][as]amix=inputs=2:normalize=0[r];[l][r]join=inputs=2:channel_layout=stereo",
            options: ["--model", "tiny.en", "--beam", "1"])
        func said(_ speaker: String) -> String {
            Self.normalised(cues.filter { $0["speaker"] as? String == speaker }.compactMap { $0["text"] as? String }.joined(separator: " ")).joined(separator: " ")
        }
        #expect(said("Speaker 1").contains("prudently in his power to do for them"), "\(said("Speaker 1"))")
        #expect(said("Speaker 2").contains("young man") && !said("Speaker 1").contains("young man"), "\(said("Speaker 2"))")
        #expect(!said("Speaker 2").contains("prudently"))
        let firstEnd = try #require(cues.first { $0["speaker"] as? String == "Speaker 1" }?["endTime"] as? Double)
        let bobStart = try #require(cues.first { $0["speaker"] as? String == "Speaker 2" }?["startTime"] as? Double)
        #expect(bobStart < firstEnd, "the two voices overlap: \(bobStart) against \(firstEnd)")
    }

    /// `align`: the five utterances placed at known offsets, the script their reference words (one
    /// paragraph each, plus a sentence nobody says): each paragraph starts within 200 ms on average
    /// of where its speech starts (found from the sound's level in each file), the unsaid sentence is
    /// reported, and the author's words come out exactly.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func aScriptIsAlignedToWithinTwoHundredMilliseconds() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterances = try Self.utterances()
        let offsets = [0.0, 9.5, 14.0, 21.5, 29.0]
        var arguments: [String] = []
        var filters: [String] = []
        for (index, utterance) in utterances.enumerated() {
            arguments += ["-i", utterance.file]
            filters.append("[\(index)]adelay=\(Int(offsets[index] * 1000))[d\(index)]")
        }
        let labels = (0..<utterances.count).map { "[d\($0)]" }.joined()
        let recording = folder.appendingPathComponent("reading.wav").path
        #expect(FlashSamples.ffmpeg(arguments + [
            "-filter_complex", filters.joined(separator: ";") + ";\(labels)amix=inputs=\(utterances.count):normalize=0", recording,
        ]))
        // Where speech starts in each file: the first 20 ms window within 20 dB of the file's loudest
        // (LibriVox's noise floor is some 30 dB down).
        let onsets = try utterances.enumerated().map { index, utterance -> Double in
            let levels = try AudioDecoder.decode(path: utterance.file).channelLevels[0]
            let loudest = levels.max() ?? 0
            let first = levels.firstIndex { $0 > loudest / 10 } ?? 0
            return offsets[index] + Double(first * DecodedAudio.levelWindow) / Double(DecodedAudio.sampleRate)
        }
        var paragraphs = utterances.map { $0.words.joined(separator: " ") }
        paragraphs.insert("The butler brought the tea.", at: 3)
        let script = folder.appendingPathComponent("script.txt")
        try paragraphs.joined(separator: "\n\n").write(to: script, atomically: true, encoding: .utf8)
        let io = MemoryIO()
        #expect(run(["align", recording, "--text", script.path, "--to", "json"], io: io) == 0, "\(io.errors)")
        #expect(io.errors.contains("[align.notHeard]") && io.errors.contains("butler"), "\(io.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(io.outputText.utf8)) as? [String: Any])
        let cues = try #require(json["cues"] as? [[String: Any]])
        let texts = cues.map { ($0["text"] as? String ?? "").replacing("\n", with: " ") }
        #expect(texts.joined(separator: " ") == paragraphs.joined(separator: " "), "the author's words, exactly")
        var errors: [Double] = []
        for (index, utterance) in utterances.enumerated() {
            let first = utterance.words.prefix(4).joined(separator: " ")
            guard let cue = cues.first(where: { ($0["text"] as? String ?? "").hasPrefix(first) }), let start = cue["startTime"] as? Double else {
                Issue.record("no cue starts with \(first)")
                continue
            }
            errors.append(abs(start - onsets[index]))
        }
        let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
        #expect(errors.count == 5 && mean <= 0.2, "word-start errors \(errors)")
        print("align: mean paragraph-start error \((mean * 1000).rounded()) ms over \(errors.count) utterances")
    }

    /// The decoder resamples to 16 kHz and keeps each channel's level apart.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func soundIsResampledTo16kHzWithItsChannels() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("tone.mka").path
        // 3 s at 44.1 kHz: a 440 Hz tone at half scale on the left, silence on the right.
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3", "-f", "lavfi",
            "-i", "anullsrc=r=44100:cl=mono", "-filter_complex", "[0]volume=0.5[l];[l][1]join=inputs=2:channel_layout=stereo", "-t", "3",
            "-c:a", "flac", path,
        ]))
        let audio = try AudioDecoder.decode(path: path)
        #expect(abs(audio.duration - 3) < 0.05, "\(audio.duration)")
        #expect(audio.channelLevels.count == 2)
        let left: Float = audio.channelLevels[0][10..<140].reduce(0, +) / 130
        let right: Float = audio.channelLevels[1][10..<140].reduce(0, +) / 130
        // A sine at amplitude a has RMS a/√2; ffmpeg's sine source is at 1/8 scale.
        let expected: Float = 0.5 / 8 / Float(2).squareRoot()
        #expect(abs(left - expected) < 0.01, "\(left)")
        #expect(right < 1e-4)
        #expect(audio.partialReason == nil)
    }

    /// A file with two audio streams: FFmpeg's choice is decoded and the other named (a warning in
    /// the transcript); `--audio-stream` picks one, and a stream that is not audio is refused.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func theAudioStreamIsChosenAndTheOthersNamed() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("two.mkv").path
        #expect(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
            "-map", "0:a", "-map", "1:a", "-t", "2", "-c:a", "flac", path,
        ]))
        let first = try AudioDecoder.decode(path: path)
        #expect(first.streamIndex == 0 && first.otherAudioStreams == [1])
        #expect(first.level(from: 0.5, to: 1.5) < 1e-4)
        let second = try AudioDecoder.decode(path: path, stream: 1)
        #expect(second.streamIndex == 1 && second.otherAudioStreams.isEmpty)
        #expect(second.level(from: 0.5, to: 1.5) > 0.01)
        #expect(throws: MediaError.self) { try AudioDecoder.decode(path: path, stream: 5) }
    }

    /// A stream that changes from stereo 44.1 kHz to mono 48 kHz mid-way (two transport streams
    /// joined, as at an ad break) is decoded whole, and a dropout keeps later sound at its time.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func layoutChangesAndDropoutsKeepTheTimeline() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let first = folder.appendingPathComponent("a.ts").path, second = folder.appendingPathComponent("b.ts").path
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3", "-ac", "2", "-c:a", "aac", first]))
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=2", "-ac", "1", "-c:a", "aac", second]))
        let joined = folder.appendingPathComponent("joined.ts")
        try (Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second))).write(to: joined)
        let audio = try AudioDecoder.decode(path: joined.path)
        #expect(abs(audio.duration - 5) < 0.2, "\(audio.duration) s")
        #expect(audio.channelLevels.count == 2)
        #expect(audio.level(from: 3.5, to: 4.5) > 0.01, "the mono part is heard")

        // Ten seconds with the middle two lost: the sound after the loss stays at its time.
        let whole = folder.appendingPathComponent("long.ts")
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-c:a", "aac", whole.path]))
        var bytes = try Data(contentsOf: whole)
        let perSecond = bytes.count / 188 / 10
        bytes.removeSubrange(188 * perSecond * 4..<188 * perSecond * 6)
        try bytes.write(to: whole)
        let damaged = try AudioDecoder.decode(path: whole.path)
        #expect(abs(damaged.duration - 10) < 0.3, "\(damaged.duration) s: the lost stretch is silence, not skipped")
        #expect(damaged.level(from: 4.4, to: 5.6) < 0.001, "the lost stretch is silent")
        #expect(damaged.partialReason?.contains("missing") == true, "\(damaged.partialReason ?? "no reason")")
    }
}

/// `--language` is checked when the command is parsed, before minutes of decoding: a code the
/// recogniser does not know, or a language other than English for an English-only model, is a
/// usage error; a BCP 47 tag is taken by its language (`fr-CA`, `iw`).
@Test func theLanguageIsCheckedBeforeAnythingIsDecoded() throws {
    for (arguments, accepted) in [
        (["--language", "xx"], false), (["--language", "fr", "--model", "tiny.en"], false), (["--language", "fr-CA"], true),
        (["--language", "iw"], true), (["--language", "en", "--model", "tiny.en"], true),
    ] {
        let parsed = Result { try CaptionsCommand.parseAsRoot(["transcribe", "episode.mp3", "-o", "x.vtt"] + arguments) }
        if case .success = parsed { #expect(accepted, "\(arguments)") } else { #expect(!accepted, "\(arguments)") }
    }
    #expect(SpeechInstallation.whisperLanguage("fr-CA") == "fr" && SpeechInstallation.whisperLanguage("iw") == "he")
    #expect(SpeechInstallation.whisperLanguage("klingon") == nil)
}

/// The output's language is the `--language` tag as given, region and script kept (`en-GB` stays
/// `en-GB`, not the recogniser's `en`), in BCP 47's usual case; when the recogniser heard another
/// language, what it heard.
@Test func theGivenLanguageTagIsKeptInTheOutput() throws {
    for (given, heard, expected) in [("en-gb", "en", "en-GB"), ("zh-hant-TW", "zh", "zh-Hant-TW"), ("iw-IL", "he", "he-IL"),
                                     ("fr-CA", "en", "en"), (nil, "de", "de")] {
        let command = try CaptionsCommand.parseAsRoot(["transcribe", "episode.mp3", "-o", "x.vtt"] + (given.map { ["--language", $0] } ?? []))
        let transcribe = try #require(command as? TranscribeCommand)
        #expect(transcribe.speech.documentLanguage(heard: heard) == expected, "\(given ?? "none") heard as \(heard)")
    }
}

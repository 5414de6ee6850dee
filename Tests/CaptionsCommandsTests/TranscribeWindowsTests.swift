@testable import CaptionsCommands
import Foundation
import Testing

/// The recogniser hears a recording in 30-second windows, several decoded together: every
/// sentence of every window comes back once, at its own time.
extension TranscribeCommandTests {
    /// Fifteen sentences, each in an 8-second slot (the five LibriVox utterances padded with
    /// silence, three times over): two minutes, several windows decoded in one batch with greedy
    /// decoding. Each slot's cues hold its sentence, start within its first second (the
    /// utterances start 0.2–0.4 s in), and no cue is written twice.
    @Test(.enabled(if: available, "needs the speech recogniser, pocketsphinx-testdata and ffmpeg"))
    func windowsDecodedTogetherKeepEverySentenceAtItsTime() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let utterances = try Self.utterances()
        let slots = folder.appendingPathComponent("slots.wav").path
        let padded = utterances.indices.map { "[\($0)]apad=whole_dur=8[u\($0)]" }.joined(separator: ";")
        let joined = utterances.indices.map { "[u\($0)]" }.joined()
        #expect(FlashSamples.ffmpeg(
            utterances.flatMap { ["-i", $0.file] } + [
                "-filter_complex", "\(padded);\(joined)concat=n=\(utterances.count):v=0:a=1,aloop=loop=2:size=\(5 * 8 * 16_000)",
                slots,
            ]))
        let io = MemoryIO()
        #expect(run(["transcribe", slots, "--to", "srt", "--beam", "1", "-q"], io: io) == 0, "\(io.errors)")
        let cues = io.outputText.split(separator: "\n\n").compactMap { cue -> (start: Double, words: [String])? in
            let lines = cue.split(separator: "\n")
            guard lines.count >= 3 else { return nil }
            let parts = lines[1].prefix(12).split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Double($0) }
            guard parts.count == 4 else { return nil }
            return (parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000, Self.normalised(lines.dropFirst(2).joined(separator: " ")))
        }
        for slot in 0..<15 {
            let inSlot = cues.filter { $0.start >= Double(slot * 8) && $0.start < Double(slot * 8 + 8) }
            let reference = Self.normalised(utterances[slot % 5].words.joined(separator: " "))
            let heard = inSlot.flatMap(\.words)
            #expect(Self.wordErrorRate(heard, reference) <= 0.25, "slot \(slot): \(heard)")
            let first = try #require(inSlot.first, "slot \(slot) has no cue:\n\(io.outputText)")
            #expect(first.start - Double(slot * 8) < 1, "slot \(slot) starts at \(first.start)")
        }
        #expect(cues.allSatisfy { $0.start < 120 }, "\(io.outputText)")
    }
}

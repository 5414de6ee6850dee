#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CaptionsCore

/// An audio preview of placed descriptions: each spoken with espeak-ng, then laid on a silent
/// track of the media's length with ffmpeg (`adelay` + `amix`).
enum SpeechPreview {
    /// Renders `events` (start and text) into a WAV at `output` (``FileAccess/writeFile(to:producing:)``:
    /// a temporary file renamed over it); returns a message for people when it cannot.
    static func render(_ events: [(start: MediaTime, text: String)], length: MediaTime, speech: SpeechTimer,
                       to output: String) -> String? {
        guard ExternalTool.isInstalled("ffmpeg") else { return "ffmpeg is not installed, so no audio preview was made" }
        let folder = "/tmp/captions-preview-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(folder, 0o700) == 0 else { return "cannot make a temporary folder for the preview" }
        defer { _ = ExternalTool.run(["rm", "-rf", folder]) }
        var arguments = ["ffmpeg", "-nostdin", "-y", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono"]
        var filters: [String] = []
        var mixInputs = "[0]"
        for (index, event) in events.enumerated() where !event.text.isEmpty {
            let clip = "\(folder)/\(index).wav"
            guard speech.synthesize(event.text, to: clip) else { return "espeak-ng could not speak description \(index + 1)" }
            arguments += ["-i", clip]
            let input = arguments.filter { $0 == "-i" }.count - 1
            filters.append("[\(input)]adelay=\(event.start.rounded(toTimescale: 1000)):all=1[d\(input)]")
            mixInputs += "[d\(input)]"
        }
        let inputCount = filters.count + 1
        filters.append("\(mixInputs)amix=inputs=\(inputCount):duration=first:normalize=0[out]")
        let seconds = NumberFormatting.shortest(Double(length.rounded(toTimescale: 1000)) / 1000)
        arguments += ["-filter_complex", filters.joined(separator: ";"), "-map", "[out]", "-t", seconds, "-f", "wav"]
        do {
            // Beside the output and renamed over it, as every output (never over a device).
            try FileAccess.writeFile(to: output) { temporary in
                guard ExternalTool.run(arguments + [temporary]) else {
                    throw CaptionsError("describe.speak.failed", "ffmpeg could not mix the preview")
                }
            }
        } catch let error as CaptionsError {
            return error.message
        } catch {
            return "cannot write \(output): \(error)"
        }
        return nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CaptionsCore

/// Measures how long a text takes to say by synthesising it with espeak-ng, when it is installed.
///
/// Each text is spoken once into a temporary WAV file, whose length is read from its header.
final class SpeechTimer {
    private let voice: String
    private let wordsPerMinute: Int
    private var lengths: [String: MediaTime] = [:]

    /// A timer for `voice` (an espeak-ng voice or language such as `en`) at `wordsPerMinute`; nil
    /// when espeak-ng is not on the `PATH`.
    init?(voice: String, wordsPerMinute: Double) {
        guard ExternalTool.isInstalled("espeak-ng") else { return nil }
        self.voice = voice
        self.wordsPerMinute = Int(wordsPerMinute.rounded())
    }

    /// How long `text` takes to say, or nil when synthesis fails.
    func length(of text: String) -> MediaTime? {
        if let known = lengths[text] { return known }
        let path = "/tmp/captions-speech-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav"
        defer { unlink(path) }
        guard synthesize(text, to: path),
              let length = Self.wavLength(path) else { return nil }
        lengths[text] = length
        return length
    }

    /// Speaks `text` into the WAV file at `path`; false when espeak-ng fails.
    func synthesize(_ text: String, to path: String) -> Bool {
        ExternalTool.run(["espeak-ng", "-v", voice, "-s", "\(wordsPerMinute)", "-w", path, "--", text])
    }

    /// The duration of a PCM WAV file: the data chunk's size over the byte rate.
    static func wavLength(_ path: String) -> MediaTime? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = fread(&bytes, 1, bytes.count, file)
        fseek(file, 0, SEEK_END)
        let fileSize = Int64(ftell(file))
        func le32(_ at: Int) -> Int64 { (0..<4).reduce(0) { $0 | Int64(bytes[at + $1]) << (8 * Int64($1)) } }
        guard count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var offset = 12
        var byteRate: Int64 = 0
        while offset + 8 <= count {
            let size = le32(offset + 4)
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8), offset + 16 <= count { byteRate = le32(offset + 16) }
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                guard byteRate > 0 else { return nil }
                let dataSize = min(size, fileSize - Int64(offset + 8))
                return MediaTime(milliseconds: dataSize * 1000 / byteRate)
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }
}

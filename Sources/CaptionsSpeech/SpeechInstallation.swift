#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the speech recogniser is installed: a folder with a Python virtual environment
/// (`bin/python`), the helper (`captions-speech.py`) and the models (`models/NAME/model.bin`),
/// as `Scripts/install-speech.sh` lays it out.
///
/// Found without configuration: `$CAPTIONS_SPEECH_HOME` when set; else `speech` in the build
/// folder the running `captions` comes from (`.build/speech` beside `.build/release`); else
/// `/usr/local/share/captions/speech` (the Docker image).
public struct SpeechInstallation: Sendable {
    /// The folder.
    public let folder: String

    /// The models the installer provides.
    public static let models = ["base", "tiny.en"]

    /// The languages Whisper's multilingual models know, by the codes it takes.
    public static let languages: Set<String> = [
        "af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "es",
        "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "haw", "he", "hi", "hr", "ht", "hu", "hy", "id", "is", "it", "ja",
        "jw", "ka", "kk", "km", "kn", "ko", "la", "lb", "ln", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr", "ms", "mt",
        "my", "ne", "nl", "nn", "no", "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl", "sn", "so", "sq",
        "sr", "su", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi", "yi", "yo", "zh", "yue",
    ]

    /// The code Whisper takes for a BCP 47 tag (`fr-CA` is `fr`, `iw` is `he`, `nb` is `no`); nil
    /// when Whisper does not know the language.
    public static func whisperLanguage(_ tag: String) -> String? {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        let code = ["iw": "he", "nb": "no", "jv": "jw", "fil": "tl", "cmn": "zh"][primary] ?? primary
        return languages.contains(code) ? code : nil
    }

    /// The installation found, or nil with the places looked in.
    public static func find(environment: [String: String] = currentEnvironment()) -> Result<SpeechInstallation, SpeechError> {
        var candidates: [String] = []
        if let home = environment["CAPTIONS_SPEECH_HOME"], !home.isEmpty { candidates.append(home) }
        if let executable = executablePath() {
            var folder = executable
            for _ in 0..<3 {
                guard let slash = folder.lastIndex(of: "/") else { break }
                folder = String(folder[..<slash])
                candidates.append(folder + "/speech")
            }
        }
        candidates.append("/usr/local/share/captions/speech")
        for candidate in candidates where access(candidate + "/bin/python", X_OK) == 0 && access(candidate + "/captions-speech.py", R_OK) == 0 {
            return .success(SpeechInstallation(folder: candidate))
        }
        return .failure(SpeechError(
            "speech.notInstalled",
            "the speech recogniser is not installed (looked in \(candidates.joined(separator: ", "))); install it with Scripts/install-speech.sh, or point CAPTIONS_SPEECH_HOME at its folder"))
    }

    /// The folder of model `name`, if installed.
    public func model(_ name: String) -> String? {
        let path = folder + "/models/" + name
        return access(path + "/model.bin", R_OK) == 0 ? path : nil
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process's environment.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            entry += 1
        }
        return result
    }
}

/// Why speech could not be recognised; `code` is a stable diagnostic code.
public struct SpeechError: Error, Sendable {
    /// A stable code such as `speech.notInstalled`.
    public var code: String
    /// A sentence for people.
    public var message: String

    /// An error.
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Reads speakers from `Name: ` prefixes, as SRT and plain-text captions write them: the reverse
/// of ``SpeakerPrefixer``.
///
/// A cue without a speaker whose text starts with a name of one to three words (each starting with
/// a capital letter, such as `Ann`, `DR. LEE` or `SPEAKER_1`; 32 characters at most) and a colon
/// gets that speaker, and the prefix is removed. Times such as `10:30` and sentences such as
/// `Note that: …` are not names; a one-word label such as `Warning:` is taken for one.
public struct SpeakerPrefixParser: Sendable {
    /// A parser.
    public init() {}

    /// The document with `Name: ` prefixes turned into speakers.
    public func apply(to document: TimedTextDocument) -> TimedTextDocument {
        var parsed = document
        for index in parsed.cues.indices {
            let cue = parsed.cues[index]
            guard cue.speaker == nil, Cue.firstVoice(in: cue.content) == nil,
                  case .text(let text)? = cue.content.first, let (name, rest) = Self.split(text) else { continue }
            parsed.cues[index].speaker = name
            parsed.cues[index].content[0] = .text(rest)
        }
        return parsed
    }

    /// `("Ann Lee", "Hello")` for `"Ann Lee: Hello"`; nil when the text has no name prefix.
    static func split(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        let rest = text[text.index(after: colon)...]
        guard rest.first == " " || rest.first == "\n", name.count <= 32 else { return nil }
        let words = name.split(separator: " ")
        guard (1...3).contains(words.count), words.joined(separator: " ") == name,
              words.allSatisfy({ word in word.first?.isUppercase == true && word.allSatisfy { $0.isLetter || $0.isNumber || ".-'_".contains($0) } })
        else { return nil }
        return (String(name), String(rest.drop { $0 == " " || $0 == "\n" }))
    }
}

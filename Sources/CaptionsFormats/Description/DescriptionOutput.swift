import CaptionsCore

extension DescriptionPlacer.Placement {
    /// `d<entry>` or `d<entry>.<part>`, 1-based.
    public var identifier: String {
        "d\(entryIndex + 1)" + (part.map { ".\($0)" } ?? "")
    }
}

/// Writes W3C DAPT (Dubbing and Audio description Profiles of TTML2) audio-description scripts.
public struct DAPTWriter: Sendable {
    /// The DAPT content profile designator.
    public static let contentProfile = "http://www.w3.org/ns/ttml/profile/dapt1.0/content"

    /// One timed script event: its `xml:id`, its times, and its text (empty for an opportunity).
    public typealias Event = (id: String, start: MediaTime, end: MediaTime, text: String)

    /// The script's language.
    public var language: String
    /// Whether to mark each text to be spoken by a text-to-speech engine (`tta:speak="normal"`).
    public var speak: Bool

    /// A writer.
    public init(language: String, speak: Bool = false) {
        self.language = language
        self.speak = speak
    }

    /// A pre-recording script with one `div` per event: `(identifier, start, end, text)`; an empty
    /// text gives an empty event (an audio-description opportunity).
    public func write(events: [Event]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml"
                xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
                xmlns:tta="http://www.w3.org/ns/ttml#audio"
                xmlns:daptm="http://www.w3.org/ns/ttml/profile/dapt#metadata"
                ttp:contentProfiles="\(Self.contentProfile)"
                ttp:timeBase="media"
                daptm:scriptRepresents="visual.nonText visual.text"
                daptm:scriptType="preRecording"
                daptm:langSrc="zxx"
                xml:lang="\(XMLText.escapeAttribute(language))">
              <head/>
              <body>

            """
        for event in events {
            xml += "    <div xml:id=\"\(XMLText.escapeAttribute(event.id))\" begin=\"\(Self.clock(event.start))\" end=\"\(Self.clock(event.end))\""
            if event.text.isEmpty {
                xml += "/>\n"
            } else {
                let speakAttribute = speak ? " tta:speak=\"normal\"" : ""
                xml += ">\n      <p\(speakAttribute)>\(XMLText.escape(event.text))</p>\n    </div>\n"
            }
        }
        xml += "  </body>\n</tt>\n"
        return xml
    }

    private static func clock(_ time: MediaTime) -> String {
        ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ".")
    }
}

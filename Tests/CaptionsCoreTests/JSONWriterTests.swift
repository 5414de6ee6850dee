import CaptionsCore
import Foundation
import Testing

@Suite struct JSONWriterTests {
    /// Strings that need escapes where runs of plain bytes meet them: a quote with a combining
    /// accent on it (one character, two scalars), CR LF (one character), control characters,
    /// text outside the BMP, and escapes at both ends.
    static let awkward = [
        "", "plain", "\"", "\\", "\"\u{301}quoted", "line\r\nnext", "\u{1}\u{1f}\u{7f}", "tab\there",
        "café 😀 \"ß\"\\", "\n", "ends with a quote\"", "\u{0}nul",
    ]

    @Test(arguments: awkward) func stringsComeBackAsTheyWent(_ text: String) throws {
        for compact in [false, true] {
            var json = JSONWriter(compact: compact)
            json.beginObject()
            json.key(text); json.string(text)
            json.key("list"); json.strings([text, text])
            json.endObject()
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
            #expect(object[text] as? String == text)
            #expect(object["list"] as? [String] == [text, text])
        }
    }

    @Test func controlCharactersAreWrittenAsEscapes() {
        var json = JSONWriter(compact: true)
        json.string("a\u{1}\n\"b\\")
        #expect(json.output == #""a\u0001\n\"b\\""#)
    }

    @Test func nestingIsIndentedTwoSpacesALevel() {
        var json = JSONWriter()
        json.beginObject()
        json.key("a"); json.beginArray(); json.integer(1); json.beginObject(); json.endObject(); json.endArray()
        json.key("b"); json.bool(true)
        json.endObject()
        #expect(json.output == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": true\n}")
    }
}

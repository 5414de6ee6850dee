import CaptionsCore
import CaptionsFormats
import PropertyBased
import Testing

/// Random but realistic documents, written and read back.
@Suite struct RoundTripTests {
    /// A cue text tree from a seed: plain words, styles, voices, classes and line breaks.
    private static func content(_ seed: Int) -> [InlineNode] {
        var generator = SplitMix(seed: UInt64(seed))
        let words = ["hello", "a & b", "x<y", "café", "漢字", "line\nbreak", "-->", "  spaced  "]
        func text() -> InlineNode { .text(words[generator.next(words.count)]) }
        var nodes: [InlineNode] = [text()]
        for _ in 0..<generator.next(4) {
            switch generator.next(5) {
            case 0: nodes.append(.span(Span(.italic, children: [text()])))
            case 1: nodes.append(.span(Span(.bold, children: [text(), .span(Span(.underline, children: [text()]))])))
            case 2: nodes.append(.span(Span(.voice, classes: ["loud"], annotation: "Ann Lee", children: [text()])))
            case 3: nodes.append(.span(Span(.class, classes: ["yellow"], children: [text()])))
            default: nodes.append(.text(" "))
            }
        }
        return nodes
    }

    static func document(cueCount: Int, seed: Int) -> TimedTextDocument {
        var document = TimedTextDocument()
        var start: Int64 = 0
        for index in 0..<cueCount {
            start += Int64((seed &* 31 &+ index * 977) % 5000)
            let end = start + 1 + Int64((seed &+ index * 131) % 4000)
            document.cues.append(Cue(
                id: "c\(index)", start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end),
                content: content(seed &+ index)))
        }
        return document
    }

    private static func write(_ document: TimedTextDocument, as format: CaptionFormat) -> [UInt8] {
        var reduced = document
        let writer = format.writer()!
        _ = CapabilityReducer(capabilities: writer.capabilities, formatName: format.displayName).reduce(&reduced)
        return writer.write(reduced)
    }

    @Test func webVTTWriteReadWriteIsStable() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...20), Gen.int(in: 0...1_000_000)) { count, seed in
            let first = Self.write(Self.document(cueCount: count, seed: seed), as: .webvtt)
            guard let reread = try? WebVTTReader().read(first) else {
                Issue.record("writer output did not read back: \(String(decoding: first, as: UTF8.self))")
                return
            }
            #expect(reread.diagnostics.isEmpty)
            #expect(reread.cues.count == count)
            #expect(Self.write(reread, as: .webvtt) == first)
        }
    }

    @Test func webVTTKeepsTimesAndTextExactly() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...20), Gen.int(in: 0...1_000_000)) { count, seed in
            let original = Self.document(cueCount: count, seed: seed)
            let reread = try? WebVTTReader().read(Self.write(original, as: .webvtt))
            #expect(reread?.cues.map(\.start) == original.cues.map(\.start))
            #expect(reread?.cues.map(\.end) == original.cues.map(\.end))
            #expect(reread?.cues.map(\.plainText) == original.cues.map(\.plainText))
        }
    }

    /// A speaker or language whose name ends in dashes ("--", an ASS `Name` of dashes) reads back
    /// as itself: before the tag's `>` it made the line `-->`, and the cue was read as a broken
    /// timing line and lost (CI's fuzzer found it).
    @Test(arguments: ["--", "a--", "-", "Ann-"])
    func annotationsEndingInDashesKeepTheirCue(name: String) throws {
        let document = TimedTextDocument(cues: [
            Cue(start: .zero, end: MediaTime(seconds: 1), content: [
                .span(Span(.voice, annotation: name, children: [.text("hello "), .span(Span(.language, annotation: name, children: [.text("there")]))])),
            ]),
        ])
        let back = try WebVTTReader().read(WebVTTWriter().write(document))
        #expect(back.cues.map(\.plainText) == ["hello there"])
        #expect(back.cues.first?.speaker == name)
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
    }

    /// A cue identifier with `-->` or a line break (from JSON or TTML) is written so that it reads
    /// back as an identifier, said in a warning; `-->` used to lose the cue on reading back. So
    /// is `-->` with a combining mark on its `>`, which Swift's characters do not see as `-->`
    /// but a parser does; a NOTE holding one stays a note.
    @Test func webVTTIdentifiersStayIdentifiers() throws {
        var document = TimedTextDocument(comments: [Comment(text: "see -->\u{308} there", beforeCue: 3)], cues: [
            Cue(id: "a-->b", start: MediaTime(seconds: 1), end: MediaTime(seconds: 2), content: [.text("one")]),
            Cue(id: "x\ny", start: MediaTime(seconds: 3), end: MediaTime(seconds: 4), content: [.text("two")]),
            Cue(id: "plain", start: MediaTime(seconds: 5), end: MediaTime(seconds: 6), content: [.text("three")]),
            Cue(id: "m-->\u{308}n", start: MediaTime(seconds: 7), end: MediaTime(seconds: 8), content: [.text("four")]),
        ])
        let writer = WebVTTWriter()
        #expect(writer.fit(&document).map(\.code.rawValue) == ["webvtt.id.changed"])
        let back = try WebVTTReader().read(writer.write(document))
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
        #expect(back.cues.map(\.plainText) == ["one", "two", "three", "four"])
        #expect(back.cues.map(\.id) == ["a--\u{200B}>b", "x y", "plain", "m--\u{200B}>\u{308}n"])
        #expect(back.comments.map(\.text) == ["see --\u{200B}>\u{308} there"])
    }

    /// The file's language (TTML's xml:lang) is written as WebVTT's `Language:` header, which the
    /// reader takes it from (checks pick their limits by it); SRT cannot carry it, and says so.
    @Test func theDocumentLanguageCrossesIntoWebVTTAndIsNotedWhereLost() throws {
        var document = TimedTextDocument(language: "ja", cues: [
            Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3), content: [.text("今日はとても良い天気ですね")])
        ])
        let back = try WebVTTReader().read(WebVTTWriter().write(document))
        #expect(back.language == "ja")
        #expect(WebVTTWriter().write(back) == WebVTTWriter().write(document))
        let lost = CapabilityReducer(capabilities: SRTWriter().capabilities, formatName: "SRT").reduce(&document)
        #expect(lost.map(\.code.rawValue) == ["convert.lost.documentLanguage"])
        #expect(lost.first?.severity == .note)
    }

    @Test func srtWriteReadWriteIsStable() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...20), Gen.int(in: 0...1_000_000)) { count, seed in
            let first = Self.write(Self.document(cueCount: count, seed: seed), as: .srt)
            guard let reread = try? SRTReader().read(first) else {
                Issue.record("writer output did not read back: \(String(decoding: first, as: UTF8.self))")
                return
            }
            #expect(reread.cues.count == count)
            #expect(Self.write(reread, as: .srt) == first)
        }
    }

    @Test func srtLineEndingsByteOrderMarkAndTrailingNewlineDoNotChangeTheModel() async throws {
        let lf = String(decoding: Self.write(Self.document(cueCount: 5, seed: 7), as: .srt), as: UTF8.self)
        let reference = try readSRT(lf)
        for variant in [lf.replacing("\n", with: "\r\n"), lf.replacing("\n", with: "\r"), "\u{FEFF}" + lf, lf + "\n\n"] {
            let document = try readSRT(variant)
            #expect(document.cues.map(\.content) == reference.cues.map(\.content))
            #expect(document.cues.map(\.start) == reference.cues.map(\.start))
            #expect(document.cues.map(\.location) == reference.cues.map(\.location))
        }
    }

    @Test func srtWriterUsesCRLFWhenAsked() {
        let document = TimedTextDocument(cues: [Cue(start: .zero, end: MediaTime(seconds: 1), content: [.text("a\nb")])])
        let text = String(decoding: SRTWriter(lineEnding: .crlf).write(document), as: UTF8.self)
        #expect(text == "1\r\n00:00:00,000 --> 00:00:01,000\r\na\r\nb\r\n")
    }
}

/// A tiny seeded generator (SplitMix64) so that generated documents are reproducible.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

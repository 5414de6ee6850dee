import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// TTML's region association: what we write stays visible to a conforming player, and what we
/// read is what such a player shows (or is reported).
@Suite struct TTMLRegionAssociationTests {
    /// Positioned and unpositioned WebVTT cues, written as TTML.
    static func writtenTTML() throws -> String {
        let webVTT = """
            WEBVTT

            00:00:00.000 --> 00:00:01.000 position:30% align:start
            left

            00:00:01.000 --> 00:00:02.000 line:0
            top

            00:00:02.000 --> 00:00:03.000
            bottom

            00:00:03.000 --> 00:00:04.000 line:40%
            middle

            00:00:04.000 --> 00:00:05.000
            bottom again
            """
        var document = try WebVTTReader().read(Array(webVTT.utf8))
        let writer = TTMLWriter()
        _ = CapabilityReducer(capabilities: writer.capabilities, formatName: "TTML").reduce(&document)
        return String(decoding: writer.write(document), as: UTF8.self)
    }

    /// Each paragraph names its region and nothing above it names one, so no paragraph is pruned
    /// from its region; reading it back gives every cue.
    @Test func everyWrittenParagraphNamesItsOwnRegionAndNothingAboveDoes() throws {
        let written = try Self.writtenTTML()
        let paragraphs = written.components(separatedBy: "<p ").dropFirst()
        #expect(paragraphs.count == 5)
        #expect(paragraphs.allSatisfy { $0.prefix(while: { $0 != ">" }).contains(" region=\"") }, "\(written)")
        for element in ["<body", "<div"] {
            let tag = written.components(separatedBy: element).dropFirst().first?.prefix(while: { $0 != ">" }) ?? ""
            #expect(!tag.contains("region="), "\(element)\(tag)")
        }
        let reread = try TTMLReader().read(Array(written.utf8))
        #expect(reread.cues.map { $0.plainText } == ["left", "top", "bottom", "middle", "bottom again"])
        #expect(!reread.diagnostics.contains { $0.code.rawValue.hasPrefix("ttml.region") })
    }

    /// ttconv, where installed, shows every cue we wrote.
    @Test(.enabled(if: Peer.ttconv != nil, "ttconv (tt) not installed"))
    func ttconvShowsEveryWrittenCue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ttml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.ttml"), output = folder.appendingPathComponent("out.vtt")
        try Self.writtenTTML().write(to: input, atomically: true, encoding: .utf8)
        #expect(Peer.run(Peer.ttconv!, ["convert", "-i", input.path, "-o", output.path]))
        let shown = try String(contentsOf: output, encoding: .utf8)
        #expect(shown.components(separatedBy: "-->").count - 1 == 5, "\(shown)")
    }

    private static let layout = """
        <layout><region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 10%"/>\
        <region xml:id="top" tts:origin="10% 10%" tts:extent="80% 10%"/></layout>
        """

    /// A paragraph whose ancestor names another region is shown by no conforming player: it is
    /// left out, with one warning.
    /// Left-aligned text in a region from 10 % to 90 % keeps its left edge at 10 % (it was taken
    /// for the default full-width box, and moved to 0 %); a region reaching past the right edge
    /// is moved inside the picture.
    @Test func regionEdgesSurviveTheTripThroughTTML() throws {
        let webVTT = """
            WEBVTT

            REGION
            id:top
            width:80%
            lines:2
            regionanchor:0%,0%
            viewportanchor:10%,5%

            REGION
            id:side
            width:90%
            lines:2
            regionanchor:0%,0%
            viewportanchor:20%,60%

            00:00:01.000 --> 00:00:02.000 region:top align:left
            left

            00:00:03.000 --> 00:00:04.000 region:side align:left
            side

            """
        let ttml = String(decoding: TTMLWriter().write(try WebVTTReader().read(Array(webVTT.utf8))), as: UTF8.self)
        let back = try TTMLReader().read(Array(ttml.utf8))
        for cue in back.cues {
            let left = (cue.settings.position ?? 50) - cue.settings.size / 2
            #expect(left >= 0 && left + cue.settings.size <= 100.001, "\(cue.settings)")
        }
        let first = back.cues[0].settings
        #expect(first.align == .left)
        #expect(abs((first.position ?? 50) - first.size / 2 - 10) < 0.01, "\(first)")
    }

    /// A region reaching past the screen (an extent of 10^80 %, an origin below or above it)
    /// places its text at the screen's edge: a WebVTT line outside 0–100 % is dropped by every
    /// reader, so the cue went back to the bottom when its WebVTT was read (CI's fuzzer).
    @Test func aRegionPastTheScreenPlacesItsTextAtTheEdge() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CaptionsFuzzTests/Regressions/ttml/region-reaching-past-the-screen.ttml")
        let document = try TTMLReader().read([UInt8](Data(contentsOf: file)))
        let lines = document.cues.map { cue -> Double? in
            if case .value(let line) = cue.settings.line { return line }
            return nil
        }
        #expect(lines == [100, 100, 0], "\(document.cues.map(\.settings))")
        let webVTT = WebVTTWriter().write(document)
        let back = try WebVTTReader().read(webVTT)
        #expect(back.cues.map(\.settings) == document.cues.map(\.settings))
    }

    @Test func aParagraphInsideAnotherRegionIsLeftOutAndReported() throws {
        let document = try TTMLReader().read(ttml(
            #"<div region="bottom"><p begin="1s" end="2s">shown</p><p begin="3s" end="4s" region="top">hidden</p>"#
                + #"<p begin="5s" end="6s" region="top">hidden too</p></div>"#, head: Self.layout))
        #expect(document.cues.map { $0.plainText } == ["shown"])
        #expect(document.diagnostics.filter { $0.code.rawValue == "ttml.region.ancestorConflict" }.count == 1)
    }

    /// An ancestor that names a region the layout does not define is in no region to conflict
    /// with: the reference is ignored, as ttconv ignores it, and the paragraph shows in its own
    /// (pycaption's DFXP samples, `<div region="bottom">` over `<p region="b1">`: all were left out).
    @Test func anAncestorsUndefinedRegionIsIgnored() throws {
        let document = try TTMLReader().read(ttml(
            #"<div region="nosuch"><p begin="1s" end="2s" region="top">shown</p></div>"#, head: Self.layout))
        #expect(document.cues.map { $0.plainText } == ["shown"])
        #expect(!document.diagnostics.contains { $0.code.rawValue == "ttml.region.ancestorConflict" })
    }

    /// With regions defined, paragraphs in none of them, or in regions the layout does not define,
    /// are shown by no conforming player: left out as ttconv leaves them out, and counted in one
    /// warning (files of them used to read as no cues without a word). A region on `<body>`, or
    /// one a span names, keeps a paragraph.
    @Test func paragraphsInNoDefinedRegionAreLeftOutAndCounted() throws {
        let unplaced = try TTMLReader().read(ttml(
            #"<div><p begin="1s" end="2s">one</p><p begin="3s" end="4s">two</p><p begin="5s" end="6s"> </p>"#
                + #"<p begin="7s" end="8s"><span region="top">named by a span</span></p></div>"#, head: Self.layout))
        #expect(unplaced.cues.map(\.plainText) == ["named by a span"])
        let none = try #require(unplaced.diagnostics.first { $0.code.rawValue == "ttml.region.none" })
        #expect(none.message.hasPrefix("2 paragraphs with text are in no region"), "\(none.message)")
        #expect(none.location?.line != nil)

        let undefined = try TTMLReader().read(ttml(
            #"<div><p begin="1s" end="2s" region="bottomCenter">lost</p><p begin="3s" end="4s" region="top">kept</p></div>"#,
            head: Self.layout))
        #expect(undefined.cues.map(\.plainText) == ["kept"])
        let named = try #require(undefined.diagnostics.first { $0.code.rawValue == "ttml.region.undefined" })
        #expect(named.message.contains("\"bottomCenter\"") && named.message.hasPrefix("1 paragraph with text is"))

        let onBody = try TTMLReader().read(Array(
            (#"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><head>"# + Self.layout
                + #"</head><body region="bottom"><div><p begin="1s" end="2s">shown</p></div></body></tt>"#).utf8))
        #expect(onBody.cues.map(\.plainText) == ["shown"])
        #expect(!onBody.diagnostics.contains { $0.code.rawValue.hasPrefix("ttml.region.") })
    }

    /// Image captions are not read, and the reader says so instead of returning no cues silently.
    @Test func imageCaptionsAreReported() throws {
        let document = try TTMLReader().read(ttml(
            ##"<div begin="1s" end="2s" xmlns:smpte="http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt" smpte:backgroundImage="#img_0"/>"##
                + ##"<div begin="3s" end="4s" xmlns:smpte="http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt" smpte:backgroundImage="#img_1"/>"##))
        #expect(document.cues.isEmpty)
        let report = try #require(document.diagnostics.first { $0.code.rawValue == "ttml.image.unsupported" })
        #expect(report.message.hasPrefix("2 image captions"))
    }

    /// A region without xml:id can be named by nothing: it is ignored (with a warning) instead of
    /// hiding every paragraph from the default region.
    @Test func aRegionWithoutAnIDIsIgnored() throws {
        let document = try TTMLReader().read(ttml(
            #"<div><p begin="1s" end="2s">hello</p></div>"#,
            head: #"<layout><region tts:origin="10% 80%" tts:extent="80% 10%"/></layout>"#))
        #expect(document.cues.map { $0.plainText } == ["hello"])
        #expect(document.diagnostics.contains { $0.code.rawValue == "ttml.region.noID" })
    }

    /// `<tt>` with no namespace is read as TTML, with a warning; another root is refused, naming it.
    @Test func aTTElementWithoutNamespaceIsReadAsTTML() throws {
        let document = try TTMLReader().read(Array(#"<tt><body><div><p begin="1s" end="2s">hi<br/>there</p></div></body></tt>"#.utf8))
        #expect(document.cues.map { $0.plainText } == ["hi\nthere"])
        #expect(document.diagnostics.contains { $0.code.rawValue == "ttml.namespace.missing" })
        #expect(throws: CaptionsError.self) { try TTMLReader().read(Array("<html><body/></html>".utf8)) }
    }

    /// A UTF-8 file whose XML declaration still says UTF-16 is read as UTF-8, with a warning.
    @Test func aDeclarationThatSaysUTF16ForSingleBytesIsReadAsUTF8() throws {
        let xml = #"<?xml version="1.0" encoding="UTF-16"?><tt xmlns="http://www.w3.org/ns/ttml"><body><div>"#
            + #"<p begin="1s" end="2s">café</p></div></body></tt>"#
        let document = try TTMLReader().read(Array(xml.utf8))
        #expect(document.cues.map(\.plainText) == ["café"])
        #expect(document.diagnostics.map(\.code.rawValue) == ["ttml.encoding.mislabelled"])
    }
}

/// Peer tools the tests compare with, when installed (on PATH, or in the peers environment
/// `Scripts/setup.sh --peers` makes).
enum Peer {
    static let ttconv: String? = find("tt")

    static func find(_ name: String) -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let places = [root.appendingPathComponent(".build/peers/bin").path]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return places.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// ttconv's reading of `bytes` (a file of extension `fileExtension`), as the SRT it converts
    /// them to; nil when ttconv fails.
    static func ttconvReading(_ bytes: [UInt8], fileExtension: String) throws -> TimedTextDocument? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("ours.\(fileExtension)"), srt = directory.appendingPathComponent("back.srt")
        try Data(bytes).write(to: input)
        guard let ttconv, run(ttconv, ["convert", "-i", input.path, "-o", srt.path]) else { return nil }
        return try SRTReader().read(Array(Data(contentsOf: srt)))
    }

    /// Text with every run of white space as one space, as peers' text is compared.
    static func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// Runs `tool` with `arguments`, its output discarded; true when it succeeded.
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

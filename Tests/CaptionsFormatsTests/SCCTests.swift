import CaptionsCore
import Foundation
import Testing

@testable import CaptionsFormats

/// SCC and CEA-608: pop-on, roll-up and paint-on decoded as a television shows them, noisy files
/// recovered, and our SCC read back (by us and, when installed, by ttconv) with the same text on
/// the same frames.
@Suite struct SCCTests {
    /// The time of frame `frame` at 29.97 frames per second.
    static func frame(_ frame: Int64) -> MediaTime { MediaTime(value: frame * 1001, timescale: 30000)! }

    static func read(_ lines: String, channel: Int = 1) throws -> TimedTextDocument {
        try SCCReader(channel: channel).read(Array(("Scenarist_SCC V1.0\n\n" + lines).utf8))
    }

    @Test func popOnCaptionsShowFromEndOfCaptionToTheNextChange() throws {
        // RCL, ENM, PAC row 15 col 4 (0x94f2), "Hi "; mid-row italics; "there"; special ½; an
        // extended É after its fallback E; EOC. Each code twice, as sent; EDM two seconds later.
        let document = try Self.read(
            """
            00:00:01:00\t9420 9420 94ae 94ae 94f2 94f2 c8e9 2080 91ae 91ae f468 e5f2 e580 9132 9132 4580 92a1 92a1 942f 942f

            00:00:03:00\t942c 942c
            """)
        #expect(document.cues.count == 1)
        let cue = try #require(document.cues.first)
        #expect(cue.plainText == "Hi there½É")
        #expect(cue.start == Self.frame(30 + 18) && cue.end == Self.frame(90))
        #expect(cue.content.contains { if case .span(let span) = $0 { span.kind == .italic } else { false } })
        #expect(document.diagnostics.isEmpty)
    }

    @Test func dropFrameTimecodeSkipsTwoLabelsAMinute() {
        let timecode = SMPTETimecode(frameRate: nil)
        #expect(timecode.frame(parsing: "00:01:00;02")?.frame == 1800)
        #expect(timecode.frame(parsing: "00:10:00;00")?.frame == 17982)
        #expect(timecode.frame(parsing: "00:01:00:02")?.frame == 1802)
        for frame: Int64 in [0, 1799, 1800, 17981, 17982, 107_892] {
            let label = timecode.label(frame: frame, dropFrame: true)
            #expect(timecode.frame(parsing: Substring(label))?.frame == frame, "\(label)")
        }
        #expect(timecode.label(frame: 1800, dropFrame: true) == "00:01:00;02")
    }

    @Test func rollUpRowsRollInFromTheirCarriageReturn() throws {
        // RU2, CR, PAC row 15, "ONE"; then CR, PAC, "TWO"; then CR, "THREE": two rows show at a time.
        let document = try Self.read(
            """
            00:00:00:00\t9425 9425 94ad 94ad 9470 9470 4fce 4580

            00:00:02:00\t9425 9425 94ad 94ad 9470 9470 5457 4f80

            00:00:04:00\t9425 9425 94ad 94ad 9470 9470 54c8 5245 4580 942c 942c
            """)
        #expect(document.cues.map(\.plainText) == ["ONE", "ONE\nTWO", "TWO\nTHREE"])
        #expect(document.cues.map(\.start) == [Self.frame(2), Self.frame(62), Self.frame(122)])
        #expect(document.cues.last?.end == Self.frame(129))
    }

    @Test func paintOnShowsAWordAtATime() throws {
        // RDC, PAC, "Hi you" painted straight onto the screen, then EDM.
        let document = try Self.read("00:00:00:00\t9429 9429 9470 9470 c8e9 2079 ef75 942c 942c")
        #expect(document.cues.map(\.plainText) == ["Hi", "Hi you"])
        #expect(document.cues.map(\.start) == [Self.frame(4), Self.frame(5)])
        #expect(document.cues.last?.end == Self.frame(7))
    }

    @Test func eachMemoryKeepsItsOwnCursor() throws {
        // No preamble anywhere: "AB" loaded and shown; "CD" loaded into the other memory starts
        // at that memory's own cursor (column 0), not after "AB"; shown, the first memory comes
        // back hidden with its cursor after "AB", so "EF" goes on from there.
        let document = try Self.read(
            """
            00:00:01:00\t9420 c1c2 942f

            00:00:02:00\t9420 43c4 942f

            00:00:03:00\t9420 4546 942f 942c
            """)
        #expect(document.cues.map(\.plainText) == ["AB", "CD", "ABEF"])
        let columns = document.cues.map(\.settings.position)
        #expect(columns[0] == columns[1] && columns[1] == columns[2])
    }

    @Test func noisyLinesAreReportedAndReadingGoesOn() throws {
        // A word that is not hex, a line without a timecode, a byte with even parity (0x41
        // 'A' sent without its parity bit), a code of unknown meaning (0x17 0x30).
        let document = try Self.read(
            """
            00:00:01:00\t9420 9420 zz12 9470 9470 4142 97b0 97b0 942f 942f
            garbage here
            00:00:02:00\t942c 942c
            """)
        #expect(document.cues.map(\.plainText) == ["AB"])
        let codes = Set(document.diagnostics.map(\.code.rawValue))
        #expect(codes.isSuperset(of: ["scc.word.malformed", "scc.line.malformed", "scc.parity", "scc.code.unknown"]))
        let malformed = document.diagnostics.first { $0.code == "scc.word.malformed" }
        #expect(malformed?.location == SourceLocation(line: 3, column: 23))
    }

    @Test func theChannelIsChosen() throws {
        // CC2 (0x1c.. codes, data channel 2) carries "B"; CC1 carries "A".
        let lines = "00:00:01:00\t9420 9420 9470 9470 c180 942f 942f 1c20 1c20 1c70 1c70 c280 1c2f 1c2f"
        #expect(try Self.read(lines).cues.map(\.plainText) == ["A"])
        #expect(try Self.read(lines, channel: 2).cues.map(\.plainText) == ["B"])
        let empty = try Self.read(lines, channel: 3)
        #expect(empty.cues.isEmpty)
        #expect(empty.diagnostics.map(\.code.rawValue) == ["scc.captions.none"])
    }

    @Test func textNeverShownIsReported() throws {
        let document = try Self.read("00:00:01:00\t9420 9420 9470 9470 c180 942f 942f 9470 9470 c280")
        #expect(document.cues.map(\.plainText) == ["A"])
        #expect(document.diagnostics.map(\.code.rawValue) == ["scc.text.neverShown"])
    }

    static let source: TimedTextDocument = {
        func cue(_ start: Int64, _ end: Int64, _ content: [InlineNode]) -> Cue {
            Cue(start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end), content: content)
        }
        return TimedTextDocument(cues: [
            cue(1000, 3000, [.text("Plain "), .span(Span(.italic, children: [.text("italic")])), .text(" ½ Éte")]),
            cue(3000, 5000, [.text("A line much longer than thirty-two characters wraps")]),
            cue(5500, 9500, [.text("one\ntwo\nthree\nfour\nfive\nsix")]),
            cue(10000, 11000, [.text("Zażółć € ok")]),
        ])
    }()

    @Test func ourSCCReadsBackWithTheSameTextOnTheSameFrames() throws {
        var document = Self.source
        let writer = SCCWriter()
        let diagnostics = writer.fit(&document)
        #expect(Set(diagnostics.map(\.code.rawValue)) == ["scc.row.wrapped", "scc.rows.split", "scc.character.substituted"])
        #expect(diagnostics.first { $0.code == "scc.character.substituted" }?.message.contains("€") == true)
        let back = try SCCReader().read(writer.write(document))
        #expect(back.cues.map(\.plainText) == [
            "Plain italic ½ Éte", "A line much longer than\nthirty-two characters wraps", "one\ntwo\nthree\nfour", "five\nsix",
            "Zazólc ? ok",
        ])
        let frameLength = 1001.0 / 30000
        for (ours, source) in zip(back.cues, document.cues) {
            #expect(abs(ours.start.seconds - source.start.seconds) <= frameLength / 2 + 1e-9)
            #expect(abs((ours.end ?? .zero).seconds - (source.end ?? .zero).seconds) <= frameLength + 1e-9)
        }
        #expect(back.cues[0].content.contains { if case .span(let span) = $0 { span.kind == .italic } else { false } })
        #expect(back.diagnostics.isEmpty)
    }

    /// A mid-row code shows as a space, so it takes the place of a space at a change of look, and
    /// a change between two letters waits for the next space: the text reads back exactly, and
    /// nothing spills past column 32 (an added space once made "coming ." and overflowed rows).
    @Test func looksChangeAtSpacesAndTheTextStaysExact() throws {
        let text = "Thanks for <u>coming</u>. I am <i>here</i>.\nun<i>believ</i>able <u>yes</u> 12345678\n<i>(door slams)</i>"
        let document = try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n\(text)\n".utf8))
        var fitted = document
        let diagnostics = SCCWriter().fit(&fitted)
        #expect(diagnostics.contains { $0.code == "scc.style.moved" })
        let back = try SCCReader().read(SCCWriter().write(document))
        #expect(back.cues.map(\.plainText) == ["Thanks for coming. I am here.\nunbelievable yes 12345678\n(door slams)"])
        #expect(!back.diagnostics.contains { $0.code == "scc.row.overflow" }, "\(back.diagnostics)")
        let spans = back.cues.first?.content.compactMap { node -> String? in
            if case .span = node { return node.plainText } else { return nil }
        }
        #expect(spans == ["coming.", "here.", "yes", "(door slams)"], "\(String(describing: spans))")
    }

    /// Of a gap of several spaces before a change of look, the mid-row code takes none: a reader
    /// hears its space as part of the gap, so each write lost a space (pycaption's
    /// `sample_scc_not_explicitly_switching_italics_off.scc` shrank at every round trip). One
    /// space before the change is still the code's.
    @Test(arguments: [1, 2, 5])
    func spacesBeforeAChangeOfLookStayAsMany(spaces: Int) throws {
        let text = "ab" + String(repeating: " ", count: spaces) + "<i>cd</i>"
        let document = try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n\(text)\n".utf8))
        let first = SCCWriter().write(document)
        let back = try SCCReader().read(first)
        #expect(back.cues.first?.plainText == "ab" + String(repeating: " ", count: spaces) + "cd")
        #expect(SCCWriter().write(back) == first)
    }

    /// A row that starts in a colour and in italics takes two mid-row codes, two columns, before
    /// its text: written back, the text stays at its column (it moved one to the right at each
    /// round trip), at column 2 and further on; and what we write, read and written again, is
    /// the same bytes.
    @Test(arguments: [2, 5, 9])
    func aRowStartingInColourAndItalicsKeepsItsColumn(column: Int) throws {
        let position = 10 + Double(column) * 2.5
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000 position:\(position)%,line-left align:left line:10%\n<c.yellow><i>AB</i></c> cd\n"
        let first = SCCWriter().write(try WebVTTReader().read(Array(vtt.utf8)))
        let back = try SCCReader().read(first)
        #expect(back.cues.first?.settings.position == position)
        #expect(back.cues.first?.plainText == "AB cd")
        #expect(SCCWriter().write(back) == first)
    }

    /// Centred rows, one of them pushed in by the screen's left edge, read back at a centre that
    /// puts every row where it is: the mean of their centres moved the other row a column when
    /// written again (pycaption's `sample_webvtt_with_cue_settings.vtt`).
    @Test func centredRowsPushedByTheEdgeStayWhereTheyAre() throws {
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:06.000 align:center position:37% line:74%\n37% 74% - NARRATOR:\nThey built the largest,\n"
        let first = SCCWriter().write(try WebVTTReader().read(Array(vtt.utf8)))
        let back = try SCCReader().read(first)
        #expect(back.cues.first?.settings.align == .center)
        #expect(SCCWriter().write(back) == first)
    }

    /// A row of 32 characters in colour and italics has no room for the mid-row code its text
    /// needs at the left edge (a preamble sets the colour or italics, not both): it is broken at 31,
    /// and no row of what we write runs past column 32 (the 32nd character was written in a 33rd
    /// column, which a television draws over the last).
    @Test func aFullRowInColourAndItalicsIsBrokenToFitItsCode() throws {
        let text = "abcdefghijklmnopqrstuvwxyz abcde"
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<c.yellow><i>\(text)</i></c>\n"
        var document = try WebVTTReader().read(Array(vtt.utf8))
        let diagnostics = CEA608Layout.fit(&document)
        #expect(diagnostics.contains { $0.code.rawValue == "scc.row.wrapped" && $0.message.contains("31") })
        let back = try SCCReader().read(SCCWriter().write(try WebVTTReader().read(Array(vtt.utf8))))
        #expect(!back.diagnostics.contains { $0.code.rawValue == "scc.row.overflow" }, "\(back.diagnostics)")
        #expect(back.cues.first?.plainText == "abcdefghijklmnopqrstuvwxyz\nabcde")
    }

    /// Rows that end on one column and start on different ones are right-aligned (they read back
    /// as left-aligned at the longer row's edge, and the short row moved left when written again).
    @Test(arguments: ["right", "left", "center"])
    func alignmentSurvivesARoundTrip(align: String) throws {
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000 align:\(align)\nA long first row\nshort\n"
        let first = SCCWriter().write(try WebVTTReader().read(Array(vtt.utf8)))
        let back = try SCCReader().read(first)
        let expected: CueSettings.Align = align == "right" ? .right : align == "left" ? .left : .center
        #expect(back.cues.first?.settings.align == expected)
        #expect(SCCWriter().write(back) == first)
    }

    /// The layouts whose SCC changed when written again (found by re-saving every real-world file
    /// as SCC twice), each now the same bytes the second time, with the place it was read at:
    /// - an underlined row at the left edge took an italics preamble and a mid-row code's column
    ///   (pycaption's `sample_scc_multiple_positioning.scc`): an indent's preamble underlines;
    /// - a re-wrapped long row pushed left alone (`sample_scc_with_line_too_long.scc`): the block
    ///   moves together;
    /// - right-aligned rows whose centres are a column apart read back centred (ExoPlayer's
    ///   `ssa/positioning`).
    @Test(arguments: [
        ("00:00:01.000 --> 00:00:03.000 line:10% position:10%,line-left align:left\ncdcd\n<u>efef</u>\nabab\n", CueSettings.Align.left, 10.0),
        ("00:00:01.000 --> 00:00:03.000 line:10% position:17.5%,line-left align:left\nwas Cal l l l l l l l l l l l l l l l l l l l l l l l l l l l l Denison,\nof ours\n", .left, 12.5),
        ("00:00:01.000 --> 00:00:03.000 line:0 align:right\nSixth subtitle (multiple\noverrides in same braces).\n", .right, 90),
        // Left-aligned in a box centred at 50 %, 80 % wide: at its left edge, 10 % (the rows were
        // put at 50 %, then pushed back one by one: IMSC's `cumulative-rows-001` came out right-aligned).
        ("00:00:01.000 --> 00:00:03.000 position:50%,center size:80% align:left\nThese lines appear\nstep by step.\n", .left, 10),
    ])
    func aLayoutWrittenAgainIsTheSame(cue: String, align: CueSettings.Align, position: Double) throws {
        let first = SCCWriter().write(try WebVTTReader().read(Array(("WEBVTT\n\n" + cue).utf8)))
        let back = try SCCReader().read(first)
        #expect(back.cues.first?.settings.align == align)
        #expect(back.cues.first?.settings.position == position)
        #expect(SCCWriter().write(back) == first)
    }

    /// A look that changes at the one space between two words changes where the second word
    /// starts, however many mid-row codes it takes (a colour, then italics): the space's own
    /// look took the code back to plain and the change waited for the next space ("Where" lost
    /// its italics); two codes read back as one space; and a row with them still fits 32 columns.
    @Test(arguments: [
        "<c.yellow>JOHN:</c> <i>Where are you?</i>", "<c.red>red</c> <c.cyan>cyan</c> <c.yellow>yellow</c> <i>italic</i>",
        "<i>italic</i> <c.yellow>yellow</c> <u>under</u> <c.lime>lime</c> <c.blue>blue</c>",
        "<c.yellow>JOHN:</c> <i>Where are you going now?!</i>",
    ])
    func aChangeOfLookAtASpaceIsMadeThere(text: String) throws {
        let first = SCCWriter().write(try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n\(text)\n".utf8)))
        let back = try SCCReader().read(first)
        #expect(String(decoding: WebVTTWriter().write(back), as: UTF8.self).contains("\n\(text)\n"))
        #expect(!back.diagnostics.contains { $0.code.rawValue == "scc.row.overflow" }, "\(back.diagnostics)")
        #expect(SCCWriter().write(back) == first)
    }

    @Test func rollUpOutputRollsEachRowIn() throws {
        var document = TimedTextDocument(cues: [
            Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 4), content: [.text("first row\nsecond row")])
        ])
        let writer = SCCWriter(mode: .rollUp)
        _ = writer.fit(&document)
        let back = try SCCReader().read(writer.write(document))
        #expect(back.cues.map(\.plainText) == ["first row", "first row\nsecond row"])
        #expect(back.cues.first?.start == Self.frame(30))
    }

    @Test func overlappingCuesShareTheScreen() throws {
        var document = TimedTextDocument(cues: [
            Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3), content: [.text("one")]),
            Cue(start: MediaTime(seconds: 2), end: MediaTime(seconds: 4), content: [.text("two")]),
        ])
        let diagnostics = SCCWriter().fit(&document)
        #expect(document.cues.map(\.plainText) == ["one", "one\ntwo", "two"])
        #expect(diagnostics.map(\.code.rawValue) == ["scc.cues.overlap"])
    }

    /// Two overlapping cues of four rows each need eight rows together: the time they share is
    /// shown in parts, the first cue's rows and then the second's. Each part continues a caption
    /// already on screen or going on after, and is written as that caption (a reader reads one),
    /// so the output written again from itself is the same.
    @Test func aPartThatContinuesTheCaptionOnScreenIsThatCaption() throws {
        let (one, two) = ("one a\none b\none c\none d", "two a\ntwo b\ntwo c\ntwo d")
        var document = TimedTextDocument(cues: [
            Cue(start: MediaTime(seconds: 5), end: MediaTime(seconds: 15), content: [.text(one)]),
            Cue(start: MediaTime(seconds: 10), end: MediaTime(seconds: 20), content: [.text(two)]),
        ])
        let writer = SCCWriter()
        let diagnostics = writer.fit(&document)
        #expect(document.cues.map(\.plainText) == [one, two])
        let handover = try #require(document.cues.first?.end)
        #expect(handover == document.cues.last?.start && handover > MediaTime(seconds: 10) && handover < MediaTime(seconds: 15))
        #expect(diagnostics.contains { $0.code == "scc.cues.joined" })
        let first = writer.write(document)
        var back = try SCCReader().read(first)
        _ = writer.fit(&back)
        #expect(writer.write(back) == first)
    }

    @Test(.enabled(if: Peer.ttconv != nil))
    func ttconvReadsOurSCCWithTheSameText() throws {
        var document = Self.source
        let writer = SCCWriter()
        _ = writer.fit(&document)
        let back = try #require(try Peer.ttconvReading(writer.write(document), fileExtension: "scc"))
        #expect(back.cues.map { Peer.words($0.plainText) } == document.cues.map { Peer.words($0.plainText) })
        for (theirs, ours) in zip(back.cues, document.cues) {
            #expect(abs(theirs.start.seconds - ours.start.seconds) <= 1001.0 / 30000)
        }
    }

    /// Every SCC file of the real-world corpus reads without failing.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.shared.appendingPathComponent("realworld").path)))
    func everyRealWorldSCCFileReads() throws {
        let root = TestPaths.shared.appendingPathComponent("realworld")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension.lowercased() == "scc" } ?? []
        #expect(files.count >= 40)
        var withCues = 0
        for file in files {
            let bytes = try Array(Data(contentsOf: file))
            #expect(CaptionFormat.sniff(bytes) == .scc, "\(file.path)")
            if try !SCCReader().read(bytes).cues.isEmpty { withCues += 1 }
        }
        #expect(withCues >= files.count - 4)
    }
}

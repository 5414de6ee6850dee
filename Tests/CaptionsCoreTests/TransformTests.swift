import CaptionsCore
import Testing

/// A cue from `start` to `end` milliseconds with plain text.
func cue(_ start: Int64, _ end: Int64, _ text: String, id: String = "") -> Cue {
    Cue(id: id, start: MediaTime(milliseconds: start), end: MediaTime(milliseconds: end), content: [.text(text)])
}

@Suite struct TimeShiftTests {
    @Test func movesEveryTimeIncludingKaraokeTimestamps() {
        var karaoke = cue(1000, 3000, "")
        karaoke.content = [.text("a"), .timestamp(MediaTime(milliseconds: 2000)), .text("b")]
        let (shifted, diagnostics) = TimeShift(offset: MediaTime(milliseconds: 1500))
            .apply(to: TimedTextDocument(cues: [karaoke]))
        #expect(diagnostics.isEmpty)
        #expect(shifted.cues[0].start == MediaTime(milliseconds: 2500))
        #expect(shifted.cues[0].end == MediaTime(milliseconds: 4500))
        #expect(shifted.cues[0].content[1] == .timestamp(MediaTime(milliseconds: 3500)))
    }

    @Test func removesCuesPushedBeforeZeroAndClampsStraddlers() {
        let document = TimedTextDocument(
            comments: [Comment(text: "before b", beforeCue: 1), Comment(text: "before c", beforeCue: 2)],
            cues: [cue(0, 1000, "a"), cue(1000, 2000, "b"), cue(2000, 4000, "c")])
        let (shifted, diagnostics) = TimeShift(offset: MediaTime(milliseconds: -2500)).apply(to: document)
        #expect(shifted.cues.map(\.plainText) == ["c"])
        #expect(shifted.cues[0].start == .zero)
        #expect(shifted.cues[0].end == MediaTime(milliseconds: 1500))
        #expect(diagnostics.map(\.code) == ["transform.shift.removed", "transform.shift.clamped"])
        #expect(shifted.comments.map(\.beforeCue) == [0, 0])
    }
}

@Suite struct FrameRateRetimeTests {
    @Test func palSpeedUpToFilmIsExact() throws {
        let retime = FrameRateRetime(
            from: try #require(FrameRate(parsing: "25")), to: try #require(FrameRate(parsing: "23.976")))
        let document = retime.apply(to: TimedTextDocument(cues: [cue(24000, 48000, "x")]))
        // 24 s × 25 / (24000/1001) = 25.025 s exactly.
        #expect(document.cues[0].start == MediaTime(milliseconds: 25025))
        #expect(document.cues[0].end == MediaTime(milliseconds: 50050))
    }
}

@Suite struct IdenticalCueMergerTests {
    @Test func mergesTouchingAndOverlappingIdenticalNeighboursOnly() {
        let document = TimedTextDocument(cues: [
            cue(0, 1000, "same"), cue(1000, 2000, "same"), cue(1500, 2500, "same"),
            cue(3000, 4000, "same"),  // gap: stays
            cue(4000, 5000, "other"),
        ])
        let (merged, diagnostics) = IdenticalCueMerger().apply(to: document)
        #expect(merged.cues.count == 3)
        #expect(merged.cues[0].end == MediaTime(milliseconds: 2500))
        #expect(merged.cues[1].start == MediaTime(milliseconds: 3000))
        #expect(diagnostics.first?.code == "transform.merge.merged")
    }

    @Test func keepsNeighboursWithDifferentSettings() {
        var second = cue(1000, 2000, "same")
        second.settings.align = .left
        let (merged, diagnostics) = IdenticalCueMerger().apply(to: TimedTextDocument(cues: [cue(0, 1000, "same"), second]))
        #expect(merged.cues.count == 2)
        #expect(diagnostics.isEmpty)
    }
}

@Suite struct SpeakerPrefixerTests {
    @Test func writesVoicesAsNamePrefixes() {
        var spoken = cue(0, 1000, "")
        spoken.content = [.span(Span(.voice, annotation: "Ann", children: [.text("Hello")]))]
        let prefixed = SpeakerPrefixer().apply(to: TimedTextDocument(cues: [spoken]))
        #expect(prefixed.cues[0].plainText == "Ann: Hello")
        #expect(Cue.firstVoice(in: prefixed.cues[0].content) == nil)
    }
}

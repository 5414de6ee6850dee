import CaptionsCore
import Testing

@Suite struct CueTests {
    private func cue(settings: CueSettings = CueSettings()) -> Cue {
        Cue(start: .zero, end: MediaTime(seconds: 1), settings: settings, content: [.text("Hello")])
    }

    @Test func settingsAreValuesWhereverTheyAreHeld() {
        var placed = CueSettings()
        placed.line = .value(-2)
        placed.align = .start
        var first = cue(settings: placed)
        let second = cue(settings: placed)
        #expect(first.settings == placed)
        #expect(first == second && first.hashValue == second.hashValue)

        var copy = first
        copy.settings.region = "top"
        #expect(first.settings.region == nil && copy.settings.region == "top")
        #expect(copy != first)

        first.settings = CueSettings()
        #expect(first.settings.isDefault)
        #expect(first == cue() && first.hashValue == cue().hashValue)
    }

    @Test func locationsKeepLinesAndColumnsAndSaturate() {
        var location = SourceLocation(line: 70_000, column: 3)
        #expect(location.line == 70_000 && location.column == 3)
        location.column += 1
        #expect(location.description == "70000:4")
        #expect(SourceLocation(line: Int.max, column: 1).line == Int(UInt32.max))
    }

    /// A 100,000-cue file holds 100,000 of these: the benchmark's memory target depends on it.
    @Test func aCueStaysSmall() {
        #expect(MemoryLayout<Cue>.stride <= 96)
    }
}

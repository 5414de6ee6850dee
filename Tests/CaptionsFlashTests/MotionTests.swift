import CaptionsCore
import Testing

@testable import CaptionsFlash

/// Fine texture that moves (credits rolling) is motion, not flashing; a pattern that reverses in
/// place, and a flash behind moving texture, still count (``MotionStrips``).
struct MotionTests {
    /// A texture of random values in 4-line runs (like text strokes), stable for a given line and column.
    static func texture(_ line: Int, _ column: Int) -> UInt8 {
        var hash = UInt64(truncatingIfNeeded: (line >> 2) &* 73_856_093 ^ column &* 19_349_663)
        hash = (hash ^ (hash >> 13)) &* 0x5bd1_e995
        return hash % 3 == 0 ? 235 : 16
    }

    /// Strips of three pictures, `earlier`, `before` then `now` (line, column), 200 lines of 10
    /// columns; `earlier` is `before` moved back as `now` moves it on when not given.
    /// Each line's spread (texture finer than a column) is flat unless `textures` gives the three
    /// pictures' (earlier, before, now).
    static func strips(
        earlier: ((Int, Int) -> UInt8)? = nil, before: @escaping (Int, Int) -> UInt8, now: @escaping (Int, Int) -> UInt8,
        textures: [(Int, Int) -> UInt8]? = nil
    ) -> MotionStrips {
        let strips = MotionStrips(columns: 10)
        func write(_ picture: (Int, Int) -> UInt8, texture: ((Int, Int) -> UInt8)?) {
            strips.begin(lines: 200, keeping: true)
            for line in 0..<200 {
                let (values, spreads) = (strips.line(line), strips.textureLine(line))
                for column in 0..<10 { (values[column], spreads[column]) = (picture(line, column), texture?(line, column) ?? 0) }
            }
            strips.finish()
        }
        write(earlier ?? Self.movedBack(before, as: now), texture: textures?[0])
        write(before, texture: textures?[1])
        write(now, texture: textures?[2])
        return strips
    }

    /// `before` moved back by the shift that makes `now` of it (the one within 12 lines that
    /// matches best, 0 when none does): the picture before a steady move.
    static func movedBack(_ before: @escaping (Int, Int) -> UInt8, as now: @escaping (Int, Int) -> UInt8) -> (Int, Int) -> UInt8 {
        let shift = (-12...12).min { a, b in
            func misses(_ s: Int) -> Int { (90..<110).filter { now($0, 5) != before($0 - s, 5) }.count }
            return misses(a) < misses(b)
        } ?? 0
        return { before($0 + shift, $1) }
    }

    static func explains(_ strips: MotionStrips) -> Bool {
        strips.explainsChange(lines: 100..<104, columns: 5...5, cellLines: 4, largestCellResidual: 6)
    }

    @Test func textureMovedUpIsMotion() {
        for shift in [-12, -5, -1, 3, 8] {
            let strips = Self.strips(before: Self.texture, now: { Self.texture($0 - shift, $1) })
            #expect(Self.explains(strips), "shift \(shift)")
        }
    }

    @Test func textureMovedByAFractionOfALineIsMotion() {
        // 2.5 lines: each line the mean of two of the texture's.
        let strips = Self.strips(
            before: Self.texture,
            now: { UInt8((Int(Self.texture($0 - 2, $1)) + Int(Self.texture($0 - 3, $1)) + 1) / 2) })
        #expect(Self.explains(strips))
    }

    @Test func whatNoShiftExplainsIsNotMotion() {
        // Stripes reversing (the same stripes moved half a period either way), moved texture that
        // also brightens by a flash, a move farther than `reach`, a texture that changes in place,
        // and no change at all.
        let stripes = { (line: Int, _: Int) -> UInt8 in (line / 6) % 2 == 0 ? 235 : 16 }
        let cases: [(String, (Int, Int) -> UInt8, (Int, Int) -> UInt8)] = [
            ("reversing stripes", stripes, { stripes($0 + 6, $1) }),
            ("moved and brightened", Self.texture, { UInt8(min(255, Int(Self.texture($0 - 4, $1)) + 90)) }),
            ("moved too far", Self.texture, { Self.texture($0 - 20, $1) }),
            ("changed in place", Self.texture, { Self.texture($0 + 1000, $1 + 3) }),
            ("still", Self.texture, Self.texture),
        ]
        for (name, before, now) in cases {
            #expect(!Self.explains(Self.strips(before: before, now: now)), "\(name)")
        }
    }

    /// Texture shaken up and down (each picture moved back where the one before it was) flickers
    /// at every point, which no eye follows: not motion, though each change is a shift.
    @Test func textureShakenUpAndDownIsNotMotion() {
        let strips = Self.strips(
            earlier: Self.texture, before: { Self.texture($0 - 4, $1) }, now: Self.texture)
        #expect(!Self.explains(strips))
        let steady = Self.strips(earlier: { Self.texture($0 + 4, $1) }, before: Self.texture, now: { Self.texture($0 - 4, $1) })
        #expect(Self.explains(steady))
    }

    /// Lines whose means move with the texture but whose spreads flash in place (a checkerboard of
    /// single pixels turning into flat grey of its mean behind rolling text): not motion. Spreads
    /// that move with the means are.
    @Test func aFlashOfFinerTextureIsNotExplainedByTheMeans() {
        let moved = { (line: Int, column: Int) in Self.texture(line - 4, column) }
        let inPlace: [(Int, Int) -> UInt8] = [{ _, _ in 110 }, { _, _ in 0 }, { _, _ in 110 }]
        #expect(!Self.explains(Self.strips(before: Self.texture, now: moved, textures: inPlace)))
        let spread = { (line: Int, column: Int) -> UInt8 in Self.texture(line, column + 5) / 2 }
        let following: [(Int, Int) -> UInt8] = [{ spread($0 + 4, $1) }, spread, { spread($0 - 4, $1) }]
        #expect(Self.explains(Self.strips(before: Self.texture, now: moved, textures: following)))
    }

    /// A small flash inside a window that moves: the window's shift explains most of the change,
    /// but not the cell's own (its lines brightened by 40 codes as well as moving).
    @Test func aFlashInTheCellItselfIsNotDilutedByTheWindow() {
        let brightened = { (line: Int, column: Int) -> UInt8 in
            let moved = Self.texture(line - 4, column)
            return (100..<104).contains(line) && column == 5 ? UInt8(min(255, Int(moved) + 40)) : moved
        }
        #expect(!Self.explains(Self.strips(before: Self.texture, now: brightened)))
        #expect(Self.explains(Self.strips(before: Self.texture, now: { Self.texture($0 - 4, $1) })))
    }

    /// A block's move found with what is kept from picture to picture and block to block (each
    /// column's errors, the search before) is the move searched afresh: texture rolling at two
    /// speeds, reversing in place, and shaken, over six pictures; rows of blocks of two cell heights
    /// (4 and 5 lines: searches of two widths), some searched in part, and rows searched again
    /// after others (as the second grid does).
    @Test func keptSearchesAnswerAsFreshOnes() {
        let strips = MotionStrips(columns: 10)
        let heights = (0..<48).map { ($0 / MotionStrips.blockRows) % 2 == 0 ? 4 : 5 }
        let starts = heights.indices.map { heights[..<$0].reduce(0, +) }
        let rows = heights.indices.map { starts[$0]..<starts[$0] + heights[$0] }
        let lines = rows.last!.upperBound
        let rowOfLine = rows.indices.flatMap { row in rows[row].map { _ in Int32(row) } }
        strips.setRows(rows, rowOfLine: rowOfLine, columnOfPixel: (0..<40).map { Int32($0 / 4) })
        func value(picture: Int, line: Int, column: Int) -> UInt8 {
            switch column {
            case 0..<3: Self.texture(line - 3 * picture, column)  // rolling down 3 lines a picture
            case 3..<6: Self.texture(line + 2 * picture, column)  // rolling up 2
            case 6..<8: picture % 2 == 0 ? Self.texture(line, column) : 255 - Self.texture(line, column)  // reversing
            default: line < 100 ? Self.texture(line + (picture % 2 == 0 ? 5 : -5), column) : Self.texture(line + 7 * picture, column)
            }
        }
        var found = (moves: 0, none: 0)
        for picture in 0..<6 {
            strips.begin(lines: lines, keeping: true)
            for line in 0..<lines {
                let values = strips.line(line)
                for column in 0..<10 { values[column] = value(picture: picture, line: line, column: column) }
            }
            strips.finish()
            guard picture >= 2 else { continue }
            func check(blockRow: Int, columns: ClosedRange<Int>) {
                let first = blockRow * MotionStrips.blockRows, last = min(first + MotionStrips.blockRows, rows.count) - 1
                let window = rows[first].lowerBound..<rows[last].upperBound
                // The blocks (what is kept is made or used), then each afresh.
                let kept = columns.map { strips.move(around: window, columns: $0...$0, cellLines: heights[first], block: blockRow * 10 + $0) }
                for (column, move) in zip(columns, kept) {
                    let fresh = strips.move(around: window, columns: column...column, cellLines: heights[first])
                    #expect(move == fresh, "picture \(picture), block row \(blockRow), column \(column)")
                    if fresh == nil { found.none += 1 } else { found.moves += 1 }
                }
            }
            for blockRow in 0..<6 { check(blockRow: blockRow, columns: blockRow % 2 == 0 ? 0...9 : 0...2) }
            for blockRow in [4, 2, 0] { check(blockRow: blockRow, columns: 0...9) }
        }
        #expect(found.moves >= 30 && found.none >= 30, "\(found)")
    }

    /// Stripes reversing in cells 70 lines tall (a pixel aspect ratio near 70:1) are not motion:
    /// the search of other shifts reaches 560 lines either way (it was skipped past 256).
    @Test func stripesReversingInVeryTallCellsAreNotMotion() {
        let strips = MotionStrips(columns: 3)
        let (lines, height) = (20 * 70, 70)
        for picture in 0..<3 {
            strips.begin(lines: lines, keeping: true)
            for line in 0..<lines {
                let values = strips.line(line)
                let white = (line / 70 + picture) % 2 == 0
                for column in 0..<3 { values[column] = white ? 235 : 16 }
            }
            strips.finish()
        }
        #expect(strips.move(around: 700..<770, columns: 1...1, cellLines: height) == nil)
    }

    @Test func onePictureAloneIsNeverMotion() {
        let strips = MotionStrips(columns: 10)
        strips.begin(lines: 200, keeping: true)
        strips.finish()
        #expect(!Self.explains(strips))
        // A picture of another size starts afresh, and so does one after a picture not kept.
        strips.begin(lines: 100, keeping: true)
        strips.finish()
        #expect(!strips.canJudge)
        strips.begin(lines: 100, keeping: false)
        for _ in 0..<MotionStrips.picturesBefore {
            strips.begin(lines: 100, keeping: true)
            strips.finish()
            #expect(!strips.canJudge)
        }
        strips.begin(lines: 100, keeping: true)
        strips.finish()
        #expect(strips.canJudge)
    }

    /// Through the analyzer (480 × 270: 1-pixel cells): lines of text-like texture rolling up 2
    /// lines a frame pass (each cell sees strokes go by many times a second); the same over a
    /// background flashing at 5 Hz fails.
    @Test func rollingTextPassesAndAFlashBehindItFails() {
        let builder = FrameBuilder(width: 480, height: 270)
        func text(_ x: Int, _ y: Int) -> Bool { y % 12 < 8 && Self.texture(y, x / 2) > 128 }
        let rolling = builder.scan(fps: 30, seconds: 2) { frame in
            { x, y in text(x, y + 2 * frame) ? (255, 255, 255) : (0, 0, 0) }
        }
        #expect(rolling.verdict == .pass, "\(rolling.hazards)")
        let flashing = builder.scan(fps: 30, seconds: 2) { frame in
            let background = frame % 6 < 3 ? 0 : 150
            return { x, y in text(x, y + 2 * frame) ? (255, 255, 255) : (background, background, background) }
        }
        #expect(flashing.verdict == .fail)
    }
}

import Foundation
import CCaptionsKernels
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

    /// A move of a fraction of a line as scalers and text renderers draw it: not the straight mix
    /// of the two lines it falls between, but a mix in linear light (46 codes brighter at a
    /// white-black edge), the brighter of the two (strokes drawn bold), or past them by the ringing
    /// of a cubic filter. Each value lies between the two lines' or an eighth of their difference
    /// past them, which is all a move between them is held to (the straight mix left up to 11
    /// codes on credits scaled to 720p, which read as flashing).
    @Test func textureMovedByAFractionOfALineThroughAnyFilterIsMotion() {
        func light(_ code: UInt8) -> Double { pow(Double(code) / 255, 2.2) }
        let filters: [(String, (UInt8, UInt8) -> UInt8)] = [
            ("mixed in linear light", { a, b in UInt8((pow((light(a) + light(b)) / 2, 1 / 2.2) * 255).rounded()) }),
            ("the brighter", { a, b in max(a, b) }),
            // A cubic or Lanczos filter rings past an edge, by 7–13 % of it.
            ("ringing past the brighter by a tenth of the edge", { a, b in
                UInt8(min(255, Int(max(a, b)) + abs(Int(a) - Int(b)) / 10)) }),
        ]
        for (name, filter) in filters {
            let strips = Self.strips(before: Self.texture, now: { filter(Self.texture($0 - 2, $1), Self.texture($0 - 3, $1)) })
            // The cell held to 2 codes: what is left is the filter's, not the allowance's.
            #expect(strips.explainsChange(lines: 100..<104, columns: 5...5, cellLines: 4, largestCellResidual: 2), "\(name)")
        }
        // Still not a flash in the flat parts between strokes: brightened there, it is not a move.
        let brightened = Self.strips(
            before: Self.texture,
            now: { line, column in
                let (a, b) = (Self.texture(line - 2, column), Self.texture(line - 3, column))
                return a == b ? UInt8(min(255, Int(a) + 40)) : max(a, b)
            })
        #expect(!Self.explains(brightened))
    }

    /// Stripes drifting a quarter period a picture flicker at every point (sample
    /// `v8-stripes-drifting-fail`: 8-line stripes drifting 4 lines, here as scaled from 1080p to
    /// 720p: 5.33-line stripes drifting 2.67). Moved 8 lines back they match exactly, and as
    /// well moved 2.67 lines on, which only a move between whole lines finds. Not motion.
    @Test func stripesDriftingByAFractionOfALineAreNotMotion() {
        // Each line's share of white, the stripes drawn `offset` lines down.
        func stripes(_ offset: Double) -> (Int, Int) -> UInt8 {
            { line, _ in
                let period = 32.0 / 3
                var white = 0.0
                for step in 0..<64 {
                    let y = Double(line) + (Double(step) + 0.5) / 64 - offset
                    if (y / period - (y / period).rounded(.down)) < 0.5 { white += 1.0 / 64 }
                }
                return UInt8((16 + 219 * white).rounded())
            }
        }
        let strips = Self.strips(earlier: stripes(0), before: stripes(8.0 / 3), now: stripes(16.0 / 3))
        // Cells as at 720p, 2.67 lines tall (reach 8 lines, search 22: 3 periods back is out of it).
        #expect(strips.move(around: 100..<103, columns: 5...5, cellLines: 8.0 / 3) == nil)
    }

    /// The spans the search skips are only those that cannot leave less than the limit: over
    /// pictures moved by fractions of a line (with noise, and random ones), windows at the top,
    /// the bottom and the middle, every span measured below the limit was wanted
    /// (``ccaptions_wanted_spans``; a first version skipped spans beside no least whole error, and
    /// spans near the picture's edges).
    @Test func skippedSpansCannotLeaveLessThanTheLimit() {
        var generator = SystemRandomNumberGenerator()
        let (lines, columns, search) = (60, 3, 8)
        let width = 2 * search + 1
        var checked = 0
        for trial in 0..<1200 {
            // Noise, a slow walk with jumps (small line-to-line steps), and 4-line runs of two values.
            var walk = 128
            let before = (0..<(lines * columns + 16)).map { index -> UInt8 in
                switch trial % 3 {
                case 0: return UInt8.random(in: 0...255, using: &generator)
                case 1:
                    walk = Int.random(in: 0..<12, using: &generator) == 0 ? Int.random(in: 0...255, using: &generator)
                        : min(255, max(0, walk + Int.random(in: -3...3, using: &generator)))
                    return UInt8(walk)
                default: return (index / 4) % 3 == 0 ? 235 : 16
                }
            }
            let move = Double.random(in: -7...7, using: &generator)
            let noise = trial % 4
            var now = [UInt8](repeating: 0, count: lines * columns + 16)
            for column in 0..<columns {
                for y in 0..<lines {
                    let source = Double(y) - move
                    let (whole, fraction) = (Int(source.rounded(.down)), source - source.rounded(.down))
                    let at = { (line: Int) in Double(before[column * lines + min(max(line, 0), lines - 1)]) }
                    let mixed = trial % 7 == 0 ? Double.random(in: 0...255, using: &generator)
                        : at(whole) + (at(whole + 1) - at(whole)) * fraction + Double(Int.random(in: -noise...noise, using: &generator))
                    now[column * lines + y] = UInt8(min(255, max(0, mixed.rounded())))
                }
            }
            let (top, bottom) = [(0, 12), (48, 60), (20, 36), (2, 10)][trial % 4]
            var sums = [UInt32](repeating: 0, count: width), counts = sums
            ccaptions_shift_errors(now, before, lines, 0, columns - 1, top, bottom, Int32(search), &sums, &counts)
            var spanSums = [UInt32](repeating: 0, count: width), spanCounts = spanSums
            let all = [UInt8](repeating: 1, count: width)
            ccaptions_span_errors(now, before, lines, 0, columns - 1, top, bottom, Int32(search), all, &spanSums, &spanCounts)
            let shift = Float(Int.random(in: -search...search, using: &generator))
            let limit = Float.random(in: 1...40, using: &generator)
            let needed = UInt32(((bottom - top) / 2 + 1) * columns)
            var wanted = [UInt8](repeating: 9, count: width)
            var steps = [UInt32](repeating: 0, count: bottom - top + 2 * search + 1)
            _ = ccaptions_wanted_spans(
                sums, counts, Int32(search), shift, limit, before, lines, 0, columns - 1, top, bottom, needed, &steps, &wanted)
            for span in -search..<search where abs(Float(span) + 0.5 - shift) >= 2 && spanCounts[span + search] >= needed {
                let measured = Float(spanSums[span + search]) / Float(spanCounts[span + search])
                guard measured < limit else { continue }
                checked += 1
                #expect(wanted[span + search] == 1, "trial \(trial), window \(top)..<\(bottom), span \(span): \(measured) < \(limit)")
            }
        }
        #expect(checked > 100)
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
                let kept = columns.map { strips.move(around: window, columns: $0...$0, cellLines: Float(heights[first]), block: blockRow * 10 + $0) }
                for (column, move) in zip(columns, kept) {
                    let fresh = strips.move(around: window, columns: column...column, cellLines: Float(heights[first]))
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
        #expect(strips.move(around: 700..<770, columns: 1...1, cellLines: Float(height)) == nil)
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

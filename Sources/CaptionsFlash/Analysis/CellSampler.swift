import CCaptionsKernels
import CaptionsCore

/// Means every pixel of a picture into the cells of a ``CellGrid``: for YUV the mean Y, Cb and Cr
/// codes, for RGB the mean R, G, B (alpha composited over black), all on an 8-bit scale (a 10-bit
/// limited-range 940 is 235.0), so one colour model serves every bit depth without truncation.
///
/// Every line and every column is read. Rows are summed into one accumulator per column (a loop the
/// compiler vectorises), and the columns are folded into cells once per row of cells.
///
/// The squares of the samples are summed too (luma's for YUV, each channel's for RGB), which gives
/// each cell's spread of values (their standard deviation): light is not linear in code values,
/// so a cell of fine texture is lit from its spread as well as its mean (``ColorModel/cellLight``).
/// Without it a 1-pixel black and white checkerboard read as the mid grey of its mean code, a
/// fifth of its light, and a flash between the two was not seen. A field of
/// an interlaced frame is a picture of its own (``VideoFrame/field(bottom:)``) whose lines map to
/// the frame's rows of cells.
struct CellSampler {
    let grid: CellGrid
    /// Mean channel values per cell, row by row, after ``sample(_:frameHeight:parity:)``.
    private(set) var channel0: [Float]
    private(set) var channel1: [Float]
    private(set) var channel2: [Float]
    /// Each cell's spread of values (standard deviation, 8-bit scale) in channel 0 (luma or R),
    /// and for RGB in channels 1 and 2 (``spreadChannels``; empty until an RGB picture comes).
    private(set) var spread0: [Float]
    private(set) var spread1: [Float]
    private(set) var spread2: [Float]
    /// How many channels have a spread: 1 for YUV and grey (luma), 3 for RGB.
    private(set) var spreadChannels = 1
    /// How many luma samples (pixels) of the current geometry fall in each cell.
    private(set) var cellPixels: [Float] = []
    /// Bumped whenever the geometry, and so ``cellPixels``, changes.
    private(set) var geometryVersion = 0
    /// Per-cell sums of each channel (three buffers of `grid.count`), and of their squares.
    private let sums: Buffers
    private var squareSums: Buffers
    /// Per-column sums of each channel over the lines of the current row of cells, and of their
    /// squares (each shifted right by ``squareShift``).
    var columnSums: Buffers
    var columnSquares: Buffers
    /// How far each square is shifted right: 0 for 8-bit samples, 2 × (bits − 8) for wider ones.
    var squareShift = 0
    private var geometry: Geometry?
    private(set) var maps = Maps()
    /// Each line's mean luma a cell column, this picture's and the last two's (``MotionStrips``).
    let strips: MotionStrips
    /// One line's luma run sums and squares, on their way to ``strips`` and the column sums.
    let stripRuns: Buffers
    /// Where cells are not a uniform width and strips are kept: the current row of cells' luma
    /// sums (0) and squares (1) a cell column, added line by line as the strips are kept.
    let stripRowSums: Buffers
    /// Where the picture being sampled feeds its cells row by row
    /// (``sample(_:frameHeight:parity:keepingStrips:feeding:)``).
    var feeding: Feeding?
    /// A row of zero sums, for the rows of cells no line reaches.
    let zeroRow: Buffers

    /// What the per-picture maps were built for.
    private struct Geometry: Hashable {
        var width, height, frameHeight, parity, shiftX, shiftY: Int
    }

    /// The lines of the picture in cell row `row`.
    func lines(ofRow row: Int) -> Range<Int> { row < maps.linesOfRow.count ? maps.linesOfRow[row] : 0..<0 }

    /// The pixels of a cell across, where cells are a whole number of pixels (the grids that have
    /// a second grid); 0 before a picture.
    var cellWidth: Int { maps.columnOfX.isEmpty ? 0 : maps.columnOfX.count / grid.columns }

    init(grid: CellGrid) {
        self.grid = grid
        channel0 = [Float](repeating: 0, count: grid.count)
        channel1 = channel0
        channel2 = channel0
        (spread0, spread1, spread2) = (channel0, [], [])
        sums = Buffers(count: grid.count)
        squareSums = Buffers(count: grid.count, channels: 1)
        columnSums = Buffers(count: 0)
        columnSquares = Buffers(count: 0)
        strips = MotionStrips(columns: grid.columns)
        stripRuns = Buffers(count: grid.columns)
        stripRowSums = Buffers(count: grid.columns)
        zeroRow = Buffers(count: grid.columns, channels: 1)
    }

    /// Samples `picture`, a whole frame or one field of a frame `frameHeight` lines tall (`parity`
    /// 1 for the odd lines), into ``channel0``–``channel2``; and, when `keepingStrips`, luma's
    /// ``strips`` (otherwise the strips of the next picture have nothing to be compared with).
    ///
    /// Where the picture is summed a row of cells at a time (planar YUV without alpha, or grey,
    /// in cells a whole number of samples wide), each row is compared with what `feed` holds and
    /// the cells that changed are fed and listed there (``ccaptions_feed_row``): the channels are
    /// not written, and the number of changed cells is returned. Otherwise nil, and the channels
    /// are written for the caller to compare.
    mutating func sample(
        _ picture: VideoFrame, frameHeight: Int, parity: Int, keepingStrips: Bool = true, feeding feed: ccaptions_feed
    ) -> Int? {
        let (shiftX, shiftY) = Self.chromaShifts(picture.layout)
        let key = Geometry(
            width: picture.width, height: picture.height, frameHeight: frameHeight, parity: parity, shiftX: shiftX,
            shiftY: shiftY)
        if key != geometry { rebuildMaps(for: key) }
        let depthScale: Float
        if picture.layout.isRGB || picture.range == .full {
            depthScale = 255 / Float((1 << picture.bitDepth) - 1)
        } else {
            depthScale = 1 / Float(1 << (picture.bitDepth - 8))
        }
        // 8-bit samples are summed times their alpha and divided here; wider ones are divided
        // sample by sample (``premultiplied(_:_:alphaMax:)``).
        var alphaScale: Float = 1
        if case .packedRGB(_, _, _, _, _?) = picture.layout, picture.bytesPerSample == 1 {
            alphaScale = 1 / 255
        } else if case .planarGBR(alpha: true) = picture.layout, picture.bytesPerSample == 1 {
            alphaScale = 1 / 255
        }
        let chromaPlanes = Self.hasSeparateChroma(picture.layout)
        squareShift = picture.bytesPerSample == 1 ? 0 : 2 * (picture.bitDepth - 8)
        spreadChannels = picture.layout.isRGB ? 3 : 1
        if spreadChannels == 3, spread1.isEmpty {
            // RGB spreads, made when the first RGB picture comes (megabytes at 2160p otherwise).
            (spread1, spread2) = (spread0, spread0)
            squareSums = Buffers(count: grid.count)
        }
        let scales = Scales(
            luma: depthScale * alphaScale, chroma: chromaPlanes ? depthScale : depthScale * alphaScale,
            squares: depthScale * depthScale * Float(1 << squareShift))
        let direct = uniformRuns(for: picture) != nil
        if !direct {
            sums.clear()
            squareSums.clear()
        }
        let isGrey = { if case .gray = picture.layout { true } else { false } }()
        feeding = direct ? Feeding(feed: feed, isGrey: isGrey) : nil
        defer { feeding = nil }
        if picture.bytesPerSample == 1 {
            accumulate(picture, as: UInt8.self, shiftX: shiftX, shiftY: shiftY, scales: scales, keepingStrips: keepingStrips)
        } else {
            accumulate(picture, as: UInt16.self, shiftX: shiftX, shiftY: shiftY, scales: scales, keepingStrips: keepingStrips)
        }
        if !direct {
            let (sum0, sum1, sum2) = sums.channels
            let count = grid.count
            maps.lumaWeight.withUnsafeBufferPointer { lumaWeight in
                maps.chromaWeight.withUnsafeBufferPointer { chromaWeight in
                    let chroma = chromaPlanes ? chromaWeight : lumaWeight
                    channel0.withUnsafeMutableBufferPointer {
                        ccaptions_scale_sums(sum0, lumaWeight.baseAddress, scales.luma, $0.baseAddress, count)
                    }
                    channel1.withUnsafeMutableBufferPointer {
                        ccaptions_scale_sums(sum1, chroma.baseAddress, scales.chroma, $0.baseAddress, count)
                    }
                    channel2.withUnsafeMutableBufferPointer {
                        ccaptions_scale_sums(sum2, chroma.baseAddress, scales.chroma, $0.baseAddress, count)
                    }
                    for channel in 0..<spreadChannels {
                        setSpreads(
                            channel: channel, squares: squareSums[channel], weights: lumaWeight.baseAddress!,
                            scale: scales.squares, from: 0, count: count)
                    }
                }
            }
        }
        if feeding != nil {
            feedRows(upTo: grid.rows, scales: scales)
            return feeding?.found
        }
        if case .gray = picture.layout {
            let neutral: Float = 128
            for cell in 0..<grid.count {
                channel1[cell] = neutral
                channel2[cell] = neutral
            }
        }
        return nil
    }

    /// What turns a cell's sums into means on the 8-bit scale, with its weights (1 / samples); and
    /// its sums of (shifted) squares into mean squares on that scale.
    struct Scales {
        var luma, chroma, squares: Float
    }

    /// The spreads of `count` cells from `from` of one channel, from their sums of squares
    /// (`squares`, the first of them) and the channel's means (already written): √(mean square − mean²), 0 where rounding leaves
    /// less than nothing.
    private mutating func setSpreads(
        channel: Int, squares: UnsafePointer<UInt32>, weights: UnsafePointer<Float>, scale: Float, from: Int, count: Int
    ) {
        func fill(_ spread: inout [Float], _ means: [Float]) {
            spread.withUnsafeMutableBufferPointer { spread in
                means.withUnsafeBufferPointer { means in
                    ccaptions_spreads(
                        squares, weights + from, scale, means.baseAddress! + from, spread.baseAddress! + from, count)
                }
            }
        }
        switch channel {
        case 0: fill(&spread0, channel0)
        case 1: fill(&spread1, channel1)
        default: fill(&spread2, channel2)
        }
    }

    /// The samples a cell per row (luma, chroma) when rows are summed straight into cells, for
    /// the layouts that have a kernel for it (not YUV with alpha, which is composited first).
    private func uniformRuns(for picture: VideoFrame) -> (luma: Int, chroma: Int)? {
        switch picture.layout {
        case .planarYUV: picture.planes.3.base == nil ? maps.uniformRuns : nil
        case .gray: maps.uniformRuns
        default: nil
        }
    }

    private static func chromaShifts(_ layout: VideoFrame.Layout) -> (Int, Int) {
        switch layout {
        case .planarYUV(let x, let y): (x, y)
        case .nv12: (1, 1)
        default: (0, 0)
        }
    }

    private static func hasSeparateChroma(_ layout: VideoFrame.Layout) -> Bool {
        switch layout {
        case .planarYUV, .nv12: true
        default: false
        }
    }

    private mutating func rebuildMaps(for key: Geometry) {
        geometry = key
        // Rows of cells that no line reaches (fields capped by the grid) stay at zero.
        channel0 = [Float](repeating: 0, count: grid.count)
        channel1 = channel0
        channel2 = channel0
        spread0 = channel0
        if !spread1.isEmpty { (spread1, spread2) = (channel0, channel0) }
        let width = key.width
        let chromaWidth = (width + (1 << key.shiftX) - 1) >> key.shiftX
        maps.columnOfX = (0..<width).map { Int32($0 * grid.columns / width) }
        let step = key.frameHeight > key.height ? 2 : 1
        maps.rowOfLine = (0..<key.height).map { line in
            Int32(min(line * step + key.parity, key.frameHeight - 1) * grid.rows / key.frameHeight)
        }
        var lumaCount = [Float](repeating: 0, count: grid.count)
        var columnPixels = [Float](repeating: 0, count: grid.columns)
        for column in maps.columnOfX { columnPixels[Int(column)] += 1 }
        maps.columnReciprocals = columnPixels.map { $0 > 0 ? ((UInt64(1) << 32) + UInt64($0) - 1) / UInt64($0) : 0 }
        // Forward, so that a column no pixel falls in (none does while columns ≤ width) starts
        // where the next does, and is empty.
        maps.columnStarts = [Int32](repeating: 0, count: grid.columns + 1)
        var nextX = 0
        for column in 0...grid.columns {
            while nextX < width, Int(maps.columnOfX[nextX]) < column { nextX += 1 }
            maps.columnStarts[column] = Int32(nextX)
        }
        maps.columnPerSample = maps.columnReciprocals.map { Float($0) / 4_294_967_296 }
        maps.linesOfRow = [Range<Int>](repeating: 0..<0, count: grid.rows)
        for (line, row) in maps.rowOfLine.enumerated() {
            let lines = maps.linesOfRow[Int(row)]
            maps.linesOfRow[Int(row)] = lines.isEmpty ? line..<line + 1 : lines.lowerBound..<line + 1
        }
        strips.setRows(maps.linesOfRow, rowOfLine: maps.rowOfLine, columnOfPixel: maps.columnOfX)
        for row in maps.rowOfLine {
            for column in 0..<grid.columns { lumaCount[Int(row) * grid.columns + column] += columnPixels[column] }
        }
        maps.lumaWeight = lumaCount.map { $0 > 0 ? 1 / $0 : 0 }
        cellPixels = lumaCount
        geometryVersion += 1
        // Chroma at its own resolution: each chroma column to the cell of its first luma column,
        // each chroma line once for every row of cells its luma lines fall in.
        maps.columnOfChromaX = (0..<chromaWidth).map { maps.columnOfX[min($0 << key.shiftX, width - 1)] }
        var chromaColumns = [Float](repeating: 0, count: grid.columns)
        for column in maps.columnOfChromaX { chromaColumns[Int(column)] += 1 }
        maps.replicatesChroma = chromaColumns.contains(0)
        let cellColumns = grid.columns
        func uniform(_ count: Int) -> Int? {
            count % cellColumns == 0 && [1, 2, 4, 8].contains(count / cellColumns) ? count / cellColumns : nil
        }
        if let luma = uniform(width), let chroma = uniform(chromaWidth), !maps.replicatesChroma {
            maps.uniformRuns = (luma, chroma)
        } else {
            maps.uniformRuns = nil
        }
        maps.lumaFold = .make(map: maps.columnOfX, count: width, shift: 0, cells: grid.columns)
        maps.chromaFold =
            maps.replicatesChroma
            ? .make(map: maps.columnOfX, count: width, shift: key.shiftX, cells: grid.columns)
            : .make(map: maps.columnOfChromaX, count: chromaWidth, shift: 0, cells: grid.columns)
        let mask = (1 << key.shiftY) - 1
        maps.addsChroma = (0..<key.height).map { line in
            maps.replicatesChroma || line & mask == 0 || maps.rowOfLine[line] != maps.rowOfLine[line - 1]
        }
        if maps.replicatesChroma {
            maps.chromaWeight = maps.lumaWeight
        } else {
            var chromaLines = [Float](repeating: 0, count: grid.rows)
            for (line, row) in maps.rowOfLine.enumerated() where maps.addsChroma[line] { chromaLines[Int(row)] += 1 }
            maps.chromaWeight = (0..<grid.count).map { cell in
                let count = chromaLines[cell / grid.columns] * chromaColumns[cell % grid.columns]
                return count > 0 ? 1 / count : 0
            }
        }
        columnSums = Buffers(count: max(width, chromaWidth))
        columnSquares = Buffers(count: width)
    }

    /// How many lines ahead of the one summed a line is fetched into cache: the sums wait on
    /// memory otherwise (on the 60 s 1080p bench clip, three alternating runs, the scan's CPU
    /// went from 9.2–9.4 s to 8.8–8.9 s; 4 lines did a little less, 16 the same).
    static let prefetchLines = 8

    /// Sums every sample of the picture into ``sums`` (per cell).
    private mutating func accumulate<Sample: FixedWidthInteger & UnsignedInteger>(
        _ picture: VideoFrame, as: Sample.Type, shiftX: Int, shiftY: Int, scales: Scales, keepingStrips: Bool
    ) {
        let width = picture.width
        let height = picture.height
        let chromaWidth = (width + (1 << shiftX) - 1) >> shiftX
        let planes = picture.planes
        let layout = picture.layout
        var currentRow = -1
        let addsChroma = maps.addsChroma
        let cellColumns = grid.columns
        let uniformRuns = uniformRuns(for: picture)
        let alphaMax = UInt64(1) << picture.bitDepth - 1
        // Black, and neutral chroma, in this picture's codes: what YUV with alpha is composited over.
        let codeScale = UInt64(1) << (picture.bitDepth - 8)
        let (blackLuma, neutralChroma) = (picture.range == .full ? 0 : 16 * codeScale, 128 * codeScale)
        // Luma's strips for ``MotionStrips``, where there is a luma plane without alpha.
        let keepsStrips: Bool
        switch layout {
        case .planarYUV: keepsStrips = keepingStrips && planes.3.base == nil
        case .nv12, .gray: keepsStrips = keepingStrips
        default: keepsStrips = false
        }
        strips.begin(lines: height, keeping: keepsStrips)
        let depthShift = Sample.bitWidth == 16 ? max(0, picture.bitDepth - 8) : 0
        let (lumaRuns, lumaSquares) = (stripRuns[0], stripRuns[1])
        // A local copy of the map, not a closure over it: a closure capturing `self` in a
        // mutating method copied the whole sampler (20 references) for every line.
        let rowOfLine = maps.rowOfLine
        let (lumaBytes, chromaBytes) = (width * MemoryLayout<Sample>.size, chromaWidth * MemoryLayout<Sample>.size)
        let chromaPlanes = { if case .planarYUV = layout { true } else { false } }()
        func prefetch(_ plane: VideoFrame.Plane, line: Int, bytes: Int) {
            if let base = plane.base { ccaptions_prefetch_read(base + line * plane.stride, bytes) }
        }
        do {
            for line in 0..<height {
                let row = Int(rowOfLine[line])
                if row != currentRow {
                    if currentRow >= 0 {
                        flush(
                            row: currentRow, layout: layout, uniform: uniformRuns != nil, scales: scales,
                            lumaInColumns: keepsStrips)
                    }
                    currentRow = row
                }
                func samples(_ plane: VideoFrame.Plane, _ line: Int) -> UnsafePointer<Sample>? {
                    plane.base.map { UnsafeRawPointer($0 + line * plane.stride).assumingMemoryBound(to: Sample.self) }
                }
                if let runs = uniformRuns {
                    // Planar YUV without alpha, or grey (``uniformRuns(for:)``): luma, then chroma,
                    // the lines `prefetchLines` ahead fetched into cache meanwhile.
                    let ahead = line &+ Self.prefetchLines
                    if ahead < height {
                        prefetch(planes.0, line: ahead, bytes: lumaBytes)
                        if chromaPlanes, addsChroma[ahead] {
                            prefetch(planes.1, line: ahead &>> shiftY, bytes: chromaBytes)
                            prefetch(planes.2, line: ahead &>> shiftY, bytes: chromaBytes)
                        }
                    }
                    let luma = samples(planes.0, line)
                    if keepsStrips {
                        addLumaRuns(
                            luma, width: runs.luma, cells: cellColumns, depthShift: depthShift, runs: lumaRuns,
                            squares: lumaSquares, line: line)
                    } else {
                        addRuns(luma, width: runs.luma, cells: cellColumns, into: 0)
                        addRunSquares(luma, width: runs.luma, cells: cellColumns)
                    }
                    if case .planarYUV = layout, addsChroma[line] {
                        addRuns(samples(planes.1, line &>> shiftY), width: runs.chroma, cells: cellColumns, into: 1)
                        addRuns(samples(planes.2, line &>> shiftY), width: runs.chroma, cells: cellColumns, into: 2)
                    }
                    continue
                }
                switch layout {
                case .planarYUV:
                    if let a = samples(planes.3, line) {
                        addOverBlack(
                            samples(planes.0, line), alpha: a, alphaShift: 0, alphaMax: alphaMax, black: blackLuma,
                            count: width, into: 0)
                        if addsChroma[line] {
                            for channel in 1...2 {
                                addOverBlack(
                                    samples(channel == 1 ? planes.1 : planes.2, line &>> shiftY), alpha: a, alphaShift: shiftX,
                                    alphaMax: alphaMax, black: neutralChroma, count: chromaWidth, into: channel)
                            }
                        }
                        break
                    }
                    addLuma(samples(planes.0, line), count: width, line: line, depthShift: depthShift, keepingStrips: keepsStrips)
                    if addsChroma[line] {
                        add(samples(planes.1, line &>> shiftY), count: chromaWidth, into: 1)
                        add(samples(planes.2, line &>> shiftY), count: chromaWidth, into: 2)
                    }
                case .nv12:
                    addLuma(samples(planes.0, line), count: width, line: line, depthShift: depthShift, keepingStrips: keepsStrips)
                    if addsChroma[line], let uv = samples(planes.1, line &>> 1) { addInterleaved(uv, count: chromaWidth) }
                case .gray:
                    addLuma(samples(planes.0, line), count: width, line: line, depthShift: depthShift, keepingStrips: keepsStrips)
                case .planarGBR(let alpha):
                    if alpha, let a = samples(planes.3, line) {
                        for (plane, channel) in [(planes.2, 0), (planes.0, 1), (planes.1, 2)] {
                            addPremultiplied(samples(plane, line), alpha: a, alphaMax: alphaMax, count: width, into: channel)
                        }
                    } else {
                        add(samples(planes.2, line), count: width, into: 0, squared: true)
                        add(samples(planes.0, line), count: width, into: 1, squared: true)
                        add(samples(planes.1, line), count: width, into: 2, squared: true)
                    }
                case .packedRGB(let components, let red, let green, let blue, let alpha):
                    if let pixels = samples(planes.0, line) {
                        addPacked(pixels, count: width, components: components, offsets: (red, green, blue), alpha: alpha, alphaMax: alphaMax)
                    }
                }
            }
        }
        if currentRow >= 0 {
            flush(
                row: currentRow, layout: layout, uniform: uniformRuns != nil, scales: scales, lumaInColumns: keepsStrips)
        }
        if keepsStrips { strips.finish() }
    }

    /// Adds a line of luma to the row's sums: through its strip where strips are kept (the strip's
    /// kernel sums each cell column), else sample by sample into the column sums.
    @inline(__always)
    private func addLuma<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, count: Int, line: Int, depthShift: Int, keepingStrips: Bool
    ) {
        if keepingStrips {
            keepStrip(row, count: count, line: line, depthShift: depthShift)
        } else {
            add(row, count: count, into: 0, squared: true)
        }
    }

    /// Folds the column sums into the cells of `row` and clears them. When rows are summed
    /// straight into cells (`uniform`), each row of cells is complete here and is fed at once
    /// (``feedRow(_:from:squares:scales:)``), with no per-frame buffer of sums for the whole grid.
    private mutating func flush(
        row: Int, layout: VideoFrame.Layout, uniform: Bool, scales: Scales, lumaInColumns: Bool = false
    ) {
        let base = row * grid.columns
        if uniform {
            feedRows(upTo: row, scales: scales)
            feedRow(row, from: columnSums, squares: columnSquares[0], scales: scales)
            for channel in 0..<3 { columnSums[channel].update(repeating: 0, count: grid.columns) }
            columnSquares[0].update(repeating: 0, count: grid.columns)
            return
        }
        let separateChroma = Self.hasSeparateChroma(layout)
        let channelCount = { if case .gray = layout { return 1 } else { return 3 } }()
        // Luma kept with strips is summed a cell column already (``addLuma``).
        if lumaInColumns {
            let (rowSums, rowSquares) = (stripRowSums[0], stripRowSums[1])
            let (cellSums, cellSquares) = (sums[0] + base, squareSums[0] + base)
            for column in 0..<grid.columns {
                cellSums[column] &+= rowSums[column]
                cellSquares[column] &+= rowSquares[column]
            }
            rowSums.update(repeating: 0, count: grid.columns)
            rowSquares.update(repeating: 0, count: grid.columns)
        }
        for channel in (lumaInColumns ? 1 : 0)..<channelCount {
            let fold = channel > 0 && separateChroma ? maps.chromaFold : maps.lumaFold
            fold.apply(columnSums[channel], into: sums[channel] + base)
        }
        for channel in (lumaInColumns ? 1 : 0)..<spreadChannels {
            maps.lumaFold.apply(columnSquares[channel], into: squareSums[channel] + base)
        }
    }
}

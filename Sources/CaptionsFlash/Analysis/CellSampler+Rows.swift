import CCaptionsKernels

/// The row kernels of ``CellSampler``: each adds one line of samples to the column (or cell)
/// accumulators, in the loops that run over every pixel of every frame.
extension CellSampler {
    /// Adds a row of samples to the column sums of `channel`, and when `squared` their squares
    /// (each shifted right by ``squareShift``) to its column squares.
    @inline(__always)
    func add<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, count: Int, into channel: Int, squared: Bool = false
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        for x in 0..<count { sums[x] &+= UInt32(truncatingIfNeeded: row[x]) }
        guard squared else { return }
        let squares = columnSquares[channel]
        let shift = UInt32(squareShift)
        for x in 0..<count {
            let value = UInt32(truncatingIfNeeded: row[x])
            squares[x] &+= (value &* value) &>> shift
        }
    }

    /// Adds the squares of a row of samples to `squares` (the luma column squares unless said),
    /// `width` samples a cell (the kernel for ``addRuns(_:width:cells:into:)``).
    @inline(__always)
    func addRunSquares<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, width: Int, cells: Int, into squares: UnsafeMutablePointer<UInt32>? = nil
    ) {
        guard let row else { return }
        let squares = squares ?? columnSquares[0]
        if Sample.bitWidth == 16 {
            ccaptions_add_run_squares_u16(
                UnsafeRawPointer(row).assumingMemoryBound(to: UInt16.self), Int32(width), cells, Int32(squareShift), squares)
        } else {
            ccaptions_add_run_squares_u8(UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self), Int32(width), cells, squares)
        }
    }

    /// Adds one composited value (already on the samples' scale) and its square to column `x`.
    @inline(__always)
    private func addSquare(_ value: UInt32, at x: Int, of squares: UnsafeMutablePointer<UInt32>) {
        squares[x] &+= (value &* value) &>> UInt32(squareShift)
    }

    /// Adds a row of samples (8 or 16 bits) to per-cell accumulators, `width` (1, 2, 4 or 8)
    /// samples a cell (a vectorised kernel in `CCaptionsKernels`).
    @inline(__always)
    func addRuns<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, width: Int, cells: Int, into channel: Int
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        if Sample.bitWidth == 16 {
            ccaptions_add_runs_u16(UnsafeRawPointer(row).assumingMemoryBound(to: UInt16.self), Int32(width), cells, sums)
        } else {
            ccaptions_add_runs_u8(UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self), Int32(width), cells, sums)
        }
    }

    /// Adds a row of luma samples and their squares to the cells' sums like
    /// ``addRuns(_:width:cells:into:)`` (channel 0) and ``addRunSquares(_:width:cells:into:)``, and
    /// keeps it as line `line`'s strips of means and spreads (``MotionStrips``; `depthShift`: bits
    /// past 8). `runs` and `squares` are zeroed scratch rows, `sums` and `columnSquares` channel 0's
    /// column sums and squares.
    @inline(__always)
    func addLumaRuns<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, width: Int, cells: Int, depthShift: Int, runs: UnsafeMutablePointer<UInt32>,
        squares: UnsafeMutablePointer<UInt32>, line: Int
    ) {
        guard let row else { return }
        if Sample.bitWidth == 16 {
            ccaptions_add_runs_u16(UnsafeRawPointer(row).assumingMemoryBound(to: UInt16.self), Int32(width), cells, runs)
        } else {
            ccaptions_add_runs_u8(UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self), Int32(width), cells, runs)
        }
        addRunSquares(row, width: width, cells: cells, into: squares)
        let merge: Int32 = strips.merges(line) ? 1 : 0
        ccaptions_keep_texture(
            squares, runs, cells, Int32(width.trailingZeroBitCount), Int32(depthShift), merge, columnSquares[0],
            strips.textureLine(line))
        ccaptions_keep_strip(runs, cells, Int32(width.trailingZeroBitCount + depthShift), merge, columnSums[0], strips.line(line))
    }

    /// Keeps line `line`'s strip (``MotionStrips``) where cells are not a uniform width: each cell
    /// column's mean sample on the 8-bit scale (`depthShift`: bits past 8), and its spread; and
    /// adds the line's sums and squares a cell column to ``stripRowSums`` (its row of cells' luma,
    /// with no sum a pixel to fold).
    func keepStrip<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, count: Int, line: Int, depthShift: Int
    ) {
        guard let row else { return }
        guard count == maps.columnOfX.count else {
            // Not the width the maps were made for (never so far): the line's sums all the same.
            let (sums, squares, shift) = (stripRowSums[0], stripRowSums[1], UInt32(squareShift))
            for x in 0..<min(count, maps.columnOfX.count) {
                let (column, value) = (Int(maps.columnOfX[x]), UInt32(truncatingIfNeeded: row[x]))
                sums[column] &+= value
                squares[column] &+= (value &* value) &>> shift
            }
            return
        }
        let (strip, texture, merge) = (strips.line(line), strips.textureLine(line), Int32(strips.merges(line) ? 1 : 0))
        let (runs, squares) = (stripRuns[0], stripRuns[1])
        maps.columnStarts.withUnsafeBufferPointer { starts in
            maps.columnReciprocals.withUnsafeBufferPointer { reciprocals in
                maps.columnPerSample.withUnsafeBufferPointer { perSample in
                    let (starts, reciprocals, perSample, columns) = (
                        starts.baseAddress, reciprocals.baseAddress, perSample.baseAddress, reciprocals.count
                    )
                    if Sample.bitWidth == 16 {
                        ccaptions_keep_strip_mapped_u16(
                            UnsafeRawPointer(row).assumingMemoryBound(to: UInt16.self), starts, reciprocals, perSample, columns,
                            Int32(depthShift), Int32(squareShift), merge, runs, squares, stripRowSums[0], stripRowSums[1], strip,
                            texture)
                    } else {
                        ccaptions_keep_strip_mapped_u8(
                            UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self), starts, reciprocals, perSample, columns,
                            merge, runs, squares, stripRowSums[0], stripRowSums[1], strip, texture)
                    }
                }
            }
        }
    }

    /// A sample over black by its alpha: for 8 bits the product itself (the sums are divided by
    /// 255 afterwards, exactly); for wider samples the product divided by the largest alpha
    /// (`alphaMax`, 2^bits − 1), rounded, as the product of two 16-bit samples would overflow the
    /// sums.
    @inline(__always)
    static func premultiplied<Sample: FixedWidthInteger & UnsignedInteger>(
        _ value: Sample, _ alpha: Sample, alphaMax: UInt64
    ) -> UInt32 {
        if Sample.bitWidth == 8 { return UInt32(value) &* UInt32(alpha) }
        return UInt32(truncatingIfNeeded: (UInt64(value) &* UInt64(alpha) &+ alphaMax / 2) / alphaMax)
    }

    @inline(__always)
    func addPremultiplied<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, alpha: UnsafePointer<Sample>, alphaMax: UInt64, count: Int, into channel: Int
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        let squares = columnSquares[channel]
        for x in 0..<count {
            sums[x] &+= Self.premultiplied(row[x], alpha[x], alphaMax: alphaMax)
            addSquare(Self.composited(row[x], alpha[x], alphaMax: alphaMax), at: x, of: squares)
        }
    }

    /// A sample over black by its alpha on the sample's own scale, rounded (what
    /// ``premultiplied(_:_:alphaMax:)`` sums, for its square).
    @inline(__always)
    static func composited<Sample: FixedWidthInteger & UnsignedInteger>(
        _ value: Sample, _ alpha: Sample, alphaMax: UInt64
    ) -> UInt32 {
        UInt32(truncatingIfNeeded: (UInt64(value) &* UInt64(alpha) &+ alphaMax / 2) / alphaMax)
    }

    /// Adds a row of YUV samples composited over black by their alpha: `value` × α + `black` ×
    /// (1 − α), rounded, where `black` is the code of black luma or of neutral chroma. Chroma
    /// sample `x` takes the alpha of luma column `x << alphaShift`.
    @inline(__always)
    func addOverBlack<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, alpha: UnsafePointer<Sample>, alphaShift: Int, alphaMax: UInt64, black: UInt64,
        count: Int, into channel: Int
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        let squares = channel == 0 ? columnSquares[0] : nil
        for x in 0..<count {
            let a = UInt64(alpha[x &<< alphaShift])
            let value = UInt32(truncatingIfNeeded: (UInt64(row[x]) &* a &+ black &* (alphaMax &- a) &+ alphaMax / 2) / alphaMax)
            sums[x] &+= value
            if let squares { addSquare(value, at: x, of: squares) }
        }
    }

    @inline(__always)
    func addInterleaved<Sample: FixedWidthInteger & UnsignedInteger>(_ uv: UnsafePointer<Sample>, count: Int) {
        let (u, v) = (columnSums[1], columnSums[2])
        for x in 0..<count {
            u[x] &+= UInt32(truncatingIfNeeded: uv[2 * x])
            v[x] &+= UInt32(truncatingIfNeeded: uv[2 * x + 1])
        }
    }

    @inline(__always)
    func addPacked<Sample: FixedWidthInteger & UnsignedInteger>(
        _ pixels: UnsafePointer<Sample>, count: Int, components: Int, offsets: (Int, Int, Int), alpha: Int?, alphaMax: UInt64
    ) {
        let (r, g, b) = (columnSums[0], columnSums[1], columnSums[2])
        let (rr, gg, bb) = (columnSquares[0], columnSquares[1], columnSquares[2])
        for x in 0..<count {
            let pixel = pixels + x * components
            if let alpha {
                let a = pixel[alpha]
                r[x] &+= Self.premultiplied(pixel[offsets.0], a, alphaMax: alphaMax)
                g[x] &+= Self.premultiplied(pixel[offsets.1], a, alphaMax: alphaMax)
                b[x] &+= Self.premultiplied(pixel[offsets.2], a, alphaMax: alphaMax)
                addSquare(Self.composited(pixel[offsets.0], a, alphaMax: alphaMax), at: x, of: rr)
                addSquare(Self.composited(pixel[offsets.1], a, alphaMax: alphaMax), at: x, of: gg)
                addSquare(Self.composited(pixel[offsets.2], a, alphaMax: alphaMax), at: x, of: bb)
            } else {
                let (red, green, blue) = (
                    UInt32(truncatingIfNeeded: pixel[offsets.0]), UInt32(truncatingIfNeeded: pixel[offsets.1]),
                    UInt32(truncatingIfNeeded: pixel[offsets.2])
                )
                r[x] &+= red
                g[x] &+= green
                b[x] &+= blue
                addSquare(red, at: x, of: rr)
                addSquare(green, at: x, of: gg)
                addSquare(blue, at: x, of: bb)
            }
        }
    }
}

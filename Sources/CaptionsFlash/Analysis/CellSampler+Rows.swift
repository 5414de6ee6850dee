import CCaptionsKernels

/// The row kernels of ``CellSampler``: each adds one line of samples to the column (or cell)
/// accumulators, in the loops that run over every pixel of every frame.
extension CellSampler {
    @inline(__always)
    func add<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, count: Int, into channel: Int
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        for x in 0..<count { sums[x] &+= UInt32(truncatingIfNeeded: row[x]) }
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

    @inline(__always)
    func addPremultiplied<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, alpha: UnsafePointer<Sample>, count: Int, into channel: Int
    ) {
        guard let row else { return }
        let shift = Sample.bitWidth > 8 ? 16 : 0
        let sums = columnSums[channel]
        for x in 0..<count {
            sums[x] &+= UInt32(truncatingIfNeeded: (UInt64(row[x]) * UInt64(alpha[x])) >> shift)
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
        _ pixels: UnsafePointer<Sample>, count: Int, components: Int, offsets: (Int, Int, Int), alpha: Int?
    ) {
        let shift = Sample.bitWidth > 8 ? 16 : 0
        let (r, g, b) = (columnSums[0], columnSums[1], columnSums[2])
        for x in 0..<count {
            let pixel = pixels + x * components
            if let alpha {
                let a = UInt64(pixel[alpha])
                r[x] &+= UInt32(truncatingIfNeeded: (UInt64(pixel[offsets.0]) * a) >> shift)
                g[x] &+= UInt32(truncatingIfNeeded: (UInt64(pixel[offsets.1]) * a) >> shift)
                b[x] &+= UInt32(truncatingIfNeeded: (UInt64(pixel[offsets.2]) * a) >> shift)
            } else {
                r[x] &+= UInt32(truncatingIfNeeded: pixel[offsets.0])
                g[x] &+= UInt32(truncatingIfNeeded: pixel[offsets.1])
                b[x] &+= UInt32(truncatingIfNeeded: pixel[offsets.2])
            }
        }
    }
}

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
    /// samples a cell, summing each cell's samples inside one machine word.
    @inline(__always)
    func addRuns<Sample: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<Sample>?, width: Int, cells: Int, into channel: Int
    ) {
        guard let row else { return }
        let sums = columnSums[channel]
        let bytes = UnsafeRawPointer(row)
        if Sample.bitWidth == 16 {
            addRuns16(bytes, width: width, cells: cells, into: sums)
            return
        }
        switch width {
        case 8:
            for cell in 0..<cells {
                let word = bytes.loadUnaligned(fromByteOffset: cell &* 8, as: UInt64.self)
                let pairs = (word & 0x00FF_00FF_00FF_00FF) &+ ((word &>> 8) & 0x00FF_00FF_00FF_00FF)
                let quads = (pairs & 0x0000_FFFF_0000_FFFF) &+ ((pairs &>> 16) & 0x0000_FFFF_0000_FFFF)
                sums[cell] &+= UInt32(truncatingIfNeeded: (quads & 0xFFFF_FFFF) &+ (quads &>> 32))
            }
        case 4:
            for cell in 0..<cells {
                let word = bytes.loadUnaligned(fromByteOffset: cell &* 4, as: UInt32.self)
                let pairs = (word & 0x00FF_00FF) &+ ((word &>> 8) & 0x00FF_00FF)
                sums[cell] &+= (pairs & 0xFFFF) &+ (pairs &>> 16)
            }
        case 2:
            for cell in 0..<cells {
                let word = bytes.loadUnaligned(fromByteOffset: cell &* 2, as: UInt16.self)
                sums[cell] &+= UInt32(word & 0xFF) &+ UInt32(word &>> 8)
            }
        default:
            for cell in 0..<cells { sums[cell] &+= UInt32(truncatingIfNeeded: row[cell]) }
        }
    }

    /// ``addRuns(_:width:cells:into:)`` for 16-bit samples.
    @inline(__always)
    func addRuns16(_ bytes: UnsafeRawPointer, width: Int, cells: Int, into sums: UnsafeMutablePointer<UInt32>) {
        @inline(__always) func four(_ offset: Int) -> UInt32 {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let pairs = (word & 0x0000_FFFF_0000_FFFF) &+ ((word &>> 16) & 0x0000_FFFF_0000_FFFF)
            return UInt32(truncatingIfNeeded: (pairs & 0xFFFF_FFFF) &+ (pairs &>> 32))
        }
        switch width {
        case 8: for cell in 0..<cells { sums[cell] &+= four(cell &* 16) &+ four(cell &* 16 &+ 8) }
        case 4: for cell in 0..<cells { sums[cell] &+= four(cell &* 8) }
        case 2:
            for cell in 0..<cells {
                let word = bytes.loadUnaligned(fromByteOffset: cell &* 4, as: UInt32.self)
                sums[cell] &+= (word & 0xFFFF) &+ (word &>> 16)
            }
        default:
            for cell in 0..<cells { sums[cell] &+= UInt32(bytes.loadUnaligned(fromByteOffset: cell &* 2, as: UInt16.self)) }
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

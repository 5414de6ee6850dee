import CCaptionsKernels

/// Where a move is searched: ``MotionStrips``' strips column by column (a column's lines
/// contiguous, so that a shift is an offset into them), and each column's errors at every shift,
/// kept for the row of blocks being searched.
extension MotionStrips {
    /// Which picture's strips a move is searched in.
    enum Picture { case current, previous, older }

    /// The strips of `which` column by column (``ccaptions_shift_errors``), with columns
    /// `needed` gathered from its lines if they were not yet.
    func byColumns(_ which: Picture, _ needed: ClosedRange<Int>) -> UnsafeMutablePointer<UInt8> {
        if columnsCapacity < capacity {
            // Made when first asked for (a scan that keeps strips may never search a move), with 16
            // bytes more for the last, masked load of a sum of absolute differences.
            for buffer in [currentColumns, previousColumns, olderColumns] { buffer.deallocate() }
            columnsCapacity = capacity
            (currentColumns, previousColumns, olderColumns) = (
                .allocate(capacity: capacity + 16), .allocate(capacity: capacity + 16), .allocate(capacity: capacity + 16)
            )
            for buffer in [currentColumns, previousColumns, olderColumns] { (buffer + capacity).initialize(repeating: 0, count: 16) }
            gathered = ([], [], [])
        }
        let (rows, byColumn, number): (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UInt32) =
            switch which {
            case .current: (current, currentColumns, picture)
            case .previous: (previous, previousColumns, picture &- 1)
            case .older: (older, olderColumns, picture &- 2)
            }
        func gather(_ stamps: inout [UInt32]) {
            if stamps.count != columns { stamps = [UInt32](repeating: 0, count: columns) }
            for column in needed where stamps[column] != number {
                stamps[column] = number
                ccaptions_gather_column(rows, lines, columns, column, byColumn + column * lines)
            }
        }
        switch which {
        case .current: gather(&gathered.current)
        case .previous: gather(&gathered.previous)
        case .older: gather(&gathered.older)
        }
        return byColumn
    }

    /// The errors of a block's window (``ccaptions_shift_errors``, this picture against the one
    /// before, every shift within `search`) summed over `needed` columns, from each column's own,
    /// kept for the block row and picture: the windows of neighbouring blocks share two of their
    /// three columns (a dense scan searched each column three times).
    func sumColumnErrors(
        blockRow: Int, columns needed: ClosedRange<Int>, top: Int, bottom: Int, search: Int, sums: UnsafeMutablePointer<UInt32>,
        counts: UnsafeMutablePointer<UInt32>
    ) {
        let width = 2 * search + 1
        if width > columnErrorStride {
            // Each column's place is the same for every block row (rows of cells of different
            // heights search different widths: a column's place moving with the width overwrote
            // its neighbours', kept for another row).
            columnErrorStorage?.deallocate()
            columnErrorStride = width
            columnErrorStorage = .allocate(capacity: 2 * width * columns)
            columnErrorStamps = [UInt64](repeating: 0, count: columns)
        }
        guard let storage = columnErrorStorage else { return }
        let stride = columnErrorStride
        let stamp = UInt64(picture) << 32 | UInt64(blockRow + 1)
        let (now, before) = (byColumns(.current, needed), byColumns(.previous, needed))
        sums.update(repeating: 0, count: width)
        counts.update(repeating: 0, count: width)
        for column in needed {
            let own = storage + column * 2 * stride
            if columnErrorStamps[column] != stamp {
                columnErrorStamps[column] = stamp
                ccaptions_shift_errors(now, before, lines, column, column, top, bottom, Int32(search), own, own + stride)
            }
            for index in 0..<width {
                sums[index] &+= own[index]
                counts[index] &+= own[stride + index]
            }
        }
    }
}

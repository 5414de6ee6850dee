import CCaptionsKernels

/// How ``CellSampler`` maps a picture's columns and lines to cells: built once for each picture
/// geometry.
extension CellSampler {
    /// Column and row maps and pixel counts for one picture geometry.
    struct Maps {
        var columnOfX: [Int32] = []
        /// The cell column of each chroma column (its first luma column).
        var columnOfChromaX: [Int32] = []
        var rowOfLine: [Int32] = []
        /// The lines of each row of cells.
        var linesOfRow: [Range<Int>] = []
        /// 2^32 / the luma samples of each cell column, rounded up: a line's strip where cells are
        /// not uniform is each column's sum times it, shifted right by 32 (no division a value).
        var columnReciprocals: [UInt64] = []
        /// The first luma column of each cell column, and after them the width (the columns'
        /// samples are contiguous: `columnOfX` never goes back).
        var columnStarts: [Int32] = []
        /// Each reciprocal over 2^32, as a float (the spread's per-sample weight).
        var columnPerSample: [Float] = []
        /// Whether luma line `line` adds its chroma line: once per chroma line and row of cells.
        var addsChroma: [Bool] = []
        var lumaWeight: [Float] = []
        var chromaWeight: [Float] = []
        /// How a line's luma, and chroma, column sums fold into a row of cells.
        var lumaFold = Fold.scatter(map: [], count: 0, shift: 0)
        var chromaFold = Fold.scatter(map: [], count: 0, shift: 0)
        /// Cells narrower than a chroma sample: chroma is replicated to every luma pixel instead.
        var replicatesChroma = false
        /// When every cell is exactly `luma` luma columns and `chroma` chroma columns wide (1, 2,
        /// 4 or 8: 1080p and 2160p), rows are summed straight into cells, a word at a time.
        var uniformRuns: (luma: Int, chroma: Int)?
    }

    /// How column sums fold into cells: each column `x` (of `count`) adds to cell `map[x]` the
    /// sum of column `x >> shift`; or, when no cell takes more than two columns, cell by cell.
    enum Fold {
        case scatter(map: [Int32], count: Int, shift: Int)
        case pairs(first: [Int32], second: [Int32], keep: [UInt32], clear: Int)

        /// The fold for `map` and `shift` into `cells` cells.
        static func make(map: [Int32], count: Int, shift: Int, cells: Int) -> Fold {
            var first = [Int32](repeating: -1, count: cells)
            var second = [Int32](repeating: -1, count: cells)
            for x in 0..<count {
                let (cell, source) = (Int(map[x]), Int32(x >> shift))
                if first[cell] < 0 {
                    first[cell] = source
                } else if second[cell] < 0 {
                    second[cell] = source
                } else {
                    return .scatter(map: map, count: count, shift: shift)
                }
            }
            guard !first.contains(-1) else { return .scatter(map: map, count: count, shift: shift) }
            let keep = second.map { $0 < 0 ? UInt32(0) : .max }
            return .pairs(
                first: first, second: zip(first, second).map { $1 < 0 ? $0 : $1 }, keep: keep,
                clear: count == 0 ? 0 : ((count - 1) >> shift) + 1)
        }

        /// Adds `columns` into `cells` and clears them.
        func apply(_ columns: UnsafeMutablePointer<UInt32>, into cells: UnsafeMutablePointer<UInt32>) {
            switch self {
            case .scatter(let map, let count, let shift):
                map.withUnsafeBufferPointer { ccaptions_fold_columns(columns, $0.baseAddress, count, Int32(shift), cells) }
            case .pairs(let first, let second, let keep, let clear):
                first.withUnsafeBufferPointer { first in
                    second.withUnsafeBufferPointer { second in
                        keep.withUnsafeBufferPointer { keep in
                            ccaptions_fold_pairs(
                                columns, clear, first.baseAddress, second.baseAddress, keep.baseAddress, first.count, cells)
                        }
                    }
                }
            }
        }
    }
}

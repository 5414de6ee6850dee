import CCaptionsKernels

/// Sampling that feeds the cells as it goes: each row of cells, once summed, is turned into means
/// and a spread and compared with what was last fed in one pass (``ccaptions_feed_row``), so the
/// means of the cells that did not change are never written, nor read back to be compared.
extension CellSampler {
    /// The feed of the picture being sampled, how many cells it has listed, and the next row of
    /// cells it waits for (rows are fed in order; those no line reaches, as zero sums).
    struct Feeding {
        var feed: ccaptions_feed
        var isGrey: Bool
        var found = 0
        var nextRow = 0

        init(feed: ccaptions_feed, isGrey: Bool) {
            self.feed = feed
            self.isGrey = isGrey
        }
    }

    /// Feeds row `row` from its column sums (`sums`: luma, Cb, Cr) and luma's squares.
    mutating func feedRow(_ row: Int, from sums: Buffers, squares: UnsafeMutablePointer<UInt32>, scales: Scales) {
        guard var feeding else { return }
        let base = row * grid.columns
        let (chroma1, chroma2) = feeding.isGrey ? (nil, nil) : (UnsafePointer(sums.channels.1), UnsafePointer(sums.channels.2))
        feeding.found = maps.lumaWeight.withUnsafeBufferPointer { lumaWeight in
            maps.chromaWeight.withUnsafeBufferPointer { chromaWeight in
                withUnsafePointer(to: feeding.feed) { feed in
                    Int(ccaptions_feed_row(
                        sums.channels.0, chroma1, chroma2, squares, lumaWeight.baseAddress! + base, chromaWeight.baseAddress! + base,
                        scales.luma, scales.chroma, scales.squares, base, grid.columns, feed, feeding.found))
                }
            }
        }
        feeding.nextRow = row + 1
        self.feeding = feeding
    }

    /// Feeds the rows from the next one awaited up to `row` (not included) as rows no line
    /// reaches: zero sums, as the channels of such rows hold.
    mutating func feedRows(upTo row: Int, scales: Scales) {
        while let next = feeding?.nextRow, next < row {
            let zeros = zeroRow.channels.0
            feedRow(next, from: zeroRow, squares: zeros, scales: scales)
        }
    }
}

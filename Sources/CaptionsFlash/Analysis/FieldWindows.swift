/// The 10° fields on which Apple's Dim Flashing Lights model also runs (its local risk).
///
/// The grid is cut into blocks of half a 10° × 7.5° field; a field is every 2 × 2 blocks (so
/// fields start every half field across and down, and any flash of up to half a field lies wholly
/// inside one; at the right and bottom edges a field may be narrower). Each block keeps Σ level ×
/// pixels of its cells, updated as cells change: one addition per changed cell.
final class FieldWindows {
    private let blocksAcross: Int
    private let blocksDown: Int
    /// The block of each cell.
    private let blockOfCell: [Int32]
    /// Σ level × pixels, and Σ pixels, per block.
    private let sums: UnsafeMutablePointer<Double>
    private let pixels: UnsafeMutablePointer<Double>

    init(grid: CellGrid) {
        let blockWidth = max(1, (grid.windowColumns + 1) / 2)
        let blockHeight = max(1, (grid.windowRows + 1) / 2)
        blocksAcross = (grid.columns + blockWidth - 1) / blockWidth
        blocksDown = (grid.rows + blockHeight - 1) / blockHeight
        let across = blocksAcross
        blockOfCell = (0..<grid.count).map { cell in
            Int32((cell / grid.columns / blockHeight) * across + (cell % grid.columns) / blockWidth)
        }
        let blocks = blocksAcross * blocksDown
        sums = .allocate(capacity: blocks)
        sums.initialize(repeating: 0, count: blocks)
        pixels = .allocate(capacity: blocks)
        pixels.initialize(repeating: 0, count: blocks)
    }

    deinit {
        sums.deallocate()
        pixels.deallocate()
    }

    /// Adds `weightedChange` (a cell's change of level × its pixels) to the cell's block.
    @inline(__always)
    func add(cell: Int, weightedChange: Double) {
        sums[Int(blockOfCell[cell])] += weightedChange
    }

    /// Sums every block anew from each cell's level and pixels (after a change of geometry).
    func recompute(count: Int, level: (Int) -> Double, pixels cellPixels: [Float]) {
        let blocks = blocksAcross * blocksDown
        sums.update(repeating: 0, count: blocks)
        pixels.update(repeating: 0, count: blocks)
        for cell in 0..<count where cellPixels[cell] > 0 {
            let block = Int(blockOfCell[cell])
            let weight = Double(cellPixels[cell])
            sums[block] += level(cell) * weight
            pixels[block] += weight
        }
    }

    /// Each field's picture level (its pixels' mean level), field rows top to bottom.
    var levels: [Double] {
        let fieldsAcross = max(1, blocksAcross - 1), fieldsDown = max(1, blocksDown - 1)
        var levels: [Double] = []
        levels.reserveCapacity(fieldsAcross * fieldsDown)
        for fieldRow in 0..<fieldsDown {
            for fieldColumn in 0..<fieldsAcross {
                var sum = 0.0, weight = 0.0
                for row in fieldRow..<min(fieldRow + 2, blocksDown) {
                    for column in fieldColumn..<min(fieldColumn + 2, blocksAcross) {
                        sum += sums[row * blocksAcross + column]
                        weight += pixels[row * blocksAcross + column]
                    }
                }
                levels.append(weight > 0 ? max(0, sum / weight) : 0)
            }
        }
        return levels
    }
}

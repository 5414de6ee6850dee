/// The 10° fields on which Apple's Dim Flashing Lights model also runs (its local risk): windows
/// of the grid's 10° × 7.5° field placed every half field across and down, the last ones flush
/// with the picture's edges, so that any flash of up to half a field lies wholly inside one.
/// Each window's picture level (Σ level × pixels over its cells) is kept up to date as cells
/// change, so a frame costs a few additions per changed cell.
struct FieldWindows {
    /// Where each window column and window row starts, in cells.
    let columnStarts: [Int]
    let rowStarts: [Int]
    /// For each cell column (row), the first and last window column (row) that contain it.
    private let windowsOfColumn: [(first: Int, last: Int)]
    private let windowsOfRow: [(first: Int, last: Int)]
    private let columns: Int
    /// Σ level × pixels, and Σ pixels, per window (row-major over window rows and columns).
    private var sums: [Double]
    private var pixels: [Double]

    init(grid: CellGrid) {
        columns = grid.columns
        func starts(_ size: Int, _ window: Int) -> [Int] {
            let step = max(1, window / 2)
            var starts = Array(stride(from: 0, through: max(0, size - window), by: step))
            if let last = starts.last, last + window < size { starts.append(size - window) }
            return starts
        }
        func windows(of size: Int, _ window: Int, _ starts: [Int]) -> [(first: Int, last: Int)] {
            (0..<size).map { cell in
                let containing = starts.indices.filter { starts[$0] <= cell && cell < starts[$0] + window }
                return (containing.first ?? 0, containing.last ?? -1)
            }
        }
        columnStarts = starts(grid.columns, grid.windowColumns)
        rowStarts = starts(grid.rows, grid.windowRows)
        windowsOfColumn = windows(of: grid.columns, grid.windowColumns, columnStarts)
        windowsOfRow = windows(of: grid.rows, grid.windowRows, rowStarts)
        sums = Array(repeating: 0, count: columnStarts.count * rowStarts.count)
        pixels = sums
    }

    /// How many windows there are.
    var count: Int { sums.count }

    /// Adds `level` × `weight` (a cell's change of level times its pixels) and `weight` pixels
    /// (zero unless the weights are being summed anew) to every window containing `cell`.
    @inline(__always)
    mutating func add(cell: Int, level: Double, pixels weight: Double = 0) {
        let (row, column) = cell.quotientAndRemainder(dividingBy: columns)
        let rows = windowsOfRow[row], across = windowsOfColumn[column]
        guard rows.first <= rows.last, across.first <= across.last else { return }
        for windowRow in rows.first...rows.last {
            let base = windowRow * columnStarts.count
            for windowColumn in across.first...across.last {
                sums[base + windowColumn] += level
                pixels[base + windowColumn] += weight
            }
        }
    }

    /// Sums every window anew from each cell's level and pixels (after a change of geometry).
    mutating func recompute(count: Int, level: (Int) -> Double, pixels cellPixels: [Float]) {
        for index in sums.indices { (sums[index], pixels[index]) = (0, 0) }
        for cell in 0..<count where cellPixels[cell] > 0 {
            let weight = Double(cellPixels[cell])
            add(cell: cell, level: level(cell) * weight, pixels: weight)
        }
    }

    /// Each window's picture level (its pixels' mean level).
    var levels: [Double] {
        sums.indices.map { pixels[$0] > 0 ? max(0, sums[$0] / pixels[$0]) : 0 }
    }
}

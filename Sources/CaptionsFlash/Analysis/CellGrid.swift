/// Where the analysis looks: the picture divided into small square cells, and the 10° field in cells.
///
/// **Geometry** (one choice, documented in the README): the picture as displayed (sample aspect
/// ratio applied, rotation applied) is taken to span 30° across, as WCAG's own example does
/// (a 341 × 256 field on a 1024 × 768 screen is a third of its width); degrees are square, so the
/// 10° field is 10° × 7.5° (WCAG's 341 × 256 shape) at any aspect ratio: 640 × 480 of a 1920 × 1080
/// picture. Cells are squares of 1/16° (1/480 of the displayed width: 4 × 4 pixels at 1080p, 8 × 8
/// at 2160p), so a pattern of 0.1° (WCAG's smallest) spans more than one and a half cells and is
/// averaged away only in cells an edge splits into equal halves, which a second grid offset by
/// half a cell covers (``halfCellShifted(width:height:acrossRows:)``); pictures too tall for that (portrait
/// video) get larger cells, at most 160,000 in all. A cell's value is the mean of every pixel in it (every line, both fields).
///
/// Pictures of different sizes with the same shape get the same grid (1080p and 720p are both
/// 480 × 270 cells), so a resolution change mid-stream does not restart the analysis.
struct CellGrid: Hashable {
    /// Cells across and down, in stored (not rotated) orientation.
    let columns: Int
    let rows: Int
    /// The 10° × 7.5° field in cells, in stored orientation.
    let windowColumns: Int
    let windowRows: Int
    /// The 10° field's area in cells, whole even where the picture is smaller than the field:
    /// what a flashing share is measured against (a picture 1.5° tall flashing from edge to edge
    /// fills a fifth of a 7.5° field, not all of it).
    let windowArea: Int

    /// The most cells a grid has.
    static let maximumCells = 160_000
    /// Cells across the displayed width.
    static let cellsAcross = 480.0
    /// The displayed width in degrees.
    static let degreesAcross = 30.0

    /// The grid for a picture of `width` × `height` stored pixels, shown with `sampleAspect`
    /// (pixel width / height) and turned by `quarterTurns` × 90°; an interlaced picture has half
    /// its lines in each field, and a cell at least one line of a field (`fields` 2).
    init(width: Int, height: Int, sampleAspect: Double = 1, quarterTurns: Int = 0, fields: Int = 1) {
        let aspect = sampleAspect.isFinite && sampleAspect > 0 ? sampleAspect : 1
        let displayWidth = Double(width) * aspect  // stored x, in display units
        let displayHeight = Double(height)
        let turned = quarterTurns % 2 != 0
        let across = turned ? displayHeight : displayWidth  // the viewer's width
        var cell = across / Self.cellsAcross
        cell = max(cell, (displayWidth * displayHeight / Double(Self.maximumCells)).squareRoot(), aspect, 1)
        var (columns, rows) = (0, 0)
        repeat {
            columns = max(1, min(width, Int((displayWidth / cell).rounded(.up))))
            rows = max(1, min(height / max(fields, 1), Int((displayHeight / cell).rounded(.up))))
            cell *= 1.01
        } while columns * rows > Self.maximumCells
        self.columns = columns
        self.rows = rows
        let degree = across / Self.degreesAcross  // display units per degree
        let perDegreeX = degree / (displayWidth / Double(columns))  // cells per degree
        let perDegreeY = degree / (displayHeight / Double(rows))
        let (fieldX, fieldY) = turned ? (7.5 * perDegreeX, 10 * perDegreeY) : (10 * perDegreeX, 7.5 * perDegreeY)
        let (fullColumns, fullRows) = (max(1, Int(fieldX.rounded())), max(1, Int(fieldY.rounded())))
        windowColumns = min(columns, fullColumns)
        windowRows = min(rows, fullRows)
        windowArea = fullColumns * fullRows
    }

    var count: Int { columns * rows }

    /// A grid of `columns` × `rows` cells measured against the same 10° field as `field`.
    private init(columns: Int, rows: Int, field: CellGrid) {
        (self.columns, self.rows) = (columns, rows)
        (windowColumns, windowRows) = (min(columns, field.windowColumns), min(rows, field.windowRows))
        windowArea = field.windowArea
    }

    /// Where the cells between this grid's fall, for a picture of `width` × `height` stored
    /// pixels: a crop of it starting half a cell in (`x`, and `y` when `acrossRows`), and the grid
    /// of its one cell fewer that way, the same size and field. A pattern whose edges split this
    /// grid's cells into equal halves (which keep their mean when it reverses) falls whole in the
    /// cells of the other. Nil unless the cells are a whole, even number of pixels across (1080p:
    /// 4, 2160p: 8), and the grid has room for it; rows are shifted only when the cells are a
    /// whole, even number of lines too (a field's rows are not: its lines are every other one,
    /// whose chroma cannot be split; shifted across only, a checkerboard still reads at least half).
    /// The crop's height is nil when it keeps every line.
    func halfCellShifted(width: Int, height: Int, acrossRows: Bool) -> (x: Int, y: Int, width: Int, height: Int?, grid: CellGrid)? {
        guard columns > 1, width % columns == 0 else { return nil }
        let cellWidth = width / columns
        guard cellWidth >= 2, cellWidth % 2 == 0 else { return nil }
        if acrossRows, rows > 1, height % rows == 0, (height / rows) % 2 == 0 {
            let cellHeight = height / rows
            let inner = CellGrid(columns: columns - 1, rows: rows - 1, field: self)
            return (cellWidth / 2, cellHeight / 2, (columns - 1) * cellWidth, (rows - 1) * cellHeight, inner)
        }
        return (cellWidth / 2, 0, (columns - 1) * cellWidth, nil, CellGrid(columns: columns - 1, rows: rows, field: self))
    }
}

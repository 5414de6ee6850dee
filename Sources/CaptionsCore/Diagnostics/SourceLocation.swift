/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    // 32 bits each (saturating) keep a cue's location in 8 bytes; no caption file comes near.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The line, starting at 1; CR, LF and CRLF each end one line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }

    /// The column, starting at 1, in Unicode scalars from the start of the line.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

    /// A location at `line` and `column`, both 1-based.
    public init(line: Int, column: Int) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    /// The start of a file.
    public static let start = SourceLocation(line: 1, column: 1)

    /// Orders by line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `"line:column"`.
    public var description: String { "\(line):\(column)" }
}

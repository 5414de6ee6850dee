/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, starting at 1; CR, LF and CRLF each end one line.
    public var line: Int
    /// The column, starting at 1, in Unicode scalars from the start of the line.
    public var column: Int

    /// A location at `line` and `column`, both 1-based.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
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

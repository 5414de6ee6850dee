import CaptionsCore

/// Maps byte offsets of UTF-8 text to 1-based line and column.
///
/// A line ends at CR, LF or CRLF (CRLF counts once). Columns count Unicode scalars, so that
/// `é` is one column however many bytes it takes.
struct LineIndex {
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The location of the byte at `offset`.
    func location(ofByte offset: Int) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: Self.column(in: bytes, lineStart: lineStart, offset: end))
    }

    /// The 1-based column of `offset` on a line starting at `lineStart`.
    static func column<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, lineStart: Bytes.Index, offset: Bytes.Index) -> Int {
        var column = 1
        var index = lineStart
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            bytes.formIndex(after: &index)
        }
        return column
    }
}

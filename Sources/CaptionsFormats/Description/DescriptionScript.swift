import CaptionsCore

/// What a describer wrote: descriptions in order, some anchored to a time.
public struct DescriptionScript: Sendable, Equatable {
    /// One description.
    public struct Entry: Sendable, Equatable {
        /// The words to speak.
        public var text: String
        /// The earliest time it may start (an anchor), when the script gives one.
        public var start: MediaTime?
        /// The latest time it should end, when the script gives one.
        public var end: MediaTime?
        /// Where it is in the script.
        public var location: SourceLocation

        /// An entry.
        public init(text: String, start: MediaTime? = nil, end: MediaTime? = nil, location: SourceLocation = .start) {
            self.text = text
            self.start = start
            self.end = end
            self.location = location
        }
    }

    /// The descriptions, in script order.
    public var entries: [Entry]

    /// A script.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads a script file: JSON by its `.json` name, CSV by `.csv`, else plain text; text in any
    /// encoding (a byte order mark skipped, UTF-16 converted, a legacy code page detected as for
    /// SRT), with the notes and warnings of decoding.
    public static func read(_ bytes: [UInt8], fileName: String) throws(CaptionsError) -> (script: DescriptionScript, diagnostics: [Diagnostic]) {
        let name = fileName.lowercased()
        if name.hasSuffix(".json") { return (try DescriptionScript(json: bytes), []) }
        let (text, diagnostics) = TextFile.decode(bytes, codePrefix: "describe")
        return (name.hasSuffix(".csv") ? try DescriptionScript(csv: text) : try DescriptionScript(plainText: text), diagnostics)
    }

    /// A description's words as one line to speak: lines and paragraphs (a CSV cell's line
    /// breaks, blank lines that would end a WebVTT cue) joined by spaces.
    static func spoken(_ text: Substring) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Reads a plain-text script: one description per paragraph (paragraphs are separated by blank
    /// lines), each optionally starting with an anchor such as `[01:05]` or `[1:02:03.5]`.
    public init(plainText text: String) throws(CaptionsError) {
        var entries: [Entry] = []
        var paragraph: [Substring] = []
        var paragraphLine = 1
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func finish() throws(CaptionsError) {
            defer { paragraph = [] }
            guard !paragraph.isEmpty else { return }
            var body = paragraph.map { $0.trimmingASCIIWhitespace() }.joined(separator: " ")[...]
            var anchor: MediaTime?
            if body.first == "[", let close = body.firstIndex(of: "]") {
                let stamp = String(body[body.index(after: body.startIndex)..<close])
                guard let time = MediaTime(parsingDuration: stamp), !time.isNegative else {
                    throw CaptionsError("describe.script.anchor", "'[\(stamp)]' is not a time such as [01:05]",
                                        at: SourceLocation(line: paragraphLine, column: 1))
                }
                anchor = time
                body = body[body.index(after: close)...].trimmingASCIIWhitespace()
            }
            guard !body.isEmpty else { return }
            entries.append(Entry(text: String(body), start: anchor, location: SourceLocation(line: paragraphLine, column: 1)))
        }
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine
            if line.trimmingASCIIWhitespace().isEmpty {
                try finish()
            } else {
                if paragraph.isEmpty { paragraphLine = index + 1 }
                paragraph.append(line)
            }
        }
        try finish()
        self.init(entries: entries)
    }
}

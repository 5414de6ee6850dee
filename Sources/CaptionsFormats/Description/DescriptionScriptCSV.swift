import CaptionsCore

extension DescriptionScript {
    /// The columns a CSV script may have.
    private enum Column: String, CaseIterable {
        case start, end, text
    }

    /// Reads a CSV script (RFC 4180 quoting): `start,end,text` rows, the times optional (empty).
    ///
    /// A first row naming columns (`start`, `end`, `text` in any order, `text` required) is a
    /// header; without one, the columns are `start,end,text` or, for one column, `text`. The
    /// separator is the comma, or the semicolon or tab when the first line has more of those (as
    /// spreadsheets write CSV in locales with a decimal comma); a byte order mark is skipped.
    public init(csv: String) throws(CaptionsError) {
        let text = csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv
        let rows = try CSVRows.parse(text, separator: CSVRows.separator(of: text))
        guard let first = rows.first else { self.init(entries: []); return }
        var columns: [Column] = [.start, .end, .text]
        var body = rows[...]
        let names = first.fields.map { $0.value.trimmingASCIIWhitespace().lowercased() }
        if names.contains("text") {
            columns = []
            for (name, field) in zip(names, first.fields) {
                guard let column = Column(rawValue: name) else {
                    throw CaptionsError("describe.script.column", "unknown column '\(name)'; use start, end and text",
                                        at: field.location)
                }
                columns.append(column)
            }
            body = body.dropFirst()
        } else if first.fields.count == 1 {
            columns = [.text]
        }
        var entries: [Entry] = []
        for row in body {
            guard row.fields.count == columns.count else {
                throw CaptionsError("describe.script.fields", "\(row.fields.count) fields where the script has \(columns.count) columns",
                                    at: row.fields.first?.location)
            }
            var entry = Entry(text: "", location: row.fields[0].location)
            for (column, field) in zip(columns, row.fields) {
                let value = field.value.trimmingASCIIWhitespace()
                switch column {
                case .text: entry.text = Self.spoken(value)
                case .start, .end:
                    guard !value.isEmpty else { continue }
                    guard let time = MediaTime(parsingDuration: String(value)), !time.isNegative else {
                        throw CaptionsError("describe.script.time", "'\(value)' is not a time such as 00:01:05.5 or 65.5",
                                            at: field.location)
                    }
                    if column == .start { entry.start = time } else { entry.end = time }
                }
            }
            if let start = entry.start, let end = entry.end, end <= start {
                throw CaptionsError("describe.script.end-before-start", "the end is not after the start", at: entry.location)
            }
            if !entry.text.isEmpty { entries.append(entry) }
        }
        self.init(entries: entries)
    }
}

/// RFC 4180 rows with the position of every field.
enum CSVRows {
    struct Field {
        var value: String
        var location: SourceLocation
    }

    struct Row {
        var fields: [Field]
    }

    /// `,`, `;` or tab: whichever the first line has most of outside quotes (`,` when none).
    static func separator(of text: String) -> Character {
        var counts: [Character: Int] = [:]
        var inQuotes = false
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" { break }
            if character == "\"" { inQuotes.toggle() } else if !inQuotes, [",", ";", "\t"].contains(character) {
                counts[character, default: 0] += 1
            }
        }
        return [";", "\t"].filter { counts[$0, default: 0] > counts[",", default: 0] }.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? ","
    }

    static func parse(_ text: String, separator: Character = ",") throws(CaptionsError) -> [Row] {
        var rows: [Row] = []
        var fields: [Field] = []
        var value = ""
        var line = 1, column = 1
        var fieldStart = SourceLocation.start
        var quoted = false, inQuotes = false, afterQuote = false
        var characters = text.makeIterator()
        var pending: Character?
        func endField() {
            fields.append(Field(value: value, location: fieldStart))
            value = ""; quoted = false; afterQuote = false
        }
        func endRow() {
            endField()
            if !(fields.count == 1 && fields[0].value.isEmpty && !quoted) { rows.append(Row(fields: fields)) }
            fields = []
        }
        while let character = pending ?? characters.next() {
            pending = nil
            let here = SourceLocation(line: line, column: column)
            if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
            if inQuotes {
                if character == "\"" {
                    if let next = characters.next() {
                        if next == "\"" { value.append("\""); column += 1; continue }
                        pending = next
                    }
                    inQuotes = false; afterQuote = true
                } else {
                    value.append(character)
                }
                continue
            }
            switch character {
            case separator:
                endField()
                fieldStart = SourceLocation(line: line, column: column)
            case "\n", "\r\n", "\r":
                endRow()
                fieldStart = SourceLocation(line: line, column: column)
            case "\"" where value.trimmingASCIIWhitespace().isEmpty && !afterQuote:
                value = ""; quoted = true; inQuotes = true
            default:
                guard !afterQuote || character == " " else {
                    throw CaptionsError("describe.script.quote", "text after a closing quote; double a quote inside a quoted field", at: here)
                }
                if !afterQuote { value.append(character) }
            }
        }
        if inQuotes { throw CaptionsError("describe.script.quote", "a quoted field is not closed", at: fieldStart) }
        if !value.isEmpty || !fields.isEmpty || quoted { endRow() }
        return rows
    }
}

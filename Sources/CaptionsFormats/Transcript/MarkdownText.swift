/// Text written into Markdown as text: what CommonMark (and GitHub's tables and strikethrough)
/// would read as markup gets a backslash, and nothing else changes, so a caption that says
/// "# 1 hit", "1986. What a year" or "<script>" is shown as it was said.
enum MarkdownText {
    /// `text` with its Markdown escaped, line by line.
    static func escaped(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(escapedLine).joined(separator: "\n")
    }

    private static func escapedLine(_ line: Substring) -> String {
        var out = ""
        let characters = Array(line)
        // Where a block marker could start: after up to three spaces.
        let start = characters.prefix(3).prefix { $0 == " " }.count
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            // A bracket makes a link only with what follows its "]" ("(url)", "[ref]", ": url"):
            // "[laughs]" stays as it is.
            var escape = "\\`*_<|~".contains(character)
                || character == "]" && (next == "(" || next == "[" || next == ":")
                || character == "&" && (next?.isLetter == true || next == "#")
            if index == start {
                escape = escape || character == "#" || character == ">"
                    || "-+=".contains(character) && (next == nil || next == " " || characters.allSatisfy { $0 == character || $0 == " " })
            }
            // An ordered list marker: digits from the line's start, then "." or ")" and a space or the end.
            if index > start, ".)".contains(character), characters[start..<index].allSatisfy(\.isASCIIDigit), next == nil || next == " " {
                escape = true
            }
            if escape { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

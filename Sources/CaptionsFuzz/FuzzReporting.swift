import CaptionsCore

/// How findings describe documents, diagnostics and bytes: short, escaped, one line each.
extension FuzzHarness {
    /// The longest excerpt of a line shown in a finding.
    static let excerptLength = 160

    /// A document by its size and first diagnostics, or an error, for comparing two reads.
    static func summary(_ result: Result<TimedTextDocument, CaptionsError>) -> String {
        switch result {
        case .failure(let error): return "error \(error)"
        case .success(let document):
            let diagnostics = document.diagnostics.prefix(3).map(describe).joined(separator: "; ")
            return "\(document.cues.count) cues, \(document.diagnostics.count) diagnostics [\(diagnostics)]"
        }
    }

    /// `severity code at line:column`.
    static func describe(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.severity.rawValue) \(diagnostic.code) at \(diagnostic.location.map { "\($0)" } ?? "-"): \(diagnostic.message)"
    }

    /// The start of `bytes`, escaped, after a separator.
    static func excerpt(_ bytes: [UInt8]) -> String {
        "; output starts \(escape(bytes.prefix(excerptLength)))"
    }

    /// The first line where `first` and `second` differ, both versions escaped.
    static func firstDifference(_ first: [UInt8], _ second: [UInt8]) -> String {
        let firstLines = first.split(separator: 0x0A, omittingEmptySubsequences: false)
        let secondLines = second.split(separator: 0x0A, omittingEmptySubsequences: false)
        var line = 0
        while line < min(firstLines.count, secondLines.count), firstLines[line] == secondLines[line] {
            line += 1
        }
        let was = line < firstLines.count ? escape(firstLines[line].prefix(excerptLength)) : "(end)"
        let now = line < secondLines.count ? escape(secondLines[line].prefix(excerptLength)) : "(end)"
        return "line \(line + 1) was \(was), became \(now) (\(first.count) -> \(second.count) bytes)"
    }

    /// Quoted, with control characters, quotes and backslashes escaped; invalid UTF-8 as U+FFFD.
    static func escape(_ bytes: some Collection<UInt8>) -> String {
        var text = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                    text += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }

    /// What differs between the document a first pass wrote and what reading it back gave, in
    /// model terms (the first kind of difference found), to tell round-trip findings apart.
    static func modelDifference(_ written: TimedTextDocument, _ reread: TimedTextDocument) -> String {
        if written.cues.count != reread.cues.count {
            return "\(written.cues.count) cues read back as \(reread.cues.count)"
        }
        let times = { (cue: Cue) in "\(cue.start)-\(cue.end.map { "\($0)" } ?? "open")" }
        if written.cues.map(times) != reread.cues.map(times) {
            return written.cues.map(times).sorted() == reread.cues.map(times).sorted()
                ? "cues reordered" : "cue times changed"
        }
        for (number, (before, after)) in zip(written.cues, reread.cues).enumerated() {
            let cue = "cue \(number + 1)"
            if before.plainText != after.plainText {
                return "\(cue) text changed: \(escape(before.plainText.utf8.prefix(60))) -> \(escape(after.plainText.utf8.prefix(60)))"
            }
            if joiningText(before.content) != joiningText(after.content) { return "\(cue) markup changed" }
            if before.speaker != after.speaker { return "\(cue) speaker changed" }
            if before.settings != after.settings { return "\(cue) settings changed" }
            if before.id != after.id { return "\(cue) id changed" }
        }
        if written.regions != reread.regions { return "regions changed" }
        if written.speakers != reread.speakers { return "speakers changed" }
        return "same cues, other bytes"
    }

    /// `nodes` with adjacent text nodes joined, at every level (readers may split text where
    /// writers join it, which is no difference in the bytes).
    static func joiningText(_ nodes: [InlineNode]) -> [InlineNode] {
        var result: [InlineNode] = []
        for node in nodes {
            switch node {
            case .text(let text):
                if case .text(let previous) = result.last {
                    result[result.count - 1] = .text(previous + text)
                } else {
                    result.append(node)
                }
            case .timestamp: result.append(node)
            case .span(var span):
                span.children = joiningText(span.children)
                result.append(.span(span))
            }
        }
        return result
    }
}

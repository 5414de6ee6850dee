import CaptionsCore

/// One `<SYNC>` with a usable Start: its time and paragraphs.
struct SAMISync {
    var start: Int64
    var location: SourceLocation
    var paragraphs: [SAMIParagraphText] = []
}

/// Walks the tokens of a SAMI file, in one pass and without a DOM: the style sheets, the title, and
/// every SYNC with its paragraphs. A `<P>` ends at `</P>`, the next `<P>` or `<SYNC>`, or the end
/// of the body; a SYNC at `</SYNC>` or the next `<SYNC>`. Text directly in a SYNC is a paragraph of
/// its own. A SYNC whose Start is missing or not milliseconds is reported and left out with its text.
struct SAMIStructure {
    private(set) var sheet = SAMIStyleSheet()
    private(set) var title: String?
    private(set) var syncs: [SAMISync] = []
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var notes = SAMINotes()
    /// `<SYNC>` tags seen, usable or not.
    private(set) var syncCount = 0
    /// Non-blank text outside every SYNC (not shown by players).
    private(set) var outside = SAMILeftOut()

    private var sync: SAMISync?
    /// In a SYNC that was left out: its text goes with it.
    private var inSkippedSync = false
    private var paragraph: SAMIParagraph?
    /// For each `<DIV>` around the current point in a SYNC, the alignment in effect inside it.
    private var divAligns: [CueSettings.Align?] = []

    /// Reads `bytes` (UTF-8).
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
        var tokenizer = SAMITokenizer(bytes)
        var issues = DiagnosticTally()
        while let (token, offset) = tokenizer.next() {
            // Locations are asked for in the order of the bytes (the token's, then its issues'),
            // so that each costs only the bytes since the last.
            let location = tokenizer.location(of: offset)
            for issue in tokenizer.issues {
                issues.add(.warning, issue.code, issue.message, at: tokenizer.location(of: issue.offset))
            }
            tokenizer.issues.removeAll()
            switch token {
            case .startTag(let tag): start(tag, at: location)
            case .endTag(let name): end(name, at: location)
            case .text(let slice): text(slice, at: location)
            case .rawText(let element, let slice):
                if element == "style" { sheet.parse(slice.string) }
                if element == "title", title == nil {
                    title = String(SAMITokenizer.decoded(slice).trimmingHTMLSpaces)
                }
            case .comment:
                continue
            }
        }
        endSync()
        diagnostics += issues.diagnostics
    }

    private mutating func start(_ tag: SAMITag, at location: SourceLocation) {
        switch tag.name {
        case "sync":
            endSync()
            startSync(tag, at: location)
        case "p":
            endParagraph()
            if sync != nil { paragraph = SAMIParagraph(tag, enclosingAlign: divAligns.last ?? nil, at: location) }
        case "div" where paragraph == nil:
            if sync != nil { divAligns.append(Self.align(of: tag) ?? divAligns.last ?? nil) }
        case "sami", "head", "body", "html":
            endParagraph()
        case _ where SAMITokenizer.rawTextElements.contains(tag.name):
            return
        default:
            guard sync != nil else { return }
            if paragraph == nil { paragraph = SAMIParagraph(nil, enclosingAlign: divAligns.last ?? nil, at: location) }
            paragraph?.start(tag, sheet: sheet, at: location, notes: &notes)
        }
    }

    private mutating func end(_ name: String, at location: SourceLocation) {
        switch name {
        case "sync", "body", "sami", "html":
            endSync()
        case "p":
            endParagraph()
        case "div" where paragraph?.isOpen("div") != true && !divAligns.isEmpty:
            // The end of a DIV around the paragraph ends the paragraph too.
            endParagraph()
            _ = divAligns.popLast()
        case "head":
            return
        case _ where SAMITokenizer.rawTextElements.contains(name):
            return
        default:
            paragraph?.end(name, at: location, notes: &notes)
        }
    }

    private mutating func text(_ slice: ByteSlice, at location: SourceLocation) {
        guard paragraph != nil || !slice.allSatisfy(SAMITokenizer.isSpace) else { return }
        let text = SAMITokenizer.decoded(slice)
        if paragraph == nil {
            if sync != nil {
                paragraph = SAMIParagraph(nil, enclosingAlign: divAligns.last ?? nil, at: location)
            } else {
                if !inSkippedSync { outside.add("text", at: location) }
                return
            }
        }
        paragraph?.appendText(text)
    }

    private mutating func startSync(_ tag: SAMITag, at location: SourceLocation) {
        syncCount += 1
        divAligns = []
        guard let value = tag.attribute("start") else {
            diagnostics.append(Diagnostic(.warning, "sami.sync.malformed", "<SYNC> without a Start time; its text is skipped", at: location))
            inSkippedSync = true
            return
        }
        guard let start = Self.milliseconds(value) else {
            diagnostics.append(Diagnostic(
                .warning, "sami.sync.malformed", "<SYNC Start=\(value)>: Start is not a time in milliseconds; its text is skipped",
                at: location))
            inSkippedSync = true
            return
        }
        sync = SAMISync(start: start, location: location)
    }

    private mutating func endParagraph() {
        guard let paragraph = paragraph.take() else { return }
        sync?.paragraphs.append(paragraph.finish(sheet: sheet, notes: &notes))
    }

    private mutating func endSync() {
        endParagraph()
        if let sync = sync.take() { syncs.append(sync) }
        inSkippedSync = false
        divAligns = []
    }

    /// A Start value: whole milliseconds, a fraction after them ignored (as players read it).
    static func milliseconds(_ value: String) -> Int64? {
        let parts = value.trimmingHTMLSpaces.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...15).contains(whole.count), whole.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || parts[1].allSatisfy(\.isASCIIDigit)
        else { return nil }
        return Int64(whole)
    }

    /// The alignment a `<DIV>`'s `style` or `align` gives.
    private static func align(of tag: SAMITag) -> CueSettings.Align? {
        tag.attribute("style").flatMap { SAMIStyleSheet.declarations($0[...])["text-align"] }.flatMap(SAMIParagraph.align)
            ?? tag.attribute("align").flatMap(SAMIParagraph.align)
    }
}

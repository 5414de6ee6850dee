import CaptionsCore

/// Reads SAMI (`.smi`, `.sami`: Microsoft Synchronized Accessible Media Interchange), leniently, as
/// players read it: HTML-like markup that need not be well formed (unclosed `<P>`, upper-case
/// tags, unquoted attributes, comments anywhere).
///
/// Each `<SYNC Start=ms>` shows its paragraphs until the next SYNC's Start; a SYNC holding nothing
/// but white space or `&nbsp;` only clears the screen, and the last caption has an open end. Each
/// `<P>` of the language read is one cue. `<BR>` is a line break; `<I>`, `<B>`, `<U>` (and `<EM>`,
/// `<STRONG>`) are italic, bold and underline; `<FONT color>` and the `color`, `font-style`,
/// `font-weight` and `text-decoration` of a `<SPAN>`'s or paragraph's style become styled spans;
/// `text-align` (or `align`) on a paragraph or a `<DIV>` aligns the cue. Character references are
/// decoded as HTML decodes them, and white space collapses as HTML collapses it.
///
/// A file may hold several languages, each a class of its `<STYLE>` (`.ENUSCC { lang: en-US; }`,
/// `<P Class=ENUSCC>`): one is read (``language``, else the first declared) and the others are
/// named in a note. Paragraphs of no language class belong to every language.
public struct SAMIReader: TimedTextReader {
    /// The language to read, as a `lang` tag (`en-US`) or a class name (`ENUSCC`), without regard
    /// to case; `nil`: the first language class the style sheet declares.
    public var language: String?

    /// A reader of `language` (default: the first the file declares).
    public init(language: String? = nil) { self.language = language }

    /// Parses a SAMI file; throws `sami.cues.none` when no SYNC holds a caption.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "sami")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "sami")
        let joined = Array(text.lines.joined(separator: "\n").utf8)
        var structure = SAMIStructure()
        joined.withUnsafeBufferPointer { structure.read($0) }
        document.diagnostics += structure.diagnostics
        document.title = structure.title ?? ""

        let languages = structure.sheet.languages
        var chosen = languages.first
        if let language {
            let wanted = language.lowercased()
            if let match = languages.first(where: { $0.tag.lowercased() == wanted || $0.className == wanted }) {
                chosen = match
            } else {
                document.diagnostics.append(Diagnostic(
                    .warning, "sami.language.unknown",
                    "no language class '\(language)' in the file; read \(chosen.map(Self.describe) ?? "every paragraph")", at: .start))
            }
        }
        document.language = chosen?.tag
        let otherClasses = Set(languages.map(\.className)).subtracting([chosen?.className].compactMap { $0 })

        // Later in the file but earlier in time: players go by time.
        var syncs = structure.syncs
        if let disorder = zip(syncs, syncs.dropFirst()).first(where: { $0.1.start < $0.0.start }) {
            document.diagnostics.append(Diagnostic(
                .warning, "sami.sync.order", "SYNC Start times go back (\(disorder.0.start) ms, then \(disorder.1.start) ms); sorted by time",
                at: disorder.1.location))
            syncs = syncs.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        }
        var others: [String: Int] = [:]
        var firstOther: SourceLocation?
        var index = 0
        while index < syncs.count {
            // SYNCs with the same Start show together, until the next Start.
            var next = index
            while next < syncs.count, syncs[next].start == syncs[index].start { next += 1 }
            let start = MediaTime(milliseconds: syncs[index].start)
            let end = next < syncs.count ? MediaTime(milliseconds: syncs[next].start) : nil
            for paragraph in syncs[index..<next].flatMap(\.paragraphs) {
                if let className = paragraph.className, otherClasses.contains(className) {
                    others[className, default: 0] += 1
                    if firstOther == nil { firstOther = paragraph.location }
                    continue
                }
                guard !paragraph.isBlank else { continue }
                var settings = CueSettings()
                settings.align = paragraph.align ?? .center
                document.cues.append(Cue(start: start, end: end, settings: settings, content: paragraph.content, location: paragraph.location))
            }
            index = next
        }

        guard !document.cues.isEmpty else { throw Self.noCues(structure) }
        if let firstOther {
            let used = languages.filter { others[$0.className] != nil }
            let named = used.prefix(10).map(Self.describe).joined(separator: ", ") + (used.count > 10 ? " and \(used.count - 10) more" : "")
            document.diagnostics.append(Diagnostic(
                .note, "sami.language.others",
                "the file also holds captions in \(named), left out; read \(chosen.map(Self.describe) ?? "?")", at: firstOther))
        }
        document.diagnostics += Self.notes(structure)
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// `en-US (English, .ENUSCC)`.
    private static func describe(_ language: SAMIStyleSheet.Language) -> String {
        "\(language.tag) (\(language.name.map { $0 + ", " } ?? "").\(language.spelling))"
    }

    /// The error for a file without a caption, saying why.
    private static func noCues(_ structure: SAMIStructure) -> CaptionsError {
        if structure.syncCount == 0 {
            return CaptionsError("sami.cues.none", "no caption found: a SAMI caption is a <SYNC Start=milliseconds> in the <BODY>", at: .start)
        }
        if structure.syncs.isEmpty {
            let first = structure.diagnostics.first { $0.code == "sami.sync.malformed" }?.location
            return CaptionsError(
                "sami.cues.none", "no caption found: none of the \(structure.syncCount) SYNCs has a Start time in milliseconds", at: first)
        }
        return CaptionsError("sami.cues.none", "no caption found: every SYNC is empty or only clears the screen", at: .start)
    }

    /// One note or warning for each kind of thing left out.
    private static func notes(_ structure: SAMIStructure) -> [Diagnostic] {
        let notes = structure.notes
        var result: [Diagnostic] = []
        func add(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ leftOut: SAMILeftOut, _ message: String, counted: Bool = false) {
            guard let first = leftOut.first else { return }
            let suffix = counted && leftOut.count > 1 ? " (\(leftOut.count) times; first here)" : " (first here)"
            result.append(Diagnostic(severity, code, message + suffix, at: first))
        }
        add(.note, "sami.tag.dropped", notes.tags, "tags and attributes with no equivalent left out (their text kept): \(notes.tags.list)")
        add(.note, "sami.style.dropped", notes.styles, "CSS with no equivalent left out: \(notes.styles.list)")
        add(.note, "sami.tag.unmatched", notes.unmatched, "end tags that close nothing ignored: \(notes.unmatched.list)")
        add(.warning, "sami.nesting.deep", notes.deep,
            "tags nested more than \(InlineNode.maximumDepth) spans deep dropped (their text kept)", counted: true)
        add(.note, "sami.text.outside", structure.outside, "text outside every SYNC is not shown; left out", counted: true)
        return result
    }
}

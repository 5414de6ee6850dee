import CaptionsCore

/// Reads TTML (IMSC1 text, DFXP, SMPTE-TT, EBU-TT-D) into cues the way a player shows them.
///
/// Timing follows TTML: `par` and `seq` time containers, `begin`, `end` and `dur` on every
/// level, clipped by the parent, in any time base and time expression (``TTMLTiming``). What a
/// paragraph shows can change inside it (timed spans, `set` animations of `tts:display`, a timed
/// region), so each `p` becomes one cue per stretch of time in which its visible content stays the
/// same; stretches with no visible text (a `display` of `none`, an empty paragraph, content outside
/// every region) give no cue. Italic, bold, underline and colours become spans, `<br/>` a line
/// break, `ttm:agent` the speaker, `xml:lang` on the root the language and on a span a language span.
public struct TTMLReader: TimedTextReader {
    /// A reader.
    public init() {}

    /// Parses a TTML document; throws for XML that is not well-formed or not TTML.
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        var tooDeep: SourceLocation?
        let mislabelled = XMLTree.mislabelledAsWide(input)
        var root = try XMLTree.parse(input, codePrefix: "ttml", tooDeep: &tooDeep, encoding: mislabelled ? "UTF-8" : nil)
        _ = consume input  // the bytes are not needed once the tree is built
        var unqualified = false
        if root.name == "tt", root.namespace.isEmpty {
            // `<tt>` with no namespace at all (hand-written files, some libraries' output) is meant
            // as TTML; ttconv reads it too.
            root = root.placingUnqualifiedElements(in: TTMLNamespace.ttml)
            unqualified = true
        }
        guard root.name == "tt", root.namespace == TTMLNamespace.ttml else {
            throw CaptionsError(
                "ttml.root.missing",
                "not TTML: the root element is \(root.name) in \(root.namespace.isEmpty ? "no namespace" : root.namespace), "
                    + "not tt in the TTML namespace (\(TTMLNamespace.ttml))", at: root.location)
        }
        var resolver = TTMLResolver(root: root)
        if mislabelled {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.encoding.mislabelled",
                "the XML declaration says UTF-16 or UTF-32 but the file is in single bytes; read as UTF-8", at: .start))
        }
        if unqualified {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.namespace.missing",
                "the tt element has no namespace; read as TTML (add xmlns=\"\(TTMLNamespace.ttml)\")", at: root.location))
        }
        if let tooDeep {
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.nesting.tooDeep",
                "elements nested deeper than \(XMLTree.maximumDepth) levels are left out; their text is kept", at: tooDeep))
        }
        resolver.resolve()
        if resolver.cues.isEmpty {
            // As the other readers do: an empty file is legal, and worth a word.
            let body = root.elements.first { $0.name == "body" && $0.namespace == TTMLNamespace.ttml }
            resolver.diagnostics.append(Diagnostic(
                .warning, "ttml.empty", body == nil ? "the document has no body: no cues" : "the document holds no cues",
                at: body?.location ?? root.location))
        }
        var document = TimedTextDocument(cues: resolver.cues, diagnostics: resolver.diagnostics, sourceFormat: "ttml")
        document.title = resolver.title
        document.comments = resolver.descriptions
        // Apple's iTunes Timed Text: TTML timed in SMPTE frames, with its own parameter namespace.
        if root.attribute("timeBase", namespace: TTMLNamespace.parameter) == "smpte",
            root.attributes.contains(where: { $0.namespace == "http://www.w3.org/ns/ttml/profile/imsc1#parameter" || $0.namespace.contains("itunes") })
                || root.attribute("dropMode", namespace: TTMLNamespace.parameter) != nil
        {
            document.sourceFormat = "itt"
            document.sourceTimeStep = resolver.timing.frameDuration
            let rate = root.attribute("frameRate", namespace: TTMLNamespace.parameter) ?? "30"
            document.diagnostics.append(Diagnostic(
                .note, "ttml.profile.itt", "read as iTunes Timed Text (iTT): times in SMPTE frames at \(rate) a second", at: root.location))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        document.language = root.attribute("lang", namespace: TTMLNamespace.xml).flatMap { $0.isEmpty ? nil : $0 }
        return document
    }
}

/// An element with its resolved active interval (absolute media time; a nil end is "indefinite").
///
/// Parents own their children; the link back is weak, so a tree frees itself (a strong link both
/// ways made every document read leak its whole tree).
final class TimedElement {
    let element: XMLElement
    private(set) weak var parent: TimedElement?
    let begin: MediaTime
    let end: MediaTime?
    /// Timed content children (div, p, span, br).
    var children: [TimedElement] = []
    /// `set` animations of this element.
    var sets: [TimedElement] = []
    #if DEBUG
    private let census = TTMLTreeCensus.current
    #endif

    init(element: XMLElement, parent: TimedElement?, begin: MediaTime, end: MediaTime?) {
        self.element = element
        self.parent = parent
        self.begin = begin
        self.end = end
        #if DEBUG
        census?.live += 1
        #endif
    }

    #if DEBUG
    deinit { census?.live -= 1 }
    #endif

    func isActive(at time: MediaTime) -> Bool {
        begin <= time && end.map { time < $0 } ?? true
    }
}

#if DEBUG
/// Counts the timed elements alive from the reads a task makes while it is ``current``, so that a
/// test can see that every tree is freed (debug builds only).
final class TTMLTreeCensus: @unchecked Sendable {
    /// The census of the current task, if any.
    @TaskLocal static var current: TTMLTreeCensus?
    /// Timed elements made and not yet freed (one task only: the reader does not share its trees).
    var live = 0
}
#endif

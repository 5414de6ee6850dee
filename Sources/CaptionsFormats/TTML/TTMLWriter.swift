import CaptionsCore

/// Writes TTML: IMSC1 text profile by default, or DFXP, EBU-TT-D, or Apple's iTunes Timed Text
/// (iTT: SMPTE time base, times in frames at `frameRate`, 29.97 when not given).
///
/// Styles are referential (`<style>` elements in the head, referenced by `style=`), which all three
/// profiles accept; positions become regions (one per distinct cue placement, plus the document's
/// WebVTT regions); speakers become `ttm:agent` with a `ttm:name`. Times are clock times to the
/// millisecond when every time is a whole millisecond, else ticks at an exact `ttp:tickRate` (up
/// to 10^9 a second; beyond that, times are rounded to the millisecond). Cue identifiers that are XML names are kept as `xml:id`.
public struct TTMLWriter: TimedTextWriter {
    /// The TTML profile written.
    public enum Profile: String, Sendable, CaseIterable {
        /// W3C IMSC1 text profile (the default).
        case imsc1
        /// W3C TTML1 DFXP presentation profile.
        case dfxp
        /// EBU-TT-D (EBU Tech 3380).
        case ebuTTD = "ebu-tt-d"
        /// Apple iTunes Timed Text (`.itt`): times in SMPTE frames.
        case itt
    }

    /// What TTML carries here.
    public let capabilities: FormatCapabilities = [
        .regions, .placement, .verticalText, .documentLanguage, .title, .voices, .basicStyles, .colors, .languages, .blankLinesInText, .openEnds, .literalMarkup,
        .trailingSpaces, .comments, .freeComments, .speakersInCue,
    ]
    /// The profile.
    public var profile: Profile
    /// Frames per second for iTT's SMPTE times; nil: 29.97.
    public var frameRate: Double?

    /// A writer for a profile (`frameRate` for iTT).
    public init(profile: Profile = .imsc1, frameRate: Double? = nil) {
        self.profile = profile
        self.frameRate = frameRate
    }

    /// The frame rate iTT is written at: the one given, else the rate an iTT source counted in
    /// (re-saving a 25 fps file kept its frames only at 29.97), else 29.97.
    public func rate(for document: TimedTextDocument) -> Double? {
        frameRate ?? document.sourceTimeStep.flatMap { $0 > .zero ? 1 / $0.seconds : nil }
    }

    /// For iTT, moves every time to the nearest frame (as written) and says how many moved.
    public func fit(_ document: inout TimedTextDocument) -> [Diagnostic] {
        guard profile == .itt else { return [] }
        let timecode = SMPTETimecode(frameRate: rate(for: document))
        let fit = timecode.fitToFrames(&document, withinADay: false)
        return timecode.diagnostics(for: fit, codePrefix: "itt", formatName: "iTT", noteMoves: true)
    }

    /// Writes the document as TTML.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        let timecode = profile == .itt ? SMPTETimecode(frameRate: rate(for: document)) : nil
        var context = TTMLWriterContext(document: document, profile: profile, timecode: timecode)
        var output = context.render()
        output.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
    }
}

/// One run of the TTML writer: collects styles, regions and agents, then renders.
private struct TTMLWriterContext {
    let document: TimedTextDocument
    let profile: TTMLWriter.Profile
    private var styleIDs: [String: String] = [:]
    private var styleOrder: [String] = []
    private var regionIDs: [String: String] = [:]
    private var regionOrder: [(id: String, attributes: String)] = []
    private var agentIDs: [String: String] = [:]
    /// The speaker the paragraph being written names (its voice spans need not repeat it).
    private var paragraphSpeaker: String?
    private var agentOrder: [(id: String, name: String)] = []
    private let tickRate: Int64?
    /// iTT's frame timing.
    private let timecode: SMPTETimecode?

    init(document: TimedTextDocument, profile: TTMLWriter.Profile, timecode: SMPTETimecode?) {
        self.document = document
        self.profile = profile
        self.timecode = timecode
        var scale: Int64 = 1000
        var exact = true
        var representable = true
        for time in document.cues.flatMap({ [$0.start] + ($0.end.map { [$0] } ?? []) }) where 1000 % time.timescale != 0 {
            exact = false
            let divisor = Self.gcd(scale, time.timescale)
            let (product, overflow) = (scale / divisor).multipliedReportingOverflow(by: time.timescale)
            if !overflow, product <= 1_000_000_000 { scale = product } else { representable = false }
        }
        // Ticks when they make every time exact; when no tick rate up to 10^9 does, milliseconds,
        // rounded as WebVTT and SRT round (ticks of a rate that rounds some times would read back
        // as other times, and be written at another rate the next time).
        tickRate = exact || !representable ? nil : scale
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    mutating func render() -> String {
        var body = ""
        // In time order, as a TTML reader presents them (a stable sort: equal starts keep their order).
        let cues = document.cues
        let ordered = zip(cues, cues.dropFirst()).allSatisfy { $0.start <= $1.start }
        for index in ordered ? Array(cues.indices) : cues.indices.sorted(by: { (cues[$0].start, $0) < (cues[$1].start, $1) }) {
            body += paragraph(cues[index])
        }
        var head = ""
        // The title and the comments (as descriptions of the document: TTML has no comment
        // placed between paragraphs that a processor keeps).
        // As an XML reader gives them back: line ends as LF, no spaces around, nothing XML forbids.
        func metadata(_ text: String) -> String {
            String(XMLText.escape(text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")).trimmingASCIIWhitespace())
        }
        let title = metadata(document.title)
        if !title.trimmingASCIIWhitespace().isEmpty { head += "    <ttm:title>\(title)</ttm:title>\n" }
        for comment in document.comments {
            let text = metadata(comment.text)
            if !text.trimmingASCIIWhitespace().isEmpty { head += "    <ttm:desc>\(text)</ttm:desc>\n" }
        }
        if !agentOrder.isEmpty {
            head += "    <metadata>\n"
            for agent in agentOrder {
                head += "      <ttm:agent xml:id=\"\(agent.id)\" type=\"person\"><ttm:name type=\"full\">\(XMLText.escape(agent.name))</ttm:name></ttm:agent>\n"
            }
            head += "    </metadata>\n"
        }
        if !styleOrder.isEmpty {
            head += "    <styling>\n"
            for attributes in styleOrder { head += "      <style xml:id=\"\(styleIDs[attributes] ?? "")\"\(attributes)/>\n" }
            head += "    </styling>\n"
        }
        head += "    <layout>\n"
        head += "      <region xml:id=\"bottom\" tts:origin=\"10% 10%\" tts:extent=\"80% 80%\" tts:displayAlign=\"after\" tts:textAlign=\"center\"/>\n"
        for region in regionOrder { head += "      <region xml:id=\"\(region.id)\"\(region.attributes)/>\n" }
        head += "    </layout>\n"
        var root = "<tt xmlns=\"\(TTMLNamespace.ttml)\" xmlns:ttp=\"\(TTMLNamespace.parameter)\" xmlns:tts=\"\(TTMLNamespace.styling)\""
        root += " xmlns:ttm=\"\(TTMLNamespace.metadata)\""
        switch profile {
        case .imsc1: root += " ttp:profile=\"http://www.w3.org/ns/ttml/profile/imsc1/text\""
        case .dfxp: root += " ttp:profile=\"http://www.w3.org/ns/ttml/profile/dfxp-presentation\""
        case .ebuTTD: root += " xmlns:ebuttm=\"urn:ebu:tt:metadata\" ttp:cellResolution=\"50 30\""
        case .itt: root += " xmlns:ittp=\"http://www.w3.org/ns/ttml/profile/imsc1#parameter\" ittp:aspectRatio=\"16 9\""
        }
        if let timecode {
            root += " ttp:timeBase=\"smpte\" ttp:frameRate=\"\(timecode.framesPerSecondLabel)\""
            if timecode.denominator == 1001 { root += " ttp:frameRateMultiplier=\"1000 1001\"" }
            root += " ttp:dropMode=\"nonDrop\""
        } else {
            root += " ttp:timeBase=\"media\""
        }
        if let tickRate { root += " ttp:tickRate=\"\(tickRate)\"" }
        root += " xml:lang=\"\(XMLText.escapeAttribute(document.language ?? ""))\">\n"
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root + "  <head>\n" + head + "  </head>\n"
            + "  <body>\n    <div>\n" + body + "    </div>\n  </body>\n</tt>\n"
    }

    private mutating func paragraph(_ cue: Cue) -> String {
        var attributes = ""
        if !cue.id.isEmpty, Self.isName(cue.id) { attributes += " xml:id=\"\(cue.id)\"" }
        attributes += " begin=\"\(time(cue.start))\""
        if let end = cue.end { attributes += " end=\"\(time(end))\"" }
        // Every paragraph names its own region: under TTML's region association a paragraph whose
        // ancestor names another region is pruned, so nothing is inherited from <body>.
        attributes += " region=\"\(region(for: cue.settings) ?? "bottom")\""
        // One speaker for the whole paragraph goes on it; voice spans of several speakers (or one
        // that covers only part of the text) each name theirs on the span.
        paragraphSpeaker = Cue.firstVoice(in: cue.content) == nil ? cue.speaker : Self.soleVoice(of: cue.content)
        if let speaker = paragraphSpeaker, !speaker.isEmpty {
            attributes += " ttm:agent=\"\(agent(speaker))\""
        }
        if Self.needsPreservedSpace(cue.content) { attributes += " xml:space=\"preserve\"" }
        // A player takes a WebVTT or SRT cue's direction from its first strong letter; TTML's
        // paragraphs are left to right unless told (Hebrew "- שלום." would end ".שלום -").
        if TextDirection.isRightToLeft(cue.plainText) { attributes += " tts:direction=\"rtl\"" }
        return "      <p\(attributes)>\(inline(cue.content, color: .white))</p>\n"
    }

    /// The speaker of a text whose every visible part is in voice spans of that one speaker.
    private static func soleVoice(of nodes: [InlineNode]) -> String? {
        var speaker: String?
        for node in nodes where !node.plainText.allSatisfy(\.isWhitespace) {
            guard case .span(let span) = node, span.kind == .voice, let name = span.annotation, speaker == nil || speaker == name else {
                return nil
            }
            speaker = name
        }
        return speaker
    }

    /// Whether the text has spaces that TTML's default whitespace handling would collapse.
    ///
    /// Looked for in UTF-8, not in characters: a space followed by a combining mark is one
    /// character (" ٌ"), so `"about  ٌcoastal".contains("  ")` is false, yet XML collapses the two
    /// spaces all the same.
    private static func needsPreservedSpace(_ nodes: [InlineNode]) -> Bool {
        let text = Array(nodes.map(\.plainText).joined().utf8)
        let (space, tab, lineFeed): (UInt8, UInt8, UInt8) = (0x20, 0x09, 0x0A)
        guard let first = text.first, let last = text.last else { return false }
        if first == space || last == space || text.contains(tab) { return true }
        return zip(text, text.dropFirst()).contains { pair in
            (pair.0 == space && (pair.1 == space || pair.1 == lineFeed)) || (pair.0 == lineFeed && pair.1 == space)
        }
    }

    /// The nodes as TTML content, in text of colour `color`: a span's colour is written only
    /// where it changes the colour (a reader keeps no more, so the file reads back as written).
    private mutating func inline(_ nodes: [InlineNode], color: RGBAColor) -> String {
        var text = ""
        for node in nodes {
            switch node {
            case .text(let value):
                text += value.split(separator: "\n", omittingEmptySubsequences: false).map { XMLText.escape(String($0)) }
                    .joined(separator: "<br/>")
            case .timestamp:
                break
            case .span(let span):
                let spanColor = span.style?.color ?? color
                let children = inline(span.children, color: spanColor)
                // A span without text is not read back (TTML readers present no empty span).
                guard !children.isEmpty else { continue }
                var style = ""
                switch span.kind {
                case .italic: style = " tts:fontStyle=\"italic\""
                case .bold: style = " tts:fontWeight=\"bold\""
                case .underline: style = " tts:textDecoration=\"underline\""
                default: break
                }
                if spanColor != color { style += " tts:color=\"\(spanColor)\"" }
                if let background = span.style?.backgroundColor { style += " tts:backgroundColor=\"\(background)\"" }
                var spanAttributes = style.isEmpty ? "" : " style=\"\(styleID(style))\""
                // A language span without a language says nothing TTML can carry (nor reads back).
                if span.kind == .language, let language = span.annotation, !language.isEmpty {
                    spanAttributes += " xml:lang=\"\(XMLText.escapeAttribute(language))\""
                }
                if span.kind == .voice, let speaker = span.annotation, !speaker.isEmpty, speaker != paragraphSpeaker {
                    spanAttributes += " ttm:agent=\"\(agent(speaker))\""
                }
                text += spanAttributes.isEmpty ? children : "<span\(spanAttributes)>\(children)</span>"
            }
        }
        return text
    }

    private mutating func styleID(_ attributes: String) -> String {
        if let id = styleIDs[attributes] { return id }
        let id = "s\(styleOrder.count + 1)"
        styleIDs[attributes] = id
        styleOrder.append(attributes)
        return id
    }

    private mutating func agent(_ name: String) -> String {
        if let id = agentIDs[name] { return id }
        let id = "agent\(agentOrder.count + 1)"
        agentIDs[name] = id
        agentOrder.append((id, name))
        return id
    }

    /// A region for a cue's placement: nil for the default (bottom centre).
    private mutating func region(for settings: CueSettings) -> String? {
        var placement = settings
        placement.region = nil
        let webVTTRegion = settings.region.flatMap { document.region(id: $0) }
        guard !placement.isDefault || webVTTRegion != nil else { return nil }
        // The region for the placement a reader will see in it, so that it reads back as written:
        // a region at the bottom (such as `line:-1`) is the default placement, and is left out.
        let readBack = TTMLRegionMapping.geometry(for: placement, in: webVTTRegion).settings
        guard !readBack.isDefault else { return nil }
        let attributes = TTMLRegionMapping.geometry(for: readBack, in: nil).attributes
        if let id = regionIDs[attributes] { return id }
        let id = "r\(regionOrder.count + 1)"
        regionIDs[attributes] = id
        regionOrder.append((id, attributes))
        return id
    }

    private func time(_ time: MediaTime) -> String {
        if let timecode {
            // Non-drop-frame labels count frames: at 29.97 they run slower than the clock, as iTT reads them.
            return timecode.label(frame: timecode.frame(nearest: time), dropFrame: false)
        }
        if let tickRate { return "\(time.rounded(toTimescale: tickRate))t" }
        return ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ".")
    }


    /// Whether an id can be an `xml:id` (an NCName: starts with a letter or `_`).
    private static func isName(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return id.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0) }
    }
}

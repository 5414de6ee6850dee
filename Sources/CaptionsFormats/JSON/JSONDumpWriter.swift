import CaptionsCore

/// Writes the whole model as JSON (`--to json`), in the shape of the public contract in
/// ARCHITECTURE.md: cues and regions mirror WebVTT's `VTTCue` and `VTTRegion`, times are seconds,
/// and every node of the cue text tree is kept.
public struct JSONDumpWriter: TimedTextWriter {
    /// The dump carries everything.
    public let capabilities = FormatCapabilities.all

    /// A writer.
    public init() {}

    /// Writes the document as pretty-printed JSON with a trailing newline.
    public func write(_ document: TimedTextDocument, emit: (UnsafeRawBufferPointer) -> Void) {
        var json = JSONWriter()
        json.beginObject()
        json.key("format"); json.string(document.sourceFormat)
        json.key("kind"); json.string(document.kind.rawValue)
        json.key("language"); json.string(document.language)
        json.key("title"); json.string(document.title)
        json.key("headerLines"); json.strings(document.headerLines)
        json.key("regions"); json.beginArray()
        for region in document.regions { write(region, to: &json) }
        json.endArray()
        json.key("styleSheets"); json.strings(document.styleSheets.map(\.text))
        json.key("comments"); json.beginArray()
        for comment in document.comments {
            json.beginObject()
            json.key("text"); json.string(comment.text)
            json.key("beforeCue"); json.number(Double(comment.beforeCue))
            json.endObject()
        }
        json.endArray()
        json.key("cues"); json.beginArray()
        for cue in document.cues { write(cue, to: &json) }
        json.endArray()
        json.key("diagnostics"); json.beginArray()
        for diagnostic in document.diagnostics { write(diagnostic, to: &json) }
        json.endArray()
        json.endObject()
        var output = json.output + "\n"
        output.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
    }

    private func write(_ region: Region, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(region.id)
        json.key("width"); json.number(region.width)
        json.key("lines"); json.number(region.lines)
        json.key("regionAnchorX"); json.number(region.regionAnchorX)
        json.key("regionAnchorY"); json.number(region.regionAnchorY)
        json.key("viewportAnchorX"); json.number(region.viewportAnchorX)
        json.key("viewportAnchorY"); json.number(region.viewportAnchorY)
        json.key("scroll"); json.string(region.scroll.rawValue)
        json.endObject()
    }

    private func write(_ cue: Cue, to json: inout JSONWriter) {
        let settings = cue.settings
        json.beginObject()
        json.key("id"); json.string(cue.id)
        json.key("startTime"); json.number(cue.start.seconds)
        json.key("endTime"); json.number(cue.end?.seconds)
        json.key("text"); json.string(WebVTTCueTextSerializer.serialize(cue.content))
        json.key("pauseOnExit"); json.bool(false)
        json.key("vertical"); json.string(settings.vertical.rawValue)
        json.key("snapToLines"); json.bool(settings.snapToLines)
        json.key("line")
        switch settings.line {
        case .auto: json.string("auto")
        case .value(let value): json.number(value)
        }
        json.key("lineAlign"); json.string(settings.lineAlign.rawValue)
        json.key("position")
        if let position = settings.position { json.number(position) } else { json.string("auto") }
        json.key("positionAlign"); json.string(settings.positionAlign.rawValue)
        json.key("size"); json.number(settings.size)
        json.key("align"); json.string(settings.align.rawValue)
        json.key("region"); json.string(settings.region)
        json.key("speaker"); json.string(cue.speaker)
        json.key("nodes"); write(cue.content, to: &json)
        if let location = cue.location {
            json.key("location"); json.beginObject()
            json.key("line"); json.number(Double(location.line))
            json.key("column"); json.number(Double(location.column))
            json.endObject()
        }
        json.endObject()
    }

    private func write(_ nodes: [InlineNode], to json: inout JSONWriter) {
        json.beginArray()
        for node in nodes {
            json.beginObject()
            switch node {
            case .text(let text):
                json.key("type"); json.string("text")
                json.key("text"); json.string(text)
            case .timestamp(let time):
                json.key("type"); json.string("timestamp")
                json.key("time"); json.number(time.seconds)
            case .span(let span):
                json.key("type"); json.string(span.kind.rawValue)
                json.key("classes"); json.strings(span.classes)
                if let annotation = span.annotation { json.key("annotation"); json.string(annotation) }
                if let style = span.style {
                    json.key("style"); json.beginObject()
                    if let color = style.color { json.key("color"); json.string(color.description) }
                    if let background = style.backgroundColor { json.key("backgroundColor"); json.string(background.description) }
                    json.endObject()
                }
                json.key("children"); write(span.children, to: &json)
            }
            json.endObject()
        }
        json.endArray()
    }

    private func write(_ diagnostic: Diagnostic, to json: inout JSONWriter) {
        json.beginObject()
        json.key("severity"); json.string(diagnostic.severity.rawValue)
        json.key("code"); json.string(diagnostic.code.rawValue)
        json.key("message"); json.string(diagnostic.message)
        json.key("line"); json.number(diagnostic.location.map { Double($0.line) })
        json.key("column"); json.number(diagnostic.location.map { Double($0.column) })
        json.endObject()
    }
}

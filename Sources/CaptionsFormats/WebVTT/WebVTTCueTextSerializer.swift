import CaptionsCore

/// Writes inline nodes as WebVTT cue text: `&`, `<` and `>` escaped, every span closed, styled
/// spans written as classes (a WebVTT default colour class such as `red`, or `color-rrggbb`
/// defined by a generated `STYLE` block).
enum WebVTTCueTextSerializer {
    static func serialize(_ nodes: [InlineNode]) -> String {
        var output = ByteWriter()
        append(nodes, to: &output)
        return output.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    static func append(_ nodes: [InlineNode], to output: inout ByteWriter) {
        for node in nodes {
            switch node {
            case .text(let text): appendEscaped(text, to: &output)
            case .timestamp(let time):
                output.write(UInt8(ascii: "<"))
                output.writeClock(time, fractionSeparator: UInt8(ascii: "."))
                output.write(UInt8(ascii: ">"))
            case .span(let span):
                let tag = span.kind.rawValue
                output.write(UInt8(ascii: "<"))
                output.write(tag)
                for name in classes(of: span) {
                    output.write(UInt8(ascii: "."))
                    output.write(name)
                }
                if let annotation = span.annotation, !annotation.isEmpty,
                    span.kind == .voice || span.kind == .language
                {
                    output.write(WebVTTSyntax.space)
                    // A last '-' is written as a reference: before the tag's '>' a name ending in
                    // "--" made the line an arrow, and a reader took the cue's text for a timing line.
                    if annotation.hasSuffix("-") {
                        appendEscaped(String(annotation.dropLast()), to: &output)
                        ("&#45;" as StaticString).withUTF8Buffer { output.write($0) }
                    } else {
                        appendEscaped(annotation, to: &output)
                    }
                }
                output.write(UInt8(ascii: ">"))
                append(span.children, to: &output)
                output.write(UInt8(ascii: "<"))
                output.write(UInt8(ascii: "/"))
                output.write(tag)
                output.write(UInt8(ascii: ">"))
            }
        }
    }

    /// The span's classes plus the class that carries its colour, if any.
    static func classes(of span: Span) -> [String] {
        guard let color = span.style?.color else { return span.classes }
        return span.classes + [colorClass(color)]
    }

    /// `red` for a WebVTT default colour, `color-rrggbb` for any other.
    static func colorClass(_ color: RGBAColor) -> String {
        color.webVTTClassName ?? "color-" + color.description.dropFirst()
    }

    private static let escaped = ByteScan(UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"))

    private static func appendEscaped(_ text: String, to output: inout ByteWriter) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            while let index = escaped.firstIndex(in: utf8, from: runStart) {
                output.write(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                let escape: StaticString = switch utf8[index] {
                case UInt8(ascii: "&"): "&amp;"
                case UInt8(ascii: "<"): "&lt;"
                default: "&gt;"
                }
                escape.withUTF8Buffer { output.write($0) }
                runStart = index + 1
            }
            output.write(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }
}

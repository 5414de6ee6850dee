import CaptionsCore

/// Reads MicroDVD (`.sub`): `{start}{end}text` lines timed in frames, `|` between lines.
///
/// The frame rate is `frameRate` when given (`--fps`), else the file's `{1}{1}25` header line,
/// else 23.976 with a warning. `{y:i}`, `{y:b}`, `{y:u}` (one line) and `{Y:…}` (every line)
/// set italic, bold, underline; `{c:$BBGGRR}` a colour; a `/` at the start of a line makes it
/// italic. Fonts, sizes and positions (`{f:}`, `{s:}`, `{P:}`) are dropped with one note.
public struct MicroDVDReader: TimedTextReader {
    /// Frames per second; nil: from the file, else 23.976.
    public var frameRate: Double?

    /// A reader; `frameRate` overrides the file's own.
    public init(frameRate: Double? = nil) { self.frameRate = frameRate }

    /// The frame rate used when neither the caller nor the file gives one.
    public static let defaultFrameRate = 24000.0 / 1001

    /// Parses a MicroDVD file; throws `microdvd.cues.none` when no line is a cue (an empty file is
    /// read as no cues, with a warning).
    public func read(_ input: consuming [UInt8]) throws(CaptionsError) -> TimedTextDocument {
        let text = TextLines(input, codePrefix: "microdvd")
        var document = TimedTextDocument(diagnostics: text.diagnostics, sourceFormat: "microdvd")
        var rate = frameRate
        var dropped: Set<String> = []
        var firstDrop: SourceLocation?
        var timed: [(start: Int64, end: Int64?, line: Int, text: Substring)] = []
        var malformed = false
        var sawHeader = false
        for (index, line) in text.lines.enumerated() {
            let trimmed = line.trimmedSpaces
            guard !trimmed.isEmpty else { continue }
            guard let (start, end, rest) = Self.frames(trimmed) else {
                document.diagnostics.append(Diagnostic(
                    .warning, "microdvd.line.malformed", "not a {start}{end}text line; skipped", at: TextLines.location(index)))
                malformed = true
                continue
            }
            // {1}{1}25 first: the frame rate, not a cue (a cue "23.976" after it is a cue).
            if timed.isEmpty, !sawHeader, start <= 1, let end, end <= 1, let declared = Double(rest.trimmedSpaces), declared > 0, declared < 1000 {
                if let rate, abs(rate - declared) > 0.0005 {
                    document.diagnostics.append(Diagnostic(
                        .note, "microdvd.frameRate.overridden",
                        "the file says \(NumberFormatting.shortest(declared)) frames a second; read at \(NumberFormatting.shortest(rate)) as asked (--fps)",
                        at: TextLines.location(index)))
                }
                if rate == nil { rate = declared }
                sawHeader = true
                continue
            }
            timed.append((start, end, index, rest))
        }
        let fps = rate ?? Self.defaultFrameRate
        if rate == nil, !timed.isEmpty {
            document.diagnostics.append(Diagnostic(
                .warning, "microdvd.frameRate.assumed",
                "the file does not give its frame rate ({1}{1}25 on the first line); 23.976 assumed: pass --fps", at: .start))
        }
        // `{start}{}`: no end frame. Shown until the next cue starts, as VLC and FFmpeg show it;
        // the last such cue is open-ended.
        let starts = timed.map(\.start).sorted()
        var openEnds: (count: Int, first: SourceLocation?) = (0, nil)
        for cue in timed {
            let location = TextLines.location(cue.line)
            var lineDrops: Set<String> = []
            let content = Self.content(cue.text, dropped: &lineDrops)
            if !lineDrops.isEmpty, firstDrop == nil { firstDrop = location }
            dropped.formUnion(lineDrops)
            var endFrame = cue.end
            if endFrame == nil {
                openEnds = (openEnds.count + 1, openEnds.first ?? location)
                var (low, high) = (0, starts.count)  // the first start after this one
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] <= cue.start { low = middle + 1 } else { high = middle }
                }
                endFrame = low < starts.count ? starts[low] : nil
            }
            let start = Self.time(frame: cue.start, fps: fps)
            let end = endFrame.map { Self.time(frame: max(cue.start, $0), fps: fps) }
            document.cues.append(Cue(start: start, end: end, content: content, location: location))
        }
        if let first = openEnds.first {
            document.diagnostics.append(Diagnostic(
                .note, "microdvd.end.none",
                "\(openEnds.count) cue\(openEnds.count == 1 ? "" : "s") without an end frame ({start}{}) shown until the next cue starts"
                    + " (the last, if one, with no end)", at: first))
        }
        if document.cues.isEmpty, !malformed {
            // Nothing, or only the frame rate line (how an empty document is written): no cues,
            // as SRT reads an empty file.
            document.diagnostics.append(Diagnostic(.warning, "microdvd.empty", "the file holds no cues", at: .start))
            return document
        }
        guard !document.cues.isEmpty else {
            throw CaptionsError("microdvd.cues.none", "no cue found: a MicroDVD cue is a line such as {25}{75}Hello", at: .start)
        }
        if let firstDrop {
            document.diagnostics.append(Diagnostic(
                .note, "microdvd.control.dropped",
                "control codes with no equivalent left out: \(dropped.sorted().joined(separator: ", "))", at: firstDrop))
        }
        document.cues.sort { $0.start < $1.start }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// `{start}{end}` (`{start}{}`: no end) and the rest of the line.
    static func frames(_ line: Substring) -> (Int64, Int64?, Substring)? {
        func number(_ text: Substring) -> (Int64, Substring)? {
            guard text.first == "{", let close = text.firstIndex(of: "}") else { return nil }
            let digits = text[text.index(after: text.startIndex)..<close]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int64(digits.prefix(15)) else { return nil }
            return (value, text[text.index(after: close)...])
        }
        guard let (start, afterStart) = number(line) else { return nil }
        if afterStart.hasPrefix("{}") { return (start, nil, afterStart.dropFirst(2)) }
        guard let (end, rest) = number(afterStart) else { return nil }
        return (start, end, rest)
    }

    /// The time of `frame` at `fps`, exact for 23.976, 29.97 and 59.94.
    static func time(frame: Int64, fps: Double) -> MediaTime {
        for (rate, numerator, denominator) in [(24000.0 / 1001, 1001, 24000), (30000.0 / 1001, 1001, 30000), (60000.0 / 1001, 1001, 60000)]
        where abs(fps - rate) < 0.001 {
            return MediaTime(value: frame * Int64(numerator), timescale: Int64(denominator)) ?? .zero
        }
        let scaled = (fps * 1000).rounded()
        return MediaTime(value: frame * 1000, timescale: Int64(max(scaled, 1))) ?? .zero
    }

    /// A cue's text: lines at `|`, each with its control codes applied (`{y:…}` and `{c:…}` to
    /// their line, `{Y:…}` and `{C:…}` to it and every later line).
    static func content(_ text: Substring, dropped: inout Set<String>) -> [InlineNode] {
        var everyLine = ASSTextParser.State()
        var builder = InlineTreeBuilder(joinsAdjacentText: true)
        for (number, rawLine) in text.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            var state = everyLine
            while line.first == "{", let close = line.firstIndex(of: "}"), let colon = line[..<close].firstIndex(of: ":") {
                let kind = line[line.index(after: line.startIndex)..<colon]
                let value = line[line.index(after: colon)..<close]
                let allLines = kind == "Y" || kind == "C"
                switch kind.lowercased() {
                case "y":
                    for flag in value.lowercased().split(separator: ",").map(\.trimmedSpaces) {
                        let setting: WritableKeyPath<ASSTextParser.State, Bool>
                        switch flag {
                        case "i": setting = \.italic
                        case "b": setting = \.bold
                        case "u": setting = \.underline
                        default:
                            dropped.insert("{\(kind):\(flag)}")
                            continue
                        }
                        state[keyPath: setting] = true
                        if allLines { everyLine[keyPath: setting] = true }
                    }
                case "c":
                    state.color = ASSColor.parse("&H" + value.trimmingPrefix("$"))
                    if allLines { everyLine.color = state.color }
                default:
                    dropped.insert("{\(kind):}")
                }
                line = line[line.index(after: close)...]
            }
            if line.first == "/" {
                state.italic = true
                line = line.dropFirst()
            }
            if number > 0 { builder.appendText("\n") }
            var node = InlineNode.text(String(line))
            if state.italic { node = .span(Span(.italic, children: [node])) }
            if state.bold { node = .span(Span(.bold, children: [node])) }
            if state.underline { node = .span(Span(.underline, children: [node])) }
            if let color = state.color { node = .span(Span(.class, style: TextStyle(color: color), children: [node])) }
            if case .text(let plain) = node { builder.appendText(plain) } else if !line.isEmpty { builder.append(node) }
        }
        return builder.finish()
    }
}

import CaptionsCore
import CaptionsFormats

/// `captions check` output: diagnostics lines for terminals and CI logs, JSON for scripts, and an
/// HTML page for people.
public enum QualityReportFormat: String, Sendable, CaseIterable {
    /// `path:line:column: severity: message [code]`, one a line, then a summary.
    case text
    /// One JSON object: the settings, every finding, the counts.
    case json
    /// A page with the summary and a table of findings.
    case html

    /// The format an output file's extension names.
    public init?(extension name: String) {
        switch name.lowercased() {
        case "txt", "text", "log": self = .text
        case "json": self = .json
        case "html", "htm": self = .html
        default: return nil
        }
    }

    /// The report of `report` on the file at `path`.
    public func render(_ report: QualityReport, path: String) -> String {
        switch self {
        case .text:
            var text = ""
            QualityReportText.write(report, path: path) { text += $0 }
            return text
        case .json: return QualityReportJSON.render(report, path: path)
        case .html: return QualityReportHTML.render(report, path: path)
        }
    }

    /// The same report handed to `emit` in consecutive pieces, to be written one after another as
    /// they come: the text report of a long file (100,000 findings are 23 MB) is written on every
    /// core, a few megabytes at a time, never whole in memory.
    public func write(_ report: QualityReport, path: String, to emit: (String) -> Void) {
        guard self == .text else { return emit(render(report, path: path)) }
        QualityReportText.write(report, path: path, to: emit)
    }
}

extension QualityReport {
    /// `netflix (en), 23.976 fps from the profile, 120 cues: 2 errors, 3 warnings`.
    func summary(path: String) -> String {
        let rate = frameRateText
        let (errors, warnings) = severityCounts
        let shots = shotChanges.isEmpty ? "" : ", \(shotChanges.count) shot changes"
        return "\(path): \(cueCount) cue\(cueCount == 1 ? "" : "s") checked against \(profile)\(language.map { " (\($0))" } ?? "") at \(rate) fps (\(frameRateSource))\(shots): "
            + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }

    /// The frame rate as a decimal: `23.976`.
    var frameRateText: String {
        NumberFormatting.shortest((Double(frameRate.numerator) / Double(frameRate.denominator) * 1000).rounded() / 1000)
    }
}

enum QualityReportText {
    /// Findings a piece, rendered on one core (about 1.5 MB).
    static let pieceSize = 8192

    /// The lines of the findings, then the summary, in pieces of ``pieceSize`` findings, one a
    /// core at a time.
    static func write(_ report: QualityReport, path: String, to emit: (String) -> Void) {
        let total = report.findings.count
        let cores = ParallelWork.pieceCount(for: total, minimum: pieceSize)
        var first = 0
        repeat {
            let round = (0..<cores).map { core in
                min(total, first + core * pieceSize)..<min(total, first + (core + 1) * pieceSize)
            }
            for piece in ParallelWork.map(round.count, { render(report.findings, round[$0], path: path) }) { emit(piece) }
            first += cores * pieceSize
        } while first < total
        emit(report.summary(path: path) + "\n")
    }

    /// The lines of `findings[range]`. Written straight into the string's own
    /// storage (building an array first and converting it copied them twice more); the findings
    /// are read through a buffer pointer, which lends each one instead of copying it (a retain and
    /// a release of its strings each time).
    private static func render(_ findings: [QualityFinding], _ range: Range<Int>, path: String) -> String {
        findings.withUnsafeBufferPointer { findings in
            let place = path.utf8.count
            let capacity = range.reduce(0) {
                $0 + findings[$1].diagnostic.message.utf8.count + findings[$1].diagnostic.code.rawValue.utf8.count + place + 96
            }
            return String(unsafeUninitializedCapacity: capacity) { buffer in
                var out = ByteOutput(buffer: buffer)
                for index in range {
                    out.append(path)
                    if let location = findings[index].diagnostic.location {
                        out.append(":")
                        out.append(decimal: location.line)
                        out.append(":")
                        out.append(decimal: location.column)
                    }
                    out.append(": ")
                    out.append(findings[index].diagnostic.severity.rawValue)
                    out.append(": ")
                    out.append(findings[index].diagnostic.message)
                    out.append(" [")
                    out.append(findings[index].diagnostic.code.rawValue)
                    out.append(findings[index].fixable ? "] (fix may repair this)\n" : "]\n")
                }
                return out.count
            }
        }
    }

    /// Bytes appended to a buffer known to be large enough.
    private struct ByteOutput {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ text: String) {
            let written = text.utf8.withContiguousStorageIfAvailable { source in
                UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: source)
            }
            if let written {
                count += written
            } else {
                for byte in text.utf8 {
                    buffer[count] = byte
                    count += 1
                }
            }
        }

        mutating func append(decimal value: Int) {
            guard value > 0 else { return append(String(value)) }
            var digits = 0
            var rest = value
            while rest > 0 { rest /= 10; digits += 1 }
            rest = value
            for place in stride(from: count + digits - 1, through: count, by: -1) {
                buffer[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            count += digits
        }
    }
}

enum QualityReportJSON {
    static func render(_ report: QualityReport, path: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("file"); json.string(path)
        json.key("profile"); json.string(report.profile)
        json.key("language"); json.string(report.language)
        json.key("frameRate"); json.string(report.frameRate.description)
        json.key("frameRateSource"); json.string(report.frameRateSource)
        json.key("cues"); json.number(Double(report.cueCount))
        json.key("shotChanges"); json.beginArray()
        for shot in report.shotChanges { json.number(shot.seconds) }
        json.endArray()
        json.key("findings"); json.beginArray()
        for finding in report.findings {
            json.beginObject()
            json.key("severity"); json.string(finding.diagnostic.severity.rawValue)
            json.key("code"); json.string(finding.diagnostic.code.rawValue)
            json.key("message"); json.string(finding.diagnostic.message)
            json.key("line"); json.number(finding.diagnostic.location.map { Double($0.line) })
            json.key("column"); json.number(finding.diagnostic.location.map { Double($0.column) })
            json.key("cue"); json.number(finding.cueIndex.map { Double($0 + 1) })
            json.key("start"); json.number(finding.start?.seconds)
            json.key("end"); json.number(finding.end?.seconds)
            json.key("fixable"); json.bool(finding.fixable)
            json.endObject()
        }
        json.endArray()
        let (errors, warnings) = report.severityCounts
        json.key("errors"); json.number(Double(errors))
        json.key("warnings"); json.number(Double(warnings))
        json.endObject()
        return json.output + "\n"
    }
}

enum QualityReportHTML {
    static func render(_ report: QualityReport, path: String) -> String {
        let escape = XMLText.escape
        var rows = ""
        for finding in report.findings {
            let diagnostic = finding.diagnostic
            let place = diagnostic.location.map { "\($0.line):\($0.column)" } ?? ""
            let cue = finding.cueIndex.map { "\($0 + 1)" } ?? ""
            let time = finding.start.map { QualityContext.clock($0) } ?? ""
            rows += "<tr class=\"\(diagnostic.severity.rawValue)\"><td>\(diagnostic.severity.rawValue)</td><td>\(cue)</td>"
                + "<td>\(time)</td><td>\(place)</td><td>\(escape(diagnostic.message))</td><td><code>\(diagnostic.code)</code></td>"
                + "<td>\(finding.fixable ? "yes" : "no")</td></tr>\n"
        }
        let summary = escape(report.summary(path: path))
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Caption check: \(escape(path))</title>
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1a1a1a; background: #fff; }
            table { border-collapse: collapse; width: 100%; }
            th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #ccc; vertical-align: top; }
            tr.error td:first-child { color: #a50e0e; font-weight: bold; }
            tr.warning td:first-child { color: #7a4a00; font-weight: bold; }
            code { font-size: .9em; }
            </style>
            </head>
            <body>
            <main>
            <h1>Caption check</h1>
            <p>\(summary)</p>
            <table>
            <caption>Findings, in cue order (“fix” says whether <code>captions fix</code> repairs it)</caption>
            <thead><tr><th scope="col">Severity</th><th scope="col">Cue</th><th scope="col">Time</th><th scope="col">Line:column</th><th scope="col">Finding</th><th scope="col">Code</th><th scope="col">Fix</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </main>
            </body>
            </html>

            """
    }
}

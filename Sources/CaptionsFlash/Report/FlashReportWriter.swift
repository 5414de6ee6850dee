import CaptionsCore

/// Writes a ``FlashReport`` for people and machines.
public enum FlashReportFormat: String, Sendable, CaseIterable {
    /// A verdict and the hazards, for a terminal.
    case text
    /// The whole report.
    case json
    /// One row per frame.
    case csv
    /// A WebVTT `metadata` track, one cue per hazard with a JSON payload, for players.
    case vtt
    /// One self-contained accessible page with a chart.
    case html

    /// The format a report file's extension names (`.txt`, `.json`, `.csv`, `.vtt`, `.html`).
    public init?(fileExtension path: String) {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "txt", "text", "log": self = .text
        case "json": self = .json
        case "csv": self = .csv
        case "vtt", "webvtt": self = .vtt
        case "html", "htm": self = .html
        default: return nil
        }
    }

    /// The usual extension of a report file in this format.
    public var fileExtension: String { self == .text ? "txt" : rawValue }

    /// Renders `report` about the video `source`; the text report lists its notes only when
    /// `verbose` (the other formats always carry them).
    public func render(_ report: FlashReport, source: String, verbose: Bool = true) -> String {
        switch self {
        case .text: FlashTextReport.render(report, source: source, notes: verbose)
        case .json: FlashJSONReport.render(report, source: source)
        case .csv: FlashCSVReport.render(report)
        case .vtt: FlashWebVTTReport.render(report)
        case .html: FlashHTMLReport.render(report, source: source)
        }
    }
}

extension FlashReport {
    /// The name of the criteria, as reports print them ("WCAG 2.3.1 (three flashes or below threshold), red rule WCAG 2.2").
    public var criteriaName: String {
        let standard: String
        switch criteria.standard {
        case .wcag: standard = "WCAG 2.3.1 (three flashes or below threshold)"
        case .wcagAAA: standard = "WCAG 2.3.2 (three flashes)"
        case .itu: standard = "ITU-R BT.1702"
        }
        return standard + ", red rule " + (criteria.redRule == .wcag22 ? "WCAG 2.2" : "Harding")
    }
}

extension FlashReport {
    /// `HH:MM:SS.mmm` for a time in seconds, as the reports print times.
    public static func clockText(_ seconds: Double) -> String { clock(seconds) }
}

/// `HH:MM:SS.mmm` for a time in seconds.
func clock(_ seconds: Double) -> String {
    let time = MediaTime(value: Int64((max(0, seconds) * 1000).rounded()), timescale: 1000) ?? .zero
    return ClockTime(roundingToMilliseconds: time).formatted(fractionSeparator: ".")
}

/// A share (0–1) as a whole percentage.
func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

/// One decimal.
func oneDecimal(_ value: Double) -> String { NumberFormatting.shortest((value * 10).rounded() / 10) }

import CaptionsCore

/// The terminal report: the verdict first, then one line per hazard.
enum FlashTextReport {
    /// The report; `notes` lists the notes, which are otherwise only counted.
    static func render(_ report: FlashReport, source: String, notes: Bool = true) -> String {
        var lines: [String] = []
        lines.append("\(source): \(report.verdict.rawValue.uppercased())\(report.partial ? " (partial)" : "") — \(report.criteriaName)")
        var facts = "  \(report.pictures.isEmpty ? "\(report.width)×\(report.height)" : report.pictures), \(report.frameCount) frames, \(oneDecimal(report.duration)) s"
        if let start = report.streamStart, abs(start) >= 0.0005 {
            facts += "; times from the first frame shown (\(NumberFormatting.shortest((start * 1000).rounded() / 1000)) s in the stream)"
        }
        lines.append(facts)
        if !report.colour.isEmpty {
            let guessed = report.colourGuessed ? " (partly guessed: the stream does not say)" : ""
            lines.append("  measured as \(report.colour)\(guessed); \(report.luminanceRule)")
        }
        if notes {
            for note in report.notes { lines.append("  note: \(note)") }
        } else if !report.notes.isEmpty {
            lines.append("  \(report.notes.count) note\(report.notes.count == 1 ? "" : "s") (-v lists them)")
        }
        if let reason = report.partialReason { lines.append("  partial: \(reason)") }
        for gap in report.missing {
            let label = gap.code == "media.frames.damaged" ? "damaged" : "not scanned"
            lines.append("  \(label) \(clock(gap.start))–\(clock(gap.end)): \(gap.message) [\(gap.code)]")
        }
        for hazard in report.hazards {
            lines.append(
                "  \(hazard.kind.rawValue) flashing \(clock(hazard.start))–\(clock(hazard.end)): up to "
                    + "\(oneDecimal(hazard.peakFlashesPerSecond)) flashes/s, \(percent(hazard.peakAreaShare)) of a 10° field, "
                    + "\(percent(hazard.peakScreenShare)) of the screen"
                    + (hazard.moves ? "; the flashing moves about (no one place flashes more than three times a second)" : ""))
        }
        for warning in report.warnings {
            let when = warning.end > warning.start ? "\(clock(warning.start))–\(clock(warning.end))" : "at \(clock(warning.start))"
            lines.append("  warning \(when): \(warning.message) [\(warning.code)]")
        }
        if report.frameCount > 0 {
            let display = "\(NumberFormatting.shortest(report.display.peak)) cd/m², \(NumberFormatting.shortest(report.display.area)) deg²"
            let spans = report.dflSpans
            if spans.isEmpty {
                lines.append("  Dim Flashing Lights (Apple's model, \(display)): no risk")
            } else {
                lines.append("  Dim Flashing Lights (Apple's model, \(display)): risk in \(spans.count) span\(spans.count == 1 ? "" : "s")")
                for span in spans {
                    lines.append(
                        "    \(clock(span.start))–\(clock(span.end)): risk up to \(oneDecimal(span.peakRisk)), "
                            + "dimmed up to \(percent(span.peakMitigation))")
                }
            }
        }
        if report.verdict == .unknown {
            lines.append("  no verdict: nothing could be analysed")
        } else if report.hazards.isEmpty {
            lines.append("  no flashing above the limits\(report.partial ? " in what could be scanned" : "")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

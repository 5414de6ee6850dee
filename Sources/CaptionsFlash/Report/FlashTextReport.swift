/// The terminal report: the verdict first, then one line per hazard.
enum FlashTextReport {
    static func render(_ report: FlashReport, source: String) -> String {
        var lines: [String] = []
        lines.append("\(source): \(report.verdict == .pass ? "PASS" : "FAIL")\(report.partial ? " (partial)" : "") — \(report.criteriaName)")
        lines.append("  \(report.width)×\(report.height), \(report.frameCount) frames, \(oneDecimal(report.duration)) s")
        if let reason = report.partialReason { lines.append("  partial: \(reason)") }
        for hazard in report.hazards {
            lines.append(
                "  \(hazard.kind.rawValue) flashing \(clock(hazard.start))–\(clock(hazard.end)): up to "
                    + "\(oneDecimal(hazard.peakFlashesPerSecond)) flashes/s, \(percent(hazard.peakAreaShare)) of a 10° field, "
                    + "\(percent(hazard.peakScreenShare)) of the screen")
        }
        for warning in report.warnings {
            lines.append("  warning \(clock(warning.start))–\(clock(warning.end)): \(warning.message) [\(warning.code)]")
        }
        if report.hazards.isEmpty { lines.append("  no flashing above the limits") }
        return lines.joined(separator: "\n") + "\n"
    }
}

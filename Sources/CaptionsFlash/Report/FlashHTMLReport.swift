import CaptionsCore

/// One self-contained, accessible HTML page: verdict, hazard table, and an inline SVG chart of
/// flashes per second, flashing area, mean luminance and Apple's Dim Flashing Lights risk over
/// time, hazards shaded; the spans where Apple's model sees a risk.
enum FlashHTMLReport {
    static func render(_ report: FlashReport, source: String) -> String {
        let title = "Flash scan: \(escape(source))"
        let verdict = report.verdict == .pass ? "PASS" : "FAIL"
        var rows = ""
        for hazard in report.hazards {
            rows += """
                <tr><td>\(hazard.kind.rawValue)\(hazard.moves ? ", moving about" : "")</td><td><time datetime="PT\(oneDecimal(hazard.start))S">\(clock(hazard.start))</time></td>\
                <td><time datetime="PT\(oneDecimal(hazard.end))S">\(clock(hazard.end))</time></td>\
                <td>\(oneDecimal(hazard.peakFlashesPerSecond))</td><td>\(percent(hazard.peakAreaShare))</td>\
                <td>\(percent(hazard.peakScreenShare))</td></tr>

                """
        }
        let hazards = report.hazards.isEmpty
            ? "<p>No flashing above the limits.</p>"
            : """
              <table><caption>Time ranges that fail</caption>
              <thead><tr><th scope="col">Kind</th><th scope="col">Start</th><th scope="col">End</th>\
              <th scope="col">Flashes per second</th><th scope="col">Area of a 10° field</th><th scope="col">Area of the screen</th></tr></thead>
              <tbody>
              \(rows)</tbody></table>
              """
        var spanRows = ""
        for span in report.dflSpans {
            spanRows += """
                <tr><td><time datetime="PT\(oneDecimal(span.start))S">\(clock(span.start))</time></td>\
                <td><time datetime="PT\(oneDecimal(span.end))S">\(clock(span.end))</time></td>\
                <td>\(oneDecimal(span.peakRisk))</td><td>\(percent(span.peakMitigation))</td></tr>

                """
        }
        let display = "\(NumberFormatting.shortest(report.display.peak)) cd/m², \(NumberFormatting.shortest(report.display.area)) deg²"
        let dimFlashingLights = spanRows.isEmpty
            ? "<p>Apple's model sees no flashing risk on this display (\(display)).</p>"
            : """
              <table><caption>Where Apple's model sees a risk (display \(display))</caption>
              <thead><tr><th scope="col">Start</th><th scope="col">End</th><th scope="col">Peak risk (0–100)</th>\
              <th scope="col">Dimmed by up to</th></tr></thead>
              <tbody>
              \(spanRows)</tbody></table>
              """
        let partial = report.partialReason.map { "<p class=\"partial\"><strong>Partial report:</strong> \(escape($0))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            :root { color-scheme: light dark; --fail: #b00020; --pass: #1b6e2a; --ink: #1d1d1f; --paper: #ffffff; --muted: #5f6368; --grid: #d0d4d9; }
            @media (prefers-color-scheme: dark) { :root { --fail: #ff6b7a; --pass: #6fd18a; --ink: #ececf0; --paper: #16171a; --muted: #a5a9b0; --grid: #3a3d43; } }
            body { font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--paper); max-width: 62rem; margin: 2rem auto; padding: 0 1rem; }
            .verdict { font-size: 1.6rem; font-weight: 700; color: \(report.verdict == .pass ? "var(--pass)" : "var(--fail)"); }
            table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
            @media (max-width: 40rem) { table { display: block; overflow-x: auto; } body { margin: 1rem auto; } }
            th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--grid); }
            caption { text-align: left; color: var(--muted); }
            figure { margin: 1.5rem 0; }
            svg text { fill: var(--muted); font-size: 12px; }
            .partial { color: var(--fail); }
            </style>
            </head>
            <body>
            <main>
            <h1>\(title)</h1>
            <p class="verdict">\(verdict)</p>
            <p>\(escape(report.criteriaName)). \(report.width)×\(report.height), \(report.frameCount) frames, \(oneDecimal(report.duration)) s.</p>
            \(partial)
            <section aria-labelledby="hazards"><h2 id="hazards">Hazards</h2>
            \(hazards)
            </section>
            <section aria-labelledby="dfl"><h2 id="dfl">Dim Flashing Lights</h2>
            <p>Apple's perceptual model for the whole frame on one display: a risk from 0 to 100 and how much a player dims. It is not a compliance test; the verdict above is.</p>
            \(dimFlashingLights)
            </section>
            <section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
            <figure>
            \(chart(report))
            <figcaption>Red: flashes per second of the worst spot (left axis; dashed line: the limit of 3). Blue: share of the worst 10° field (or of the screen, for ITU) that flashes too often (right axis; dashed: the 25 % limit). Grey: mean luminance (\(report.luminanceUnit == "cd/m²" ? "cd/m², scaled to its peak" : "relative, 0–1")). Amber: Apple's Dim Flashing Lights risk (right axis, 0–100). Shaded: hazards.</figcaption>
            </figure>
            </section>
            </main>
            </body>
            </html>

            """
    }

    private static func chart(_ report: FlashReport) -> String {
        let width = 900.0, height = 300.0, left = 40.0, right = 10.0, top = 10.0, bottom = 46.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let start = report.frames.first?.time ?? 0
        let span = max((report.frames.last?.time ?? 0) - start, 0.001)
        let maxRate = max(6, report.frames.map(\.flashesPerSecond).max() ?? 0)
        func x(_ time: Double) -> String { oneDecimal(left + (time - start) / span * plotWidth) }
        func y(_ share: Double) -> String { oneDecimal(top + (1 - min(max(share, 0), 1)) * plotHeight) }
        func polyline(_ values: (FlashReport.FrameMeasure) -> Double, color: String) -> String {
            let step = max(1, report.frames.count / 1500)
            let points = stride(from: 0, to: report.frames.count, by: step)
                .map { "\(x(report.frames[$0].time)),\(y(values(report.frames[$0])))" }.joined(separator: " ")
            return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points)\"/>"
        }
        var svg = """
            <svg viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="chart-title chart-desc" width="100%">
            <title id="chart-title">Flashing over time</title>
            <desc id="chart-desc">\(report.hazards.count) hazard(s) over \(oneDecimal(span)) seconds; at most \(oneDecimal(report.frames.map(\.flashesPerSecond).max() ?? 0)) flashes per second.</desc>

            """
        for hazard in report.hazards {
            let from = left + (hazard.start - start) / span * plotWidth
            let to = left + (hazard.end - start) / span * plotWidth
            svg += "<rect x=\"\(oneDecimal(from))\" y=\"\(top)\" width=\"\(oneDecimal(max(to - from, 1)))\" height=\"\(plotHeight)\" fill=\"#e53935\" fill-opacity=\"0.15\"/>\n"
        }
        svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(3 / maxRate))\" y2=\"\(y(3 / maxRate))\" stroke=\"#e53935\" stroke-dasharray=\"4 4\"/>\n"
        svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(0.25))\" y2=\"\(y(0.25))\" stroke=\"#1e88e5\" stroke-dasharray=\"2 4\"/>\n"
        let peakLuminance = max(report.frames.map(\.meanLuminance).max() ?? 1, report.luminanceUnit == "cd/m²" ? 1 : 1)
        let luminanceScale = report.luminanceUnit == "cd/m²" ? 1 / peakLuminance : 1
        svg += polyline({ $0.meanLuminance * luminanceScale }, color: "#9e9e9e") + "\n"
        let itu = report.criteria.standard == .itu
        svg += polyline({ itu ? max($0.generalScreenShare, $0.redScreenShare) : max($0.generalAreaShare, $0.redAreaShare) }, color: "#1e88e5") + "\n"
        svg += polyline({ $0.dflRisk / 100 }, color: "#f59e0b") + "\n"
        svg += polyline({ $0.flashesPerSecond / maxRate }, color: "#e53935") + "\n"
        svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(top + plotHeight)\" y2=\"\(top + plotHeight)\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>\n"
        for tick in 0...5 {
            let time = start + span * Double(tick) / 5
            svg += "<text x=\"\(x(time))\" y=\"\(Int(top + plotHeight) + 16)\" text-anchor=\"middle\">\(oneDecimal(time)) s</text>\n"
        }
        svg += "<text x=\"4\" y=\"\(top + 12)\">\(oneDecimal(maxRate))/s</text>\n"
        svg += "<text x=\"4\" y=\"\(top + plotHeight)\">0</text>\n"
        svg += "<text x=\"\(width - right)\" y=\"\(top + 12)\" text-anchor=\"end\">100 % area · risk 100</text>\n"
        svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 4)\" text-anchor=\"middle\">time (s)</text>\n"
        svg += "<text transform=\"translate(12 \(top + plotHeight / 2)) rotate(-90)\" text-anchor=\"middle\">flashes per second</text>\n</svg>"
        return svg
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;")
    }
}

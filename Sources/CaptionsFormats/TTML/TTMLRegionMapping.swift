import CaptionsCore

/// How a TTML region's geometry maps to WebVTT cue settings: the one mapping the reader uses, and
/// the writer checks its regions against, so that what the writer writes reads back as written.
enum TTMLRegionMapping {
    /// Cue settings for text aligned `textAlign` in a region of `origin` and `extent` (percent),
    /// `displayAlign` and `writingMode`. A region reaching the bottom 12 % across most of the
    /// width, its text centred, is the default placement.
    static func settings(
        origin: (Double, Double)?, extent: (Double, Double)?, displayAlign: String?, textAlign: String?,
        writingMode: String?
    ) -> CueSettings {
        var settings = CueSettings()
        switch textAlign {
        case "left": settings.align = .left
        case "right": settings.align = .right
        case "start": settings.align = .start
        case "end": settings.align = .end
        default: break
        }
        switch writingMode {
        case "tbrl", "tb": settings.vertical = .rightToLeft
        case "tblr": settings.vertical = .leftToRight
        default: break
        }
        guard let origin, let extent else { return settings }
        // A line is a percentage of the video's height (WebVTT drops a cue's line outside 0–100 as
        // it reads it): a region reaching past the screen places its text at the screen's edge.
        func onScreen(_ value: Double) -> Double { min(max(value, 0), 100) }
        let bottom = origin.1 + extent.1
        switch displayAlign {
        case "before":
            settings.line = .value(onScreen(origin.1))
            settings.snapToLines = false
        case "center":
            settings.line = .value(onScreen(origin.1 + extent.1 / 2))
            settings.snapToLines = false
            settings.lineAlign = .center
        default:
            if bottom < 88 {
                settings.line = .value(onScreen(bottom))
                settings.snapToLines = false
                settings.lineAlign = .end
            }
        }
        // Centred text across most of the width is where WebVTT puts it by default; text aligned
        // to a side sits at the region's edge, which the cue box then has to give.
        if extent.0 < 78 || origin.0 > 12 || settings.align != .center {
            settings.size = min(max(extent.0, 0), 100)
            settings.position = min(max(origin.0 + extent.0 / 2, 0), 100)
            settings.positionAlign = .center
        }
        return settings
    }

    /// A TTML region's geometry and alignment, as written (percentages clamped to 0–100 and
    /// rounded to hundredths).
    struct Geometry {
        var origin: (Double, Double)
        var extent: (Double, Double)
        var displayAlign: String
        var textAlign: String
        var writingMode: String?

        /// The `tts:` attributes.
        var attributes: String {
            func percent(_ value: Double) -> String { NumberFormatting.shortest(value) + "%" }
            var attributes = " tts:origin=\"\(percent(origin.0)) \(percent(origin.1))\" tts:extent=\"\(percent(extent.0)) \(percent(extent.1))\""
            attributes += " tts:displayAlign=\"\(displayAlign)\" tts:textAlign=\"\(textAlign)\""
            if let writingMode { attributes += " tts:writingMode=\"\(writingMode)\"" }
            return attributes
        }

        /// The cue settings a reader takes this region for.
        var settings: CueSettings {
            TTMLRegionMapping.settings(
                origin: origin, extent: extent, displayAlign: displayAlign, textAlign: textAlign, writingMode: writingMode)
        }
    }

    /// TTML origin, extent and alignment for WebVTT cue settings (and the WebVTT region they name).
    static func geometry(for settings: CueSettings, in region: Region?) -> Geometry {
        var width = settings.size
        var left: Double
        switch settings.positionAlign {
        case .lineLeft: left = settings.position ?? 0
        case .lineRight: left = (settings.position ?? 100) - width
        case .center, .auto: left = (settings.position ?? 50) - width / 2
        }
        var top = 10.0
        var height = 80.0
        var displayAlign = "after"
        if case .value(let line) = settings.line {
            if settings.snapToLines {
                displayAlign = line >= 0 ? "before" : "after"
                (top, height) = line >= 0 ? (min(line * 5.33, 90), 100 - min(line * 5.33, 90)) : (0, max(0, 100 + (line + 1) * 5.33))
            } else {
                switch settings.lineAlign {
                case .start: (top, height, displayAlign) = (line, 100 - line, "before")
                case .center:
                    // Centred on the line: the reader takes the middle of the region as the line.
                    let half = max(0, min(line, 100 - line))
                    (top, height, displayAlign) = (line - half, 2 * half, "center")
                case .end: (top, height, displayAlign) = (0, line, "after")
                }
            }
        }
        if let region {
            width = region.width
            left = region.viewportAnchorX - region.regionAnchorX * region.width / 100
            // A region reaching past the picture's edge is moved inside it (IMSC keeps regions
            // within the root container).
            left = min(left, 100 - width)
            height = min(100, region.lines * 5.33)
            top = region.viewportAnchorY - region.regionAnchorY * height / 100
        }
        func written(_ value: Double) -> Double { value.isFinite ? (min(max(value, 0), 100) * 100).rounded() / 100 : 0 }
        let align: String
        switch settings.align {
        case .start: align = "start"
        case .end: align = "end"
        case .left: align = "left"
        case .right: align = "right"
        case .center: align = "center"
        }
        return Geometry(
            origin: (written(left), written(top)), extent: (written(width), written(height)), displayAlign: displayAlign,
            textAlign: align,
            writingMode: settings.vertical == .horizontal ? nil : settings.vertical == .rightToLeft ? "tbrl" : "tblr")
    }
}

import CaptionsCore

/// The WebVTT "parse the WebVTT cue settings" and "collect WebVTT region settings" algorithms.
///
/// Invalid settings are skipped exactly as the specification says, and each skip is reported
/// (`webvtt.setting.invalid`, `webvtt.region.setting.invalid`) with the column of the setting.
struct WebVTTSettingsParser {
    /// Reports a skipped setting: its code, message and byte offset.
    var report: (Diagnostic.Code, String, Int) -> Void

    func parseCueSettings(_ text: ByteSlice, regions: [Region]) -> CueSettings {
        var settings = CueSettings()
        for setting in WebVTTSyntax.splitOnWhitespace(text) {
            guard let (name, value) = WebVTTSyntax.splitSetting(setting) else {
                report("webvtt.setting.invalid", "ignored cue setting '\(setting.string)': expected name:value", setting.startIndex)
                continue
            }
            let applied: Bool
            switch name.string {
            case "region":
                if let region = regions.last(where: { $0.id == value.string }) {
                    settings.region = region.id
                    applied = true
                } else {
                    report("webvtt.setting.region.unknown", "no region named '\(value.string)'", setting.startIndex)
                    continue
                }
            case "vertical": applied = apply(value, to: &settings.vertical)
            case "line": applied = parseLine(value, into: &settings)
            case "position": applied = parsePosition(value, into: &settings)
            case "size":
                let size = WebVTTSyntax.parsePercentage(value)
                if let size { settings.size = size }
                applied = size != nil
            case "align": applied = apply(value, to: &settings.align)
            default: applied = false
            }
            if !applied {
                report("webvtt.setting.invalid", "ignored cue setting '\(setting.string)'", setting.startIndex)
            }
        }
        return settings
    }

    private func apply<Setting: RawRepresentable<String>>(_ value: ByteSlice, to setting: inout Setting) -> Bool {
        guard let parsed = Setting(rawValue: value.string), !value.isEmpty else { return false }
        setting = parsed
        return true
    }

    private func parseLine(_ value: ByteSlice, into settings: inout CueSettings) -> Bool {
        let comma = value.firstIndex(of: UInt8(ascii: ","))
        let linePosition = comma.map { value[..<$0] } ?? value
        guard linePosition.contains(where: WebVTTSyntax.isDigit) else { return false }
        let number: Double
        let snapToLines: Bool
        if linePosition.last == UInt8(ascii: "%") {
            guard let percentage = WebVTTSyntax.parsePercentage(linePosition) else { return false }
            (number, snapToLines) = (percentage, false)
        } else {
            guard let lines = WebVTTSyntax.parseDecimal(linePosition, allowSign: true) else { return false }
            (number, snapToLines) = (lines, true)
        }
        var lineAlign = CueSettings.LineAlign.start
        if let comma {
            guard let align = CueSettings.LineAlign(rawValue: value[(comma + 1)...].string) else { return false }
            lineAlign = align
        }
        settings.line = .value(number)
        settings.snapToLines = snapToLines
        settings.lineAlign = lineAlign
        return true
    }

    private func parsePosition(_ value: ByteSlice, into settings: inout CueSettings) -> Bool {
        let comma = value.firstIndex(of: UInt8(ascii: ","))
        guard let position = WebVTTSyntax.parsePercentage(comma.map { value[..<$0] } ?? value) else { return false }
        var positionAlign = CueSettings.PositionAlign.auto
        if let comma {
            let name = value[(comma + 1)...].string
            guard name != "auto", let align = CueSettings.PositionAlign(rawValue: name) else { return false }
            positionAlign = align
        }
        settings.position = position
        settings.positionAlign = positionAlign
        return true
    }

    func parseRegion(_ text: ByteSlice, location: SourceLocation) -> Region {
        var region = Region(id: "", location: location)
        for setting in WebVTTSyntax.splitOnWhitespace(text) {
            guard let (name, value) = WebVTTSyntax.splitSetting(setting) else {
                report("webvtt.region.setting.invalid", "ignored region setting '\(setting.string)'", setting.startIndex)
                continue
            }
            var applied = true
            switch name.string {
            case "id": region.id = value.string
            case "width":
                if let width = WebVTTSyntax.parsePercentage(value) { region.width = width } else { applied = false }
            case "lines":
                if value.allSatisfy(WebVTTSyntax.isDigit), let lines = Double(value.string), lines.isFinite {
                    region.lines = lines
                } else {
                    applied = false
                }
            case "regionanchor":
                if let (x, y) = parseAnchor(value) { (region.regionAnchorX, region.regionAnchorY) = (x, y) } else { applied = false }
            case "viewportanchor":
                if let (x, y) = parseAnchor(value) { (region.viewportAnchorX, region.viewportAnchorY) = (x, y) } else { applied = false }
            case "scroll":
                if value.equals("up") { region.scroll = .up } else { applied = false }
            default: applied = false
            }
            if !applied {
                report("webvtt.region.setting.invalid", "ignored region setting '\(setting.string)'", setting.startIndex)
            }
        }
        return region
    }

    private func parseAnchor(_ value: ByteSlice) -> (Double, Double)? {
        guard let comma = value.firstIndex(of: UInt8(ascii: ",")),
            let x = WebVTTSyntax.parsePercentage(value[..<comma]),
            let y = WebVTTSyntax.parsePercentage(value[(comma + 1)...])
        else { return nil }
        return (x, y)
    }
}

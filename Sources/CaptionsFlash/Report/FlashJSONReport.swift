import CaptionsCore

/// The machine report: verdict, hazards, per-second series and per-frame measures.
enum FlashJSONReport {
    static func render(_ report: FlashReport, source: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("source"); json.string(source)
        json.key("verdict"); json.string(report.verdict.rawValue)
        json.key("partial"); json.bool(report.partial)
        json.key("partialReason"); json.string(report.partialReason)
        json.key("standard"); json.string(report.criteria.standard.rawValue)
        json.key("redRule"); json.string(report.criteria.redRule.rawValue)
        json.key("colour"); json.string(report.colour)
        json.key("luminanceRule"); json.string(report.luminanceRule)
        json.key("luminanceUnit"); json.string(report.luminanceUnit)
        json.key("streamStart"); json.number(report.streamStart.map(rounded))
        json.key("notes"); json.strings(report.notes)
        json.key("missing"); json.beginArray()
        for gap in report.missing {
            json.beginObject()
            json.key("start"); json.number(rounded(gap.start))
            json.key("end"); json.number(rounded(gap.end))
            json.endObject()
        }
        json.endArray()
        json.key("video"); json.beginObject()
        json.key("width"); json.number(Double(report.width))
        json.key("height"); json.number(Double(report.height))
        json.key("frames"); json.number(Double(report.frameCount))
        json.key("pictures"); json.string(report.pictures)
        json.key("duration"); json.number(rounded(report.duration))
        json.endObject()
        json.key("hazards"); json.beginArray()
        for hazard in report.hazards {
            json.beginObject()
            json.key("kind"); json.string(hazard.kind.rawValue)
            json.key("start"); json.number(rounded(hazard.start))
            json.key("end"); json.number(rounded(hazard.end))
            json.key("flashesPerSecond"); json.number(rounded(hazard.peakFlashesPerSecond))
            json.key("area"); json.number(rounded(hazard.peakAreaShare))
            json.key("screenArea"); json.number(rounded(hazard.peakScreenShare))
            json.endObject()
        }
        json.endArray()
        json.key("warnings"); json.beginArray()
        for warning in report.warnings {
            json.beginObject()
            json.key("code"); json.string(warning.code)
            json.key("message"); json.string(warning.message)
            json.key("start"); json.number(rounded(warning.start))
            json.key("end"); json.number(rounded(warning.end))
            json.endObject()
        }
        json.endArray()
        json.key("seconds"); json.beginArray()
        for second in report.seconds {
            json.beginObject()
            json.key("second"); json.number(Double(second.second))
            json.key("flashesPerSecond"); json.number(rounded(second.flashesPerSecond))
            json.key("area"); json.number(rounded(second.areaShare))
            json.key("fails"); json.bool(second.fails)
            json.endObject()
        }
        json.endArray()
        json.key("frames"); json.beginArray()
        for frame in report.frames {
            json.beginObject()
            json.key("time"); json.number(rounded(frame.time))
            json.key("luminance"); json.number(rounded(frame.meanLuminance))
            json.key("flashesPerSecond"); json.number(rounded(frame.flashesPerSecond))
            json.key("area"); json.number(rounded(max(frame.generalAreaShare, frame.redAreaShare)))
            json.key("intensity"); json.number(rounded(frame.intensity))
            json.key("mitigation"); json.number(rounded(frame.mitigation))
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.output + "\n"
    }

    /// Three decimals: enough for milliseconds and shares.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// One row per frame, for spreadsheets.
enum FlashCSVReport {
    static func render(_ report: FlashReport) -> String {
        var lines = [
            "time,mean_luminance,flashes_per_second,general_area,red_area,general_screen,red_screen,intensity,mitigation,fails"
        ]
        lines.reserveCapacity(report.frames.count + 1)
        let r = FlashJSONReport.rounded
        for frame in report.frames {
            lines.append([
                r(frame.time), r(frame.meanLuminance), r(frame.flashesPerSecond), r(frame.generalAreaShare),
                r(frame.redAreaShare), r(frame.generalScreenShare), r(frame.redScreenShare), r(frame.intensity),
                r(frame.mitigation),
            ].map(NumberFormatting.shortest).joined(separator: ",") + (frame.fails ? ",1" : ",0"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A WebVTT metadata track: one cue per hazard, its payload JSON, for players that dim or warn.
enum FlashWebVTTReport {
    static func render(_ report: FlashReport) -> String {
        var text = "WEBVTT\nKind: metadata\n\nNOTE flash hazards (\(report.criteriaName)); payload: JSON per cue\n"
        for (index, hazard) in report.hazards.enumerated() {
            let mitigation = report.frames
                .filter { $0.time >= hazard.start && $0.time <= hazard.end }
                .map(\.mitigation).max() ?? 0
            var json = JSONWriter()
            json.beginObject()
            json.key("kind"); json.string(hazard.kind.rawValue)
            json.key("flashesPerSecond"); json.number(FlashJSONReport.rounded(hazard.peakFlashesPerSecond))
            json.key("area"); json.number(FlashJSONReport.rounded(hazard.peakAreaShare))
            json.key("mitigation"); json.number(FlashJSONReport.rounded(mitigation))
            json.endObject()
            let payload = json.output.split(separator: "\n").map { $0.trimmingASCIIWhitespace() }.joined(separator: " ")
            text += "\nhazard-\(index + 1)\n\(clock(hazard.start)) --> \(clock(max(hazard.end, hazard.start + 0.001)))\n\(payload)\n"
        }
        return text
    }
}

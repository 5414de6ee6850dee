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
        json.key("colourGuessed"); json.bool(report.colourGuessed)
        json.key("luminanceRule"); json.string(report.luminanceRule)
        json.key("luminanceUnit"); json.string(report.luminanceUnit)
        json.key("streamStart"); json.number(report.streamStart.map { rounded($0) })
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
            json.key("moves"); json.bool(hazard.moves)
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
        json.key("dimFlashingLights"); json.beginObject()
        json.key("model"); json.string("Apple Dim Flashing Lights (apple/VideoFlashingReduction)")
        json.key("displayPeak"); json.number(report.display.peak)
        json.key("displayArea"); json.number(report.display.area)
        json.key("frameRate"); json.number(Double(report.dflFrameRate))
        json.key("spans"); json.beginArray()
        for span in report.dflSpans {
            json.beginObject()
            json.key("start"); json.number(rounded(span.start))
            json.key("end"); json.number(rounded(span.end))
            json.key("peakRisk"); json.number(rounded(span.peakRisk))
            json.key("peakMitigation"); json.number(rounded(span.peakMitigation, places: 4))
            json.endObject()
        }
        json.endArray()
        json.endObject()
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
            json.key("apl"); json.number(rounded(frame.averagePictureLevel, places: 5))
            json.key("dfl_risk"); json.number(rounded(frame.dflRisk))
            json.key("dfl_mitigation"); json.number(rounded(frame.dflMitigation, places: 4))
            json.key("dfl_local_risk"); json.number(rounded(frame.dflLocalRisk))
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.output + "\n"
    }

    /// Three decimals (enough for milliseconds and shares), or `places`.
    static func rounded(_ value: Double, places: Int = 3) -> Double {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        return (value * scale).rounded() / scale
    }
}

/// One row per frame, for spreadsheets.
enum FlashCSVReport {
    static func render(_ report: FlashReport) -> String {
        var lines = [
            "time,mean_luminance,flashes_per_second,general_area,red_area,general_screen,red_screen,apl,dfl_risk,"
                + "dfl_mitigation,dfl_local_risk,fails"
        ]
        lines.reserveCapacity(report.frames.count + 1)
        let r = { FlashJSONReport.rounded($0) }
        for frame in report.frames {
            lines.append([
                r(frame.time), r(frame.meanLuminance), r(frame.flashesPerSecond), r(frame.generalAreaShare),
                r(frame.redAreaShare), r(frame.generalScreenShare), r(frame.redScreenShare),
                FlashJSONReport.rounded(frame.averagePictureLevel, places: 5), r(frame.dflRisk),
                FlashJSONReport.rounded(frame.dflMitigation, places: 4), r(frame.dflLocalRisk),
            ].map(NumberFormatting.shortest).joined(separator: ",") + (frame.fails ? ",1" : ",0"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A WebVTT metadata track for players: one cue per hazard (`"type": "hazard"`), and cues at
/// frame accuracy carrying Apple's Dim Flashing Lights mitigation wherever it is above zero
/// (`"type": "dfl"`; consecutive frames with the same mitigation to two decimals share a cue).
enum FlashWebVTTReport {
    static func render(_ report: FlashReport) -> String {
        var cues: [(start: Double, end: Double, id: String, payload: String)] = []
        for (index, hazard) in report.hazards.enumerated() {
            var json = JSONWriter()
            json.beginObject()
            json.key("type"); json.string("hazard")
            json.key("kind"); json.string(hazard.kind.rawValue)
            json.key("flashesPerSecond"); json.number(FlashJSONReport.rounded(hazard.peakFlashesPerSecond))
            json.key("area"); json.number(FlashJSONReport.rounded(hazard.peakAreaShare))
            json.endObject()
            cues.append((hazard.start, max(hazard.end, hazard.start + 0.001), "hazard-\(index + 1)", oneLine(json.output)))
        }
        var number = 0
        for run in mitigationRuns(report) {
            number += 1
            var json = JSONWriter()
            json.beginObject()
            json.key("type"); json.string("dfl")
            json.key("dfl_mitigation"); json.number(run.mitigation)
            json.key("dfl_risk"); json.number(FlashJSONReport.rounded(run.peakRisk, places: 1))
            json.endObject()
            cues.append((run.start, run.end, "dfl-\(number)", oneLine(json.output)))
        }
        cues.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var text = "WEBVTT\nKind: metadata\n\nNOTE flash hazards (\(report.criteriaName)) and Apple's Dim Flashing Lights "
            + "mitigation (display \(NumberFormatting.shortest(report.display.peak)) cd/m², "
            + "\(NumberFormatting.shortest(report.display.area)) deg²); payload: JSON per cue\n"
        for cue in cues {
            text += "\n\(cue.id)\n\(clock(cue.start)) --> \(clock(cue.end))\n\(cue.payload)\n"
        }
        return text
    }

    private static func oneLine(_ json: String) -> String {
        json.split(separator: "\n").map { $0.trimmingASCIIWhitespace() }.joined(separator: " ")
    }

    /// Runs of frames with the same mitigation (two decimals) above zero: each from its first
    /// frame's time to the next frame's (on the millisecond clock of WebVTT, so cues abut).
    static func mitigationRuns(_ report: FlashReport) -> [(start: Double, end: Double, mitigation: Double, peakRisk: Double)] {
        var runs: [(start: Double, end: Double, mitigation: Double, peakRisk: Double)] = []
        let frames = report.frames
        for (index, frame) in frames.enumerated() {
            let mitigation = (frame.dflMitigation * 100).rounded() / 100
            guard mitigation > 0 else { continue }
            let end = index + 1 < frames.count ? frames[index + 1].time : frame.time + report.frameDuration
            if let last = runs.last, last.mitigation == mitigation, abs(last.end - frame.time) < 1e-6 {
                runs[runs.count - 1].end = end
                runs[runs.count - 1].peakRisk = max(last.peakRisk, frame.dflRisk)
            } else {
                runs.append((frame.time, end, mitigation, frame.dflRisk))
            }
        }
        return runs
    }
}

import CaptionsCore

/// One EBU STL subtitle: its TTI block's timing and placement, and its text (over extension blocks).
struct STLSubtitle {
    var start: MediaTime
    var end: MediaTime
    /// CS: 0 not cumulative, 1 first of a set, 2 in the middle, 3 last.
    var cumulative: UInt8
    /// VP: the row of the first line (teletext 1–23; open subtitles 0–MNR).
    var verticalPosition: Int
    /// JC: 0 as given, 1 left, 2 centre, 3 right.
    var justification: UInt8
    var rows: [[StyledCharacter]]
    var doubleHeight: Bool
    var location: SourceLocation

    init(
        block: ArraySlice<UInt8>, field: [UInt8], timecode: SMPTETimecode, table: EBUSTLCharacters, location: SourceLocation,
        tally: inout DiagnosticTally
    ) {
        let base = block.startIndex
        func time(_ offset: Int) -> MediaTime {
            let (hours, minutes, seconds, frames) = (block[base + offset], block[base + offset + 1], block[base + offset + 2], block[base + offset + 3])
            if minutes > 59 || seconds > 59 || Int(frames) >= timecode.framesPerSecondLabel {
                tally.add(.warning, "stl.timecode.range", "a time code field past its range, counted on", at: location)
            }
            return timecode.time(
                frame: timecode.frame(
                    hours: Int64(hours), minutes: Int64(minutes), seconds: Int64(seconds), frames: Int64(frames),
                    dropFrame: timecode.canDropFrames))
        }
        start = time(5)
        end = time(9)
        if end < start {
            tally.add(.warning, "stl.timecode.order", "a subtitle that ends before it starts (TCO before TCI); shown for no time", at: location)
            end = start
        }
        cumulative = block[base + 4]
        verticalPosition = Int(block[base + 13])
        justification = block[base + 14]
        (rows, doubleHeight) = STLTextField.rows(field, table: table)
        self.location = location
    }

    /// The subtitles as cues. In a cumulative set each subtitle adds its rows to those already
    /// shown: its cue shows them all, until the next one of the set appears.
    static func cues(_ subtitles: [STLSubtitle], gsi: STLGSI) -> [Cue] {
        var cues: [Cue] = []
        var shownRows: [[StyledCharacter]] = []
        for (index, subtitle) in subtitles.enumerated() {
            let inSet = subtitle.cumulative >= 1 && subtitle.cumulative <= 3
            var rows = subtitle.rows
            var end = subtitle.end
            if inSet {
                if subtitle.cumulative == 1 { shownRows = [] }
                shownRows += subtitle.rows
                rows = shownRows
                if subtitle.cumulative != 3, index + 1 < subtitles.count, (2...3).contains(subtitles[index + 1].cumulative) {
                    end = min(end, max(subtitles[index + 1].start, subtitle.start))
                }
            }
            guard !rows.isEmpty else { continue }
            let first = inSet ? subtitles[...index].last { $0.cumulative == 1 } ?? subtitle : subtitle
            cues.append(Cue(
                start: subtitle.start, end: end, settings: first.placement(rows: rows.count, gsi: gsi),
                content: CharacterGrid.content(of: rows), location: subtitle.location))
        }
        return cues
    }

    /// Where the subtitle goes: VP picks the line of the first row on the screen's rows (23
    /// teletext rows, or MNR for open subtitles), in the middle 80 % of the picture; JC the alignment.
    func placement(rows: Int, gsi: STLGSI) -> CueSettings {
        var settings = CueSettings()
        let screenRows = gsi.isTeletext ? 23 : (gsi.maximumRows.map { min($0, 99) } ?? 23)
        let row = gsi.isTeletext ? max(verticalPosition - 1, 0) : verticalPosition
        if verticalPosition > 0 {
            settings.snapToLines = false
            // Open subtitles' rows run from 0 to MNR: the last is the foot of the area (VP 23 and
            // 22 used to read as one row, and a file written again moved up a row).
            let lastRow = gsi.isTeletext ? screenRows - 1 : screenRows
            settings.line = .value(((10 + Double(min(row, lastRow)) * 80 / Double(screenRows)) * 1000).rounded() / 1000)
        }
        switch justification {
        case 1: settings.align = .left
        case 3: settings.align = .right
        default: break
        }
        return settings
    }
}

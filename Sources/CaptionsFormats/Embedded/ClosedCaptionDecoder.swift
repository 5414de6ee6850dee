import CaptionsCore

/// Turns the closed-caption data of a video's pictures (ATSC A/53 `cc_data`) into a document:
/// the CEA-608 pairs of the channel asked for go through the decoder SCC files are read with
/// (``CEA608Decoder``), each at the time of the picture that carries it.
///
/// Channels 1 and 2 ride on field 1 (`cc_type` 0), 3 and 4 on field 2 (`cc_type` 1); pairs not
/// marked valid are padding. CEA-708 (DTVCC) data beside them is counted and named in a note,
/// not decoded. A diagnostic's line is the number of the picture (from 1, among those carrying
/// caption data) and its column the triplet's, since a video has no lines of text.
public enum ClosedCaptionDecoder {
    /// The document for channel `channel` (1–4) of `pictures`, in display order; `end` is when the
    /// video stops (a caption still on screen lasts until then). `diagnostics` are what the media
    /// reader found about the video itself (damage, with its time range); they come first.
    public static func document(
        from pictures: [ClosedCaptionData], end: MediaTime, channel: Int = 1, diagnostics: [Diagnostic] = []
    ) -> TimedTextDocument {
        let times = pictures.map(\.time)
        let field = channel <= 2 ? 1 : 2
        var decoder = CEA608Decoder(channel: channel, field: field) { count in
            count < times.count ? times[Int(count)] : max(end, times.last ?? .zero)
        }
        // Which channels carry anything but padding, to point at them when this one is empty.
        var fieldsWithData: Set<Int> = []
        var dtvccPackets = 0
        for (number, picture) in pictures.enumerated() {
            let triplets = picture.triplets
            var offset = 0
            while offset + 2 < triplets.count {
                defer { offset += 3 }
                let marker = triplets[offset]
                guard marker & 0x04 != 0 else { continue }  // cc_valid clear: padding
                let type = Int(marker & 0x03)
                if type >= 2 {
                    if type == 3 { dtvccPackets += 1 }
                    continue
                }
                let (first, second) = (triplets[offset + 1], triplets[offset + 2])
                if first & 0x7F != 0 || second & 0x7F != 0 { fieldsWithData.insert(type + 1) }
                guard type + 1 == field else { continue }
                decoder.decode(
                    first, second, at: Int64(number),
                    location: SourceLocation(line: number + 1, column: offset / 3 + 1))
            }
        }
        var document = TimedTextDocument(sourceFormat: "cea608")
        document.cues = decoder.finish(at: Int64(times.count)).sorted { $0.start < $1.start }
        document.diagnostics = diagnostics + decoder.tally.diagnostics
        if dtvccPackets > 0 {
            document.diagnostics.append(Diagnostic(
                .note, "cea708.notDecoded",
                "the video also carries CEA-708 (DTVCC) captions, \(dtvccPackets) packet(s); its CEA-608 channel CC\(channel) was read",
                at: .start))
        }
        if document.cues.isEmpty {
            let others = fieldsWithData.subtracting([field]).map { $0 == 1 ? "CC1/CC2" : "CC3/CC4" }
            let hint = others.isEmpty ? "" : " (field \(field == 1 ? 2 : 1) carries data: try --channel \(field == 1 ? 3 : 1), i.e. \(others[0]))"
            let what = pictures.isEmpty ? "the video carries no closed captions" : "no caption is shown on channel CC\(channel)\(hint)"
            document.diagnostics.append(Diagnostic(.warning, "cea608.captions.none", what, at: .start))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }
}

import CaptionsCore

/// Turns the closed-caption data of a video's pictures (ATSC A/53 `cc_data`) into a document:
/// the CEA-608 pairs of the channel asked for go through the decoder SCC files are read with
/// (``CEA608Decoder``), each at the time of the picture that carries it.
///
/// Channels 1 and 2 ride on field 1 (`cc_type` 0), 3 and 4 on field 2 (`cc_type` 1); pairs not
/// marked valid are padding. CEA-708 (DTVCC) data beside them (`cc_type` 2 and 3) is read as
/// caption services (``CEA708Decoder``): `service` picks one; without it, CEA-608 is read, and
/// service 1 when the 608 channel shows nothing. A diagnostic's line is the number of the picture (from 1, among those carrying
/// caption data) and its column the triplet's, since a video has no lines of text.
public enum ClosedCaptionDecoder {
    /// The document for CEA-608 channel `channel` (1–4) of `pictures`, or CEA-708 service
    /// `service` (1–63), in display order; `end` is when the video stops (a caption still on
    /// screen lasts until then). `diagnostics` are what the media reader found about the video
    /// itself (damage, with its time range); they come first.
    public static func document(
        from pictures: [ClosedCaptionData], end: MediaTime, channel: Int = 1, service: Int? = nil,
        diagnostics: [Diagnostic] = []
    ) -> TimedTextDocument {
        let services = dtvccServices(in: pictures, end: end)
        if let service {
            return serviceDocument(services, service: service, pictures: pictures, end: end, diagnostics: diagnostics)
        }
        var document = cea608Document(from: pictures, end: end, channel: channel, diagnostics: diagnostics)
        let available = services.blocks.keys.sorted()
        if document.cues.isEmpty, !available.isEmpty {
            // Nothing on the 608 channel: the first 708 service, which is what a 708 set shows.
            var fallback = serviceDocument(services, service: available[0], pictures: pictures, end: end, diagnostics: diagnostics)
            if !fallback.cues.isEmpty {
                fallback.diagnostics.append(Diagnostic(
                    .note, "cea708.service.chosen",
                    "CEA-608 channel CC\(channel) shows nothing; CEA-708 service \(available[0]) was read (--service N for another, --channel N for 608)",
                    at: .start))
                return fallback
            }
        }
        if !available.isEmpty {
            document.diagnostics.append(Diagnostic(
                .note, "cea708.available",
                "the video also carries CEA-708 captions (service\(available.count == 1 ? "" : "s") \(available.map(String.init).joined(separator: ", "))); its CEA-608 channel CC\(channel) was read (--service N reads a 708 service)",
                at: .start))
        }
        return document
    }

    /// Every DTVCC service block of `pictures`, by service, with the picture that carried it.
    private static func dtvccServices(in pictures: [ClosedCaptionData], end: MediaTime) -> (
        blocks: [Int: [DTVCCPacketAssembler.Block]], short: Int, skipped: Int
    ) {
        var assembler = DTVCCPacketAssembler()
        var blocks: [Int: [DTVCCPacketAssembler.Block]] = [:]
        // A service's blocks in one packet are one run of its data (a command may straddle two).
        func append(_ block: DTVCCPacketAssembler.Block) {
            if let last = blocks[block.service]?.last, last.picture == block.picture, last.triplet == block.triplet {
                blocks[block.service]![blocks[block.service]!.count - 1].bytes += block.bytes
            } else {
                blocks[block.service, default: []].append(block)
            }
        }
        forEachValidTriplet(in: pictures) { number, index, type, first, second in
            guard type >= 2 else { return }
            for block in assembler.feed(type: type, first, second, picture: number, triplet: index) { append(block) }
        }
        for block in assembler.finish() { append(block) }
        return (blocks, assembler.shortPackets, assembler.skippedSequences)
    }

    /// The document of one CEA-708 service.
    private static func serviceDocument(
        _ services: (blocks: [Int: [DTVCCPacketAssembler.Block]], short: Int, skipped: Int), service: Int,
        pictures: [ClosedCaptionData], end: MediaTime, diagnostics: [Diagnostic]
    ) -> TimedTextDocument {
        let times = pictures.map(\.time)
        var decoder = CEA708Decoder(service: service) { count in
            count < times.count ? times[Int(count)] : max(end, times.last ?? .zero)
        }
        for block in services.blocks[service] ?? [] {
            decoder.decode(
                block.bytes, picture: Int64(block.picture),
                location: SourceLocation(line: block.picture + 1, column: block.triplet + 1))
        }
        var document = TimedTextDocument(sourceFormat: "cea708")
        document.cues = decoder.finish(at: Int64(times.count)).sorted { $0.start < $1.start }
        document.diagnostics = diagnostics + decoder.tally.diagnostics
        if services.short > 0 || services.skipped > 0 {
            document.diagnostics.append(Diagnostic(
                .warning, "cea708.packets.damaged",
                "\(services.short) CEA-708 packet(s) cut short and \(services.skipped) gap(s) in their sequence numbers: captions may be missing there",
                at: .start))
        }
        if document.cues.isEmpty {
            let available = services.blocks.keys.sorted()
            let what = available.isEmpty
                ? "the video carries no CEA-708 captions"
                : "CEA-708 service \(service) shows nothing (services with data: \(available.map(String.init).joined(separator: ", ")))"
            document.diagnostics.append(Diagnostic(.warning, "cea708.captions.none", what, at: .start))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// The document of one CEA-608 channel.
    private static func cea608Document(
        from pictures: [ClosedCaptionData], end: MediaTime, channel: Int, diagnostics: [Diagnostic]
    ) -> TimedTextDocument {
        let times = pictures.map(\.time)
        let field = channel <= 2 ? 1 : 2
        var decoder = CEA608Decoder(channel: channel, field: field) { count in
            count < times.count ? times[Int(count)] : max(end, times.last ?? .zero)
        }
        // Which channels carry anything but padding, to point at them when this one is empty.
        var fieldsWithData: Set<Int> = []
        forEachValidTriplet(in: pictures) { number, index, type, first, second in
            guard type < 2 else { return }  // CEA-708, read apart
            if first & 0x7F != 0 || second & 0x7F != 0 { fieldsWithData.insert(type + 1) }
            guard type + 1 == field else { return }
            decoder.decode(first, second, at: Int64(number), location: SourceLocation(line: number + 1, column: index + 1))
        }
        var document = TimedTextDocument(sourceFormat: "cea608")
        document.cues = decoder.finish(at: Int64(times.count)).sorted { $0.start < $1.start }
        document.diagnostics = diagnostics + decoder.tally.diagnostics
        if document.cues.isEmpty {
            let others = fieldsWithData.subtracting([field]).map { $0 == 1 ? "CC1/CC2" : "CC3/CC4" }
            let hint = others.isEmpty ? "" : " (field \(field == 1 ? 2 : 1) carries data: try --channel \(field == 1 ? 3 : 1), i.e. \(others[0]))"
            let what = pictures.isEmpty ? "the video carries no closed captions" : "no caption is shown on channel CC\(channel)\(hint)"
            document.diagnostics.append(Diagnostic(.warning, "cea608.captions.none", what, at: .start))
        }
        if let outOfRange = TimeLimits.outOfRange(in: document.cues) { document.diagnostics.append(outOfRange) }
        return document
    }

    /// Calls `body` with each triplet whose `cc_valid` bit is set (the rest are padding): the
    /// picture's number, the triplet's index in it, its `cc_type` and its two bytes.
    private static func forEachValidTriplet(
        in pictures: [ClosedCaptionData], _ body: (_ picture: Int, _ index: Int, _ type: Int, UInt8, UInt8) -> Void
    ) {
        for (number, picture) in pictures.enumerated() {
            let triplets = picture.triplets
            for offset in stride(from: 0, to: triplets.count - 2, by: 3) where triplets[offset] & 0x04 != 0 {
                body(number, offset / 3, Int(triplets[offset] & 0x03), triplets[offset + 1], triplets[offset + 2])
            }
        }
    }
}

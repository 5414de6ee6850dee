import CaptionsCore
@testable import CaptionsFormats
import Testing

/// CEA-708 (DTVCC) caption services carried in video: packets, windows, cues.
@Suite struct CEA708Tests {
    /// Builds `cc_data` as an encoder does: service blocks in DTVCC packets, sent as triplets
    /// (`cc_type` 3 to start a packet, 2 to go on), `perPicture` a picture, padding after.
    struct Encoder {
        var pictures: [[UInt8]] = []
        var sequence = 0
        var perPicture = 10

        /// Sends `bytes` of `service` in one packet, starting at picture `at` (pictures are added up to it).
        mutating func send(_ bytes: [UInt8], service: Int = 1, at picture: Int) {
            // Blocks of at most 31 bytes (5 bits of size), cut wherever 31 falls.
            var packet = [UInt8(0)]
            for start in stride(from: 0, to: bytes.count, by: 31) {
                let chunk = bytes[start..<min(bytes.count, start + 31)]
                packet += service < 7 ? [UInt8(service << 5 | chunk.count)] : [UInt8(7 << 5 | chunk.count), UInt8(service)]
                packet += chunk
            }
            if packet.count % 2 == 1 { packet.append(0) }  // a null block header pads to whole pairs
            packet[0] = UInt8(sequence << 6 | (packet.count / 2) & 0x3F)
            sequence = (sequence + 1) & 3
            var triplets: [UInt8] = []
            for pair in stride(from: 0, to: packet.count, by: 2) {
                triplets += [pair == 0 ? 0xFF : 0xFE, packet[pair], packet[pair + 1]]
            }
            var index = picture
            while !triplets.isEmpty {
                while pictures.count <= index { pictures.append([]) }
                let room = perPicture - pictures[index].count / 3
                let taken = min(room, triplets.count / 3)
                pictures[index] += triplets.prefix(taken * 3)
                triplets.removeFirst(taken * 3)
                index += 1
            }
        }

        /// The pictures at 29.97 a second, `count` of them at least.
        func data(count: Int) -> [ClosedCaptionData] {
            (0..<max(count, pictures.count)).map { number in
                ClosedCaptionData(
                    time: MediaTime(value: Int64(number) * 1001, timescale: 30000)!,
                    triplets: number < pictures.count ? pictures[number] : [])
            }
        }
    }

    /// DefineWindow `id`: anchored bottom centre at 90 % down, 50 % across (relative), `rows` rows of 32.
    static func define(_ id: UInt8, visible: Bool, rows: Int = 2) -> [UInt8] {
        [0x98 | id, visible ? 0x20 : 0x00, 0x80 | 90, 50, 0x70 | UInt8(rows - 1), 31, 0x00]
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    func document(_ encoder: Encoder, count: Int = 200, service: Int? = nil) -> TimedTextDocument {
        let pictures = encoder.data(count: count)
        return ClosedCaptionDecoder.document(
            from: pictures, end: MediaTime(value: Int64(pictures.count) * 1001, timescale: 30000)!, service: service)
    }

    func milliseconds(_ time: MediaTime?) -> Int64 { time?.rounded(toTimescale: 1000) ?? -1 }

    @Test func popOnWindowsBecomeCuesWhileShown() throws {
        var encoder = Encoder()
        // Window 0 written hidden, then shown at picture 30 and hidden at 90; window 1 replaces it.
        encoder.send(Self.define(0, visible: false) + Self.text("Hello, world.") + [0x0D] + Self.text("Second line"), at: 0)
        encoder.send([0x89, 0x01], at: 30)  // DisplayWindows 0
        encoder.send(Self.define(1, visible: false) + Self.text("Next."), at: 60)
        encoder.send([0x8B, 0x03], at: 90)  // ToggleWindows 0 and 1
        encoder.send([0x8C, 0x02], at: 150)  // DeleteWindows 1
        let document = document(encoder)
        #expect(document.sourceFormat == "cea708")
        #expect(document.cues.map(\.plainText) == ["Hello, world.\nSecond line", "Next."])
        #expect(document.cues.map { milliseconds($0.start) } == [1001, 3003])
        #expect(document.cues.map { milliseconds($0.end) } == [3003, 5005])
        let settings = document.cues[0].settings
        #expect(settings.line == .value(82) && settings.lineAlign == .end)
        #expect(settings.position == 50 && settings.positionAlign == .center)
        // No 608 data: service 1 was chosen, and said so.
        #expect(document.diagnostics.contains { $0.code == "cea708.service.chosen" })
    }

    @Test func rollUpScrollsInsideItsWindow() throws {
        var encoder = Encoder()
        encoder.send(Self.define(0, visible: true) + Self.text("One"), at: 0)
        encoder.send([0x0D] + Self.text("Two"), at: 30)
        encoder.send([0x0D] + Self.text("Three"), at: 60)
        encoder.send([0x88, 0x01], at: 90)  // ClearWindows 0
        let cues = document(encoder).cues
        #expect(cues.map(\.plainText) == ["One", "One\nTwo", "Two\nThree"])
        #expect(cues.map { milliseconds($0.end) } == [1001, 2002, 3003])
    }

    @Test func textTypedAFewCharactersAPictureIsOneCue() throws {
        var encoder = Encoder()
        encoder.send(Self.define(0, visible: true), at: 0)
        for (offset, piece) in ["He", "ll", "o ", "th", "er", "e."].enumerated() { encoder.send(Self.text(piece), at: 10 + offset) }
        encoder.send([0x0D] + Self.text("Bye."), at: 40)
        encoder.send([0x8A, 0x01], at: 60)
        let cues = document(encoder).cues
        #expect(cues.map(\.plainText) == ["Hello there.", "Hello there.\nBye."])
        #expect(cues.map { milliseconds($0.start) } == [334, 1335])
        #expect(cues.map { milliseconds($0.end) } == [1335, 2002])
    }

    @Test func charactersAndPenStyles() throws {
        var encoder = Encoder()
        var bytes = Self.define(0, visible: false)
        bytes += [0x90, 0x00, 0x80] + Self.text("Caf") + [0xE9]  // SetPenAttributes italics; G1 é
        bytes += [0x90, 0x00, 0x00, 0x20, 0x10, 0x31] + Self.text("ok") + [0x10, 0x32, 0x20, 0x7F]  // G2 ‘ ’, G0 ♪
        bytes += [0x91, 0x30, 0x00, 0x00]  // SetPenColor red
        bytes += Self.text("!")
        encoder.send(bytes, at: 0)
        encoder.send([0x89, 0x01], at: 10)
        encoder.send([0x8A, 0x01], at: 70)
        let cue = try #require(document(encoder).cues.first)
        #expect(cue.plainText == "Café ‘ok’ ♪!")
        #expect(cue.content.contains { node in
            if case .span(let span) = node { return span.kind == .italic && InlineNode.span(span).plainText == "Café" }
            return false
        })
    }

    @Test func servicesAreReadApartAndNamed() throws {
        var encoder = Encoder()
        encoder.send(Self.define(0, visible: true) + Self.text("English"), service: 1, at: 0)
        encoder.send(Self.define(0, visible: true) + Self.text("Espa") + [0xF1] + Self.text("ol"), service: 2, at: 0)  // G1 is Latin-1
        encoder.send(Self.define(0, visible: true) + Self.text("Extended"), service: 9, at: 5)
        #expect(document(encoder, service: 2).cues.map(\.plainText) == ["Espa\u{F1}ol"])
        #expect(document(encoder, service: 9).cues.map(\.plainText) == ["Extended"])
        let missing = document(encoder, service: 3)
        #expect(missing.cues.isEmpty)
        #expect(missing.diagnostics.contains { $0.code == "cea708.captions.none" && $0.message.contains("services with data: 1, 2, 9") })
    }

    @Test func sixOhEightComesFirstAndNamesTheServices() throws {
        var encoder = Encoder()
        encoder.send(Self.define(0, visible: true) + Self.text("From 708"), at: 0)
        var pictures = encoder.data(count: 120)
        // CC1 pop-on "HI" shown at picture 40 (RCL, ENM, PAC row 15, text, EOC), with parity.
        let pairs: [(UInt8, UInt8)] = [(0x94, 0x20), (0x94, 0xAE), (0x94, 0xD0), (0xC8, 0x49), (0x94, 0x2F)]
        for (offset, pair) in pairs.enumerated() { pictures[36 + offset].triplets += [0xFC, pair.0, pair.1] }
        let document = ClosedCaptionDecoder.document(from: pictures, end: MediaTime(value: 120 * 1001, timescale: 30000)!)
        #expect(document.cues.map(\.plainText) == ["HI"])
        #expect(document.diagnostics.contains { $0.code == "cea708.available" && $0.message.contains("service 1") })
    }

    @Test func damagedPacketsAreReportedNotFatal() throws {
        var encoder = Encoder()
        encoder.send(Self.define(0, visible: true) + Self.text("Kept"), at: 0)
        // A packet whose header promises more than is sent, then a command cut short.
        encoder.send([0x98, 0x20], at: 40)
        encoder.pictures[20] = [0xFF, 0x0F, 0x21, 0xFE, 0x92, 0x00]
        let document = document(encoder)
        #expect(document.cues.map(\.plainText) == ["Kept"])
        #expect(document.diagnostics.contains { $0.code == "cea708.packets.damaged" })
        #expect(document.diagnostics.contains { $0.code == "cea708.command.truncated" })
    }

    @Test func anyBytesDecodeWithoutCrashing() {
        var generator = SplitMix(seed: 708)
        for _ in 0..<300 {
            let pictures = (0..<40).map { number in
                ClosedCaptionData(
                    time: MediaTime(value: Int64(number) * 1001, timescale: 30000)!,
                    triplets: (0..<30).map { index in
                        let random = generator.next()
                        return index % 3 == 0 ? [0xFE, 0xFF, 0xFA, 0xFB][Int(random & 3)] : UInt8(truncatingIfNeeded: random)
                    })
            }
            let end = MediaTime(value: 40 * 1001, timescale: 30000)!
            for service in [1, 2] {
                let document = ClosedCaptionDecoder.document(from: pictures, end: end, service: service)
                #expect(document.cues.allSatisfy { ($0.end ?? end) > $0.start })
            }
        }
    }
}

import CaptionsCore

/// CEA-708 (DTVCC) transport: `cc_data` triplets of `cc_type` 3 (a packet starts) and 2 (it goes
/// on) joined into packets, and each packet cut into service blocks (CEA-708-E §5–6).
///
/// A packet's first byte gives its sequence number (2 bits) and size (6 bits: 2 × n bytes with the
/// header, 128 for 0). A service block's header gives its service (3 bits; 7 means an extended
/// service number in the next byte) and its size (5 bits); service 0 is padding to the end.
struct DTVCCPacketAssembler {
    /// One service's bytes from one packet, and where the packet started.
    struct Block: Equatable {
        var service: Int
        var bytes: [UInt8]
        /// The picture (counted from 0 among those with caption data) and triplet it started in.
        var picture: Int
        var triplet: Int
    }

    private var packet: [UInt8] = []
    private var expected = 0
    private var start = (picture: 0, triplet: 0)
    private var lastSequence: Int?
    /// Packets cut short by the next one, and sequence numbers that skip (packets lost).
    private(set) var shortPackets = 0
    private(set) var skippedSequences = 0

    /// Feeds one valid triplet of `cc_type` 2 or 3; returns the blocks of a packet it completes.
    mutating func feed(type: Int, _ first: UInt8, _ second: UInt8, picture: Int, triplet: Int) -> [Block] {
        var blocks: [Block] = []
        if type == 3 {
            if !packet.isEmpty {
                shortPackets += 1
                blocks = Self.blocks(of: packet, picture: start.picture, triplet: start.triplet)
            }
            let sequence = Int(first >> 6)
            if let last = lastSequence, sequence != (last + 1) & 3 { skippedSequences += 1 }
            lastSequence = sequence
            let code = Int(first & 0x3F)
            expected = code == 0 ? 128 : code * 2
            packet = [first, second]
            start = (picture, triplet)
        } else if !packet.isEmpty {
            packet += [first, second]
        } else {
            return []  // data with no start: the packet's beginning was lost
        }
        if packet.count >= expected {
            blocks += Self.blocks(of: Array(packet.prefix(expected)), picture: start.picture, triplet: start.triplet)
            packet = []
        }
        return blocks
    }

    /// What is left of a packet at the end of the data (cut short).
    mutating func finish() -> [Block] {
        guard !packet.isEmpty else { return [] }
        shortPackets += 1
        defer { packet = [] }
        return Self.blocks(of: packet, picture: start.picture, triplet: start.triplet)
    }

    /// The service blocks of a packet (its header byte first).
    static func blocks(of packet: [UInt8], picture: Int, triplet: Int) -> [Block] {
        var blocks: [Block] = []
        var offset = 1
        while offset < packet.count {
            let header = packet[offset]
            var service = Int(header >> 5)
            let size = Int(header & 0x1F)
            offset += 1
            if service == 0 || size == 0 { break }  // null block: padding to the end
            if service == 7 {
                guard offset < packet.count else { break }
                service = Int(packet[offset] & 0x3F)
                offset += 1
            }
            let end = min(packet.count, offset + size)
            blocks.append(Block(service: service, bytes: Array(packet[offset..<end]), picture: picture, triplet: triplet))
            offset = end
        }
        return blocks
    }
}

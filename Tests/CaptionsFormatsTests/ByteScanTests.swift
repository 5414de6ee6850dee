@testable import CaptionsFormats
import PropertyBased
import Testing

/// The word-at-a-time scans against one-byte-at-a-time answers, on text dense in the bytes they
/// look for (so that matches fall in every lane, at word edges and in the tail).
@Suite struct ByteScanTests {
    private static let alphabet: [UInt8] = Array("-><&{a\n\r".utf8) + [0x00, 0x80, 0xFF, 0x7F, 0xBE]

    private static func text(seed: Int) -> [UInt8] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<random.next(70)).map { _ in alphabet[random.next(alphabet.count)] }
    }

    @Test func findsTheFirstTargetFromAnyStart() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000)) { seed in
            let bytes = Self.text(seed: seed)
            let scan = ByteScan(UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"))
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = buffer[start...].firstIndex { "&<>".utf8.contains($0) }
                    #expect(scan.firstIndex(in: buffer, from: start) == expected, "\(bytes) from \(start)")
                }
                #expect(scan.occurs(in: buffer) == bytes.contains { "&<>".utf8.contains($0) })
            }
        }
    }

    @Test func findsCarriageReturnsWithoutLineFeeds() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000)) { seed in
            let bytes = Self.text(seed: seed)
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = (start..<buffer.count).contains { buffer[$0] == 0x0D && ($0 + 1 == buffer.count || buffer[$0 + 1] != 0x0A) }
                    #expect(ByteScan.hasLoneCarriageReturn(buffer, from: start) == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test func countsTwoBytesInOnePass() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000)) { seed in
            let bytes = Self.text(seed: seed)
            bytes.withUnsafeBufferPointer { buffer in
                let (lineFeeds, arrowHeads) = ByteScan.counts(of: 0x0A, UInt8(ascii: ">"), in: buffer)
                #expect(lineFeeds == bytes.count { $0 == 0x0A }, "\(bytes)")
                #expect(arrowHeads == bytes.count { $0 == UInt8(ascii: ">") }, "\(bytes)")
                let (nulls, high) = ByteScan.counts(of: 0x00, 0xFF, in: buffer)
                #expect(nulls == bytes.count { $0 == 0 } && high == bytes.count { $0 == 0xFF }, "\(bytes)")
            }
        }
    }
}

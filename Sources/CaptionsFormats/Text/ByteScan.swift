/// Finds the first of up to three byte values in UTF-8 text, and counts two byte values, eight
/// bytes at a time.
///
/// Readers and writers use it to skip runs of plain text at once: cue text rarely holds the
/// characters that need work (`<`, `&`, `{`), so the common case is one pass of word compares.
struct ByteScan {
    private let targets: (UInt8, UInt8, UInt8)
    private let patterns: (UInt64, UInt64, UInt64)

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    /// The high bit of every byte lane of a word: set in a word of ASCII text only where a byte is not.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A scan for `first`, `second` and `third`; repeat a value to look for fewer.
    init(_ first: UInt8, _ second: UInt8, _ third: UInt8) {
        targets = (first, second, third)
        patterns = (Self.ones &* UInt64(first), Self.ones &* UInt64(second), Self.ones &* UInt64(third))
    }

    /// The offset of the first target byte in `bytes[start...]`, or `nil`.
    func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if hasTarget(word) { break }
            index += 8
        }
        while index < bytes.count {
            if isTarget(bytes[index]) { return index }
            index += 1
        }
        return nil
    }

    /// Whether any byte of `bytes` is a target.
    func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstIndex(in: bytes) != nil
    }

    /// How many bytes of `bytes` equal `first`, and how many equal `second`, in one pass.
    static func counts(of first: UInt8, _ second: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        let patterns = (ones &* UInt64(first), ones &* UInt64(second))
        var counts = (0, 0)
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Each matching lane contributes 1 to the sum that one multiply gathers in the top byte.
            counts.0 += Int(((equalLanes(word, patterns.0) >> 7) &* ones) >> 56)
            counts.1 += Int(((equalLanes(word, patterns.1) >> 7) &* ones) >> 56)
            index += 8
        }
        for byte in bytes[index...] {
            if byte == first { counts.0 += 1 }
            if byte == second { counts.1 += 1 }
        }
        return counts
    }

    /// Whether `bytes[start...]` has a CR that is not followed by LF. Readers that cut a file into
    /// chunks count lines by LF, which is right only without such line breaks.
    static func hasLoneCarriageReturn(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Bool {
        let carriageReturn = ByteScan(0x0D, 0x0D, 0x0D)
        var search = start
        while let found = carriageReturn.firstIndex(in: bytes, from: search) {
            if found + 1 >= bytes.count || bytes[found + 1] != 0x0A { return true }
            search = found + 1
        }
        return false
    }

    /// The high bit of each byte lane of `word` that equals the same lane of `pattern`; exact,
    /// unlike ``zeroLanes(_:)``, which may flag lanes above a true match.
    private static func equalLanes(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let difference = word ^ pattern
        let low = ~highBits
        return ~(((difference & low) &+ low) | difference) & highBits
    }

    private func isTarget(_ byte: UInt8) -> Bool {
        byte == targets.0 || byte == targets.1 || byte == targets.2
    }

    /// Whether a byte of `word` equals a target (the classic "has zero byte" test on word ^ pattern).
    private func hasTarget(_ word: UInt64) -> Bool {
        Self.zeroLanes(word ^ patterns.0) | Self.zeroLanes(word ^ patterns.1) | Self.zeroLanes(word ^ patterns.2) != 0
    }

    /// Non-zero exactly when a byte of `word` is zero (the classic test; lanes above the first zero
    /// byte may be flagged too).
    static func zeroLanes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }
}

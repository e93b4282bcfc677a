// SPDX-License-Identifier: MIT

/// Strings of at most 15 ASCII bytes made straight from their bytes, for the publish path's
/// decoded pieces (keys, channels, short messages and query values).
///
/// On 64-bit platforms the standard library keeps such a string inline, in its two words: the
/// bytes in order (little-endian words), and in the last byte the flags of an ASCII small string
/// (`0xE0`) with the count. `string(_:count:)` writes those words itself, without the
/// general initializer's closure, buffer and UTF-8 validation (about half of a short piece's
/// decoding). Whether this build's strings have that layout is checked once, against literals
/// (`layoutHolds`); where they do not, the caller takes the general way.
enum SmallASCIIString {
    /// Whether `string(_:count:)` makes the strings the standard library makes (checked against
    /// literals of 0, 1, 8 and 15 bytes).
    static let layoutHolds: Bool = {
        guard MemoryLayout<String>.size == 16, UInt64(1).littleEndian == 1 else { return false }
        func holds(_ literal: String, _ bytes: [UInt8]) -> Bool {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { out in
                for (index, byte) in bytes.enumerated() { out[index] = byte }
            }
            let made = (words.0, words.1 | UInt64(0xE0 | bytes.count) << 56)
            let real = unsafeBitCast(literal, to: (UInt64, UInt64).self)
            return made == real
        }
        return holds("", []) && holds("a", Array("a".utf8)) && holds("abcdefgh", Array("abcdefgh".utf8))
            && holds("abcdefghijklmno", Array("abcdefghijklmno".utf8))
    }()

    /// Whether the bytes in `words` (a piece of at most 15 bytes, zero after it) decode to
    /// themselves: all ASCII, no `%`, and no `+` when `+` means a space. Eight bytes at a time: a
    /// byte of `word ^ repeated(c)` is zero exactly where `c` is (the exact per-byte zero test).
    @inline(__always)
    static func isPlain(_ words: (UInt64, UInt64), plusAsSpace: Bool) -> Bool {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        func has(_ byte: UInt8, in word: UInt64) -> Bool {
            let other = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
            return ~(((other & low) &+ low) | other | low) != 0
        }
        if (words.0 | words.1) & ~low != 0 { return false }
        if has(UInt8(ascii: "%"), in: words.0) || has(UInt8(ascii: "%"), in: words.1) { return false }
        if plusAsSpace && (has(UInt8(ascii: "+"), in: words.0) || has(UInt8(ascii: "+"), in: words.1)) { return false }
        return true
    }

    /// The string of the first `count` bytes of `words` (at most 15, each below 0x80; the bytes
    /// after them zero). Only where `layoutHolds`.
    @inline(__always)
    static func string(_ words: (UInt64, UInt64), count: Int) -> String {
        unsafeBitCast((words.0, words.1 | UInt64(0xE0 | count) << 56), to: String.self)
    }
}

// SPDX-License-Identifier: MIT

/// A socket id of the generated shape `\d+\.\d+` (1–6 digits, a dot, 1–8 digits, no leading zeros)
/// in one word: the first number in the high half, the second in the low half. Held once per
/// connection by the core and the bridge, so it takes 8 bytes instead of a 16-byte string.
package struct PusherSocketID: Hashable, Sendable, CustomStringConvertible {
    package let packed: UInt64

    package init(first: UInt32, second: UInt32) { packed = UInt64(first) << 32 | UInt64(second) }

    /// The id whose one-word form is `packed`.
    package init(packed: UInt64) { self.packed = packed }

    /// The id `text` spells, or nil when it is not of the generated shape (then it names no connection).
    package init?(_ text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Self.number(parts[0], maxDigits: 6), let second = Self.number(parts[1], maxDigits: 8)
        else { return nil }
        self.init(first: first, second: second)
    }

    /// The text form, as clients see it.
    package var description: String { "\(packed >> 32).\(packed & 0xFFFF_FFFF)" }

    /// A decimal number of 1 to `maxDigits` digits without a leading zero.
    private static func number(_ digits: Substring.UTF8View, maxDigits: Int) -> UInt32? {
        guard (1...maxDigits).contains(digits.count), digits.first != UInt8(ascii: "0") else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + UInt32(digit - UInt8(ascii: "0"))
        }
        return value
    }
}

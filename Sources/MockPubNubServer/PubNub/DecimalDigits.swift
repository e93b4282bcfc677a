// SPDX-License-Identifier: MIT

/// The decimal digits of an unsigned integer, as `String(value)` spells them, written two at a
/// time from a table of the hundred pairs, last pair first (a 17-digit timetoken: nine divisions, not seventeen).
enum DecimalDigits {
    /// "00" "01" … "99", the pair for `n` at `2 * n`.
    private static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the digits of `value` into the bytes just before `end` (at most 20); returns where
    /// they start.
    @discardableResult
    static func write(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let table = pairs.utf8Start
        var rest = value
        var position = end
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            position -= 2
            position[0] = table[pair]
            position[1] = table[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            position -= 2
            position[0] = table[pair]
            position[1] = table[pair &+ 1]
        } else {
            position -= 1
            position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        return position
    }
}

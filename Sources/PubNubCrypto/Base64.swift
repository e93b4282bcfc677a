// SPDX-License-Identifier: MIT

/// Standard base64 (RFC 4648 §4) on raw buffers, written for speed on the message path.
///
/// Encoding always pads with `=`. Decoding accepts the standard alphabet only, with or without the final
/// padding (a length of 4n+1 characters is never valid); whitespace, URL-safe characters, `=` anywhere but the
/// end, and more than two `=` are ``CryptoError/Kind/invalidBase64``.
enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Two output characters for every 12-bit value: halves the table lookups of the encoder.
    static let pairs: [UInt16] = (0..<4096).map { value in
        UInt16(alphabet[value >> 6]) | UInt16(alphabet[value & 0x3F]) << 8
    }

    /// 0...63 for alphabet characters, 0xFF otherwise.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    static func maxDecodedCount(_ characterCount: Int) -> Int { (characterCount + 3) / 4 * 3 }

    /// Writes the base64 of `input` to `out` (room for ``encodedCount(_:)`` bytes); returns the count written.
    static func encode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let count = input.count
        var source = 0
        var target = 0
        pairs.withUnsafeBufferPointer { pairs in
            let raw = UnsafeMutableRawPointer(out)
            while source + 3 <= count {
                let word = Int(input[source]) << 16 | Int(input[source + 1]) << 8 | Int(input[source + 2])
                raw.storeBytes(of: pairs[word >> 12], toByteOffset: target, as: UInt16.self)
                raw.storeBytes(of: pairs[word & 0xFFF], toByteOffset: target + 2, as: UInt16.self)
                source += 3
                target += 4
            }
        }
        let rest = count - source
        if rest > 0 {
            let first = Int(input[source])
            let second = rest == 2 ? Int(input[source + 1]) : 0
            out[target] = alphabet[first >> 2]
            out[target + 1] = alphabet[(first & 0x03) << 4 | second >> 4]
            out[target + 2] = rest == 2 ? alphabet[(second & 0x0F) << 2] : UInt8(ascii: "=")
            out[target + 3] = UInt8(ascii: "=")
            target += 4
        }
        return target
    }

    /// Decodes `input` into `out` (room for ``maxDecodedCount(_:)`` bytes); returns the byte count.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) throws(CryptoError) -> Int {
        var length = input.count
        if length % 4 == 0, length > 0, input[length - 1] == UInt8(ascii: "=") {
            length -= input[length - 2] == UInt8(ascii: "=") ? 2 : 1
        }
        guard length % 4 != 1 else {
            throw CryptoError(.invalidBase64, "base64 text has an impossible length of \(input.count) characters")
        }
        var source = 0
        var target = 0
        var invalid: UInt32 = 0
        decodeTable.withUnsafeBufferPointer { table in
            while source + 4 <= length {
                let a = UInt32(table[Int(input[source])])
                let b = UInt32(table[Int(input[source + 1])])
                let c = UInt32(table[Int(input[source + 2])])
                let d = UInt32(table[Int(input[source + 3])])
                invalid |= a | b | c | d
                let word = a << 18 | b << 12 | c << 6 | d
                out[target] = UInt8(truncatingIfNeeded: word >> 16)
                out[target + 1] = UInt8(truncatingIfNeeded: word >> 8)
                out[target + 2] = UInt8(truncatingIfNeeded: word)
                source += 4
                target += 3
            }
            let rest = length - source
            if rest >= 2 {
                let a = UInt32(table[Int(input[source])])
                let b = UInt32(table[Int(input[source + 1])])
                let c = rest == 3 ? UInt32(table[Int(input[source + 2])]) : 0
                invalid |= a | b | c
                let word = a << 18 | b << 12 | c << 6
                out[target] = UInt8(truncatingIfNeeded: word >> 16)
                target += 1
                if rest == 3 {
                    out[target] = UInt8(truncatingIfNeeded: word >> 8)
                    target += 1
                }
            }
        }
        // Any alphabet value has bits 6-7 clear; 0xFF (invalid character) sets them.
        guard invalid & 0xC0 == 0 else {
            throw CryptoError(.invalidBase64, "base64 text contains a character outside the standard alphabet")
        }
        return target
    }
}

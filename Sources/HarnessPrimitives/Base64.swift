// SPDX-License-Identifier: MIT
internal import CBase64

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard base64 (RFC 4648 §4) and base64url (§5) on raw buffers, written for speed on the message path.
///
/// Encoding pads with `=` (``ByteEncoding`` drops it for base64url). Decoding accepts the standard alphabet
/// only, with or without the final padding (a length of 4n+1 characters is never valid); whitespace, URL-safe
/// characters, `=` anywhere but the end, and more than two `=` are a ``Base64Error``.
///
/// Whole groups go through a vector kernel (``Kernel``: AVX-512 VBMI, AVX2 or SSSE3, chosen from CPUID) and the rest through
/// the scalar code, which also does everything on CPUs without those instructions. Both give the same bytes
/// and the same errors.
package enum Base64 {
    /// The two characters that differ between the alphabets.
    package enum Alphabet: Sendable {
        /// RFC 4648 §4: `+` and `/`.
        case standard
        /// RFC 4648 §5: `-` and `_`.
        case url
    }

    /// The vector code that handles whole groups (12 bytes per step with SSSE3, 24 with AVX2, 48 with AVX-512 VBMI,
    /// which decodes with the AVX2 code); `.scalar` uses none.
    package enum Kernel: Int32, Sendable, CaseIterable, CustomStringConvertible {
        case scalar = 0
        case ssse3 = 1
        case avx2 = 2
        case avx512vbmi = 3

        /// Whether this CPU (and operating system) can run the kernel.
        package var isAvailable: Bool { cbase64_path_available(rawValue) != 0 }

        /// The kernel every call uses by default: the best one available, or a slower one named by the
        /// environment variable `PUBNUB_HARNESS_BASE64_KERNEL` (`scalar`, `ssse3`, `avx2`, `avx512vbmi`; for
        /// benchmarks).
        package static let active: Kernel = {
            let best = Kernel(rawValue: cbase64_best_path()) ?? .scalar
            guard let name = getenv("PUBNUB_HARNESS_BASE64_KERNEL").map({ String(cString: $0) }),
                let chosen = allCases.first(where: { $0.description == name }), chosen.isAvailable
            else { return best }
            return chosen
        }()

        package var description: String {
            switch self {
            case .scalar: "scalar"
            case .ssse3: "ssse3"
            case .avx2: "avx2"
            case .avx512vbmi: "avx512vbmi"
            }
        }
    }

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Two output characters for every 12-bit value: halves the table lookups of the encoder.
    static let pairs: [UInt16] = pairTable(alphabet)
    static let urlPairs: [UInt16] = pairTable(urlAlphabet)

    private static func pairTable(_ alphabet: [UInt8]) -> [UInt16] {
        (0..<4096).map { value in UInt16(alphabet[value >> 6]) | UInt16(alphabet[value & 0x3F]) << 8 }
    }

    /// The character of a 6-bit value.
    @inline(__always)
    static func character(_ value: Int, _ alphabet: Alphabet) -> UInt8 {
        switch value {
        case 0..<26: UInt8(truncatingIfNeeded: value + 65)  // A-Z
        case 26..<52: UInt8(truncatingIfNeeded: value + 71)  // a-z
        case 52..<62: UInt8(truncatingIfNeeded: value - 4)  // 0-9
        case 62: alphabet == .url ? UInt8(ascii: "-") : UInt8(ascii: "+")
        default: alphabet == .url ? UInt8(ascii: "_") : UInt8(ascii: "/")
        }
    }

    /// 0...63 for alphabet characters, 0xFF otherwise.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Four 256-entry tables giving each character's contribution to a quad's 3 output bytes, already shifted
    /// into little-endian order (bytes 0-2 of a `UInt32`), with bit 24 set for invalid characters; followed by
    /// ``decodeTable`` widened to `UInt32` for the tail.
    static let quadTables: [UInt32] = {
        var tables = [UInt32](repeating: 0x0100_0000, count: 4 * 256)
        for (index, character) in alphabet.enumerated() {
            let value = UInt32(index)
            let slot = Int(character)
            tables[slot] = value << 2
            tables[256 + slot] = value >> 4 | (value & 0x0F) << 12
            tables[512 + slot] = (value >> 2) << 8 | (value & 0x03) << 22
            tables[768 + slot] = value << 16
        }
        return tables + decodeTable.map { UInt32($0) }
    }()

    /// Inlinable: callers in other modules use it on hot paths (a message's text length).
    @inlinable
    package static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    @inlinable
    package static func maxDecodedCount(_ characterCount: Int) -> Int { (characterCount + 3) / 4 * 3 }

    /// Writes the base64 of `input` to `out` (room for ``encodedCount(_:)`` bytes); returns the count written.
    ///
    /// `input` may lie inside `out` at offset `encodedCount(input.count) - input.count` or later (in-place
    /// encoding): each group is read before it is written, and the writer (4 bytes per 3) never overtakes the
    /// reader because that offset is at least a third of the input.
    /// `kernel` is for tests and benchmarks; an unavailable one falls back to the scalar code.
    package static func encode(
        _ input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        alphabet: Alphabet = .standard,
        kernel: Kernel = .active
    ) -> Int {
        guard let source = input.baseAddress else { return 0 }
        // The kernel's in-place bound is the same as the scalar code's, and what it leaves keeps that bound.
        let vectorBytes =
            kernel == .scalar ? 0 : cbase64_encode_prefix(kernel.rawValue, source, input.count, out, alphabet == .url ? 1 : 0)
        let consumed = Int(vectorBytes)
        let written = consumed / 3 * 4
        return written + encodeScalar(UnsafeBufferPointer(rebasing: input[consumed...]), into: out + written, alphabet: alphabet)
    }

    /// ``encode(_:into:alphabet:kernel:)`` without a vector kernel.
    static func encodeScalar(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, alphabet: Alphabet) -> Int {
        guard let source = input.baseAddress else { return 0 }
        let count = input.count
        // After a vector kernel only the 1-2 padded bytes are left: they need no table.
        let (consumed, written) = count < 3 ? (0, 0) : (alphabet == .url ? urlPairs : pairs).withUnsafeBufferPointer { pairs -> (Int, Int) in
            let table = pairs.baseAddress!
            let raw = UnsafeMutableRawPointer(out)
            var offset = 0
            var target = 0
            // Six bytes → eight characters with one 8-byte store (same in-place bound: 8 written per 6 read).
            while offset + 6 <= count {
                let high = Int(source[offset]) << 16 | Int(source[offset + 1]) << 8 | Int(source[offset + 2])
                let low = Int(source[offset + 3]) << 16 | Int(source[offset + 4]) << 8 | Int(source[offset + 5])
                let packed =
                    UInt64(table[high >> 12]) | UInt64(table[high & 0xFFF]) << 16 | UInt64(table[low >> 12]) << 32
                    | UInt64(table[low & 0xFFF]) << 48
                raw.storeBytes(of: packed.littleEndian, toByteOffset: target, as: UInt64.self)
                offset += 6
                target += 8
            }
            while offset + 3 <= count {
                let word = Int(source[offset]) << 16 | Int(source[offset + 1]) << 8 | Int(source[offset + 2])
                raw.storeBytes(of: table[word >> 12], toByteOffset: target, as: UInt16.self)
                raw.storeBytes(of: table[word & 0xFFF], toByteOffset: target + 2, as: UInt16.self)
                offset += 3
                target += 4
            }
            return (offset, target)
        }
        var target = written
        let rest = count - consumed
        if rest > 0 {
            let first = Int(source[consumed])
            let second = rest == 2 ? Int(source[consumed + 1]) : 0
            out[target] = character(first >> 2, alphabet)
            out[target + 1] = character((first & 0x03) << 4 | second >> 4, alphabet)
            out[target + 2] = rest == 2 ? character((second & 0x0F) << 2, alphabet) : UInt8(ascii: "=")
            out[target + 3] = UInt8(ascii: "=")
            target += 4
        }
        return target
    }

    /// Decodes `input` into `out` (room for ``maxDecodedCount(_:)`` bytes); returns the byte count.
    /// `kernel` is for tests and benchmarks; an unavailable one falls back to the scalar code.
    package static func decode(
        _ input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        kernel: Kernel = .active
    ) throws(Base64Error) -> Int {
        guard let source = input.baseAddress else { return 0 }
        var length = input.count
        if length % 4 == 0, length > 0, input[length - 1] == UInt8(ascii: "=") {
            length -= input[length - 2] == UInt8(ascii: "=") ? 2 : 1
        }
        guard length % 4 != 1 else {
            throw Base64Error("base64 text has an impossible length of \(input.count) characters")
        }
        // Whole groups of 16 or 32 characters through the vector kernel, leaving at least the last quad (the
        // only one that may be partial) to the tail code below; it flags an invalid character like the tables.
        var vectorInvalid: Int32 = 0
        let vectorCharacters =
            kernel == .scalar || length < 8
            ? 0
            : Int(cbase64_decode_prefix(kernel.rawValue, source, length - 4, out, maxDecodedCount(input.count), &vectorInvalid))
        let (written, invalid) = quadTables.withUnsafeBufferPointer { tables -> (Int, UInt32) in
            let t0 = tables.baseAddress!
            let t1 = t0 + 256
            let t2 = t0 + 512
            let t3 = t0 + 768
            let raw = UnsafeMutableRawPointer(out)
            var offset = vectorCharacters
            var target = vectorCharacters / 4 * 3
            var invalid: UInt32 = vectorInvalid == 0 ? 0 : 0x0100_0000
            // Full quads but the last: one 4-byte store each (its 4th byte is overwritten by the next quad).
            while offset + 8 <= length {
                let word =
                    t0[Int(source[offset])] | t1[Int(source[offset + 1])] | t2[Int(source[offset + 2])]
                    | t3[Int(source[offset + 3])]
                invalid |= word
                raw.storeBytes(of: word.littleEndian, toByteOffset: target, as: UInt32.self)
                offset += 4
                target += 3
            }
            // The last 2-4 characters, one byte at a time; `decodeTable` values flag invalid input in bits 6-7.
            let table = t0 + 1024
            var tailInvalid: UInt32 = 0
            var bits: UInt32 = 0
            var bitCount = 0
            while offset < length {
                let value = table[Int(source[offset])]
                tailInvalid |= value
                bits = bits << 6 | (value & 0x3F)
                bitCount += 6
                if bitCount >= 8 {
                    bitCount -= 8
                    out[target] = UInt8(truncatingIfNeeded: bits >> UInt32(bitCount))
                    target += 1
                }
                offset += 1
            }
            invalid |= tailInvalid & 0xC0 == 0 ? 0 : 0x0100_0000
            return (target, invalid)
        }
        // Quad-table entries of invalid characters set bit 24.
        guard invalid & 0x0100_0000 == 0 else {
            throw Base64Error("base64 text contains a character outside the standard alphabet")
        }
        return written
    }
}

/// Why base64 text could not be decoded (one line, never the text itself).
public struct Base64Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the text.
    public let message: String

    package init(_ message: String) { self.message = message }

    public var description: String { message }
}

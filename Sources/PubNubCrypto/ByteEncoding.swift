// SPDX-License-Identifier: MIT

/// Hex and base64 conversions used by vectors, the CLI and tests.
public enum ByteEncoding {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a hex string (either case, even length, no separators); `nil` if it is not hex.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Standard base64 (RFC 4648 §4) with `=` padding and no line breaks.
    public static func base64(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: Base64.encodedCount(input.count)) { out in
                Base64.encode(input, into: out.baseAddress!)
            }
        }
    }

    /// Decodes standard base64; see ``Base64`` for the accepted forms.
    /// - Throws: ``CryptoError/Kind/invalidBase64``.
    public static func bytes(fromBase64 text: String) throws(CryptoError) -> [UInt8] {
        let input = Array(text.utf8)
        var failure: CryptoError?
        let out = input.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: Base64.maxDecodedCount(source.count)) { buffer, count in
                do throws(CryptoError) { count = try Base64.decode(source, into: buffer.baseAddress!) } catch {
                    failure = error
                    count = 0
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

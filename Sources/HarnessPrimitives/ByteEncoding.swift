// SPDX-License-Identifier: MIT

/// Hex, base64 and base64url conversions: the one home of these encodings in the package.
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

    /// Base64 with the URL alphabet (RFC 4648 §5: `-` and `_`) and no `=` padding, as in JWTs and PubNub's v2 signatures.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: Base64.encodedCount(input.count)) { out in
                let written = Base64.encode(input, into: out.baseAddress!, alphabet: .url)
                return written - (3 - input.count % 3) % 3  // without the padding
            }
        }
    }

    /// Decodes standard base64; see ``Base64`` for the accepted forms.
    /// - Throws: ``Base64Error`` for anything else.
    public static func bytes(fromBase64 text: String) throws(Base64Error) -> [UInt8] {
        let input = Array(text.utf8)
        var failure: Base64Error?
        let out = input.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: Base64.maxDecodedCount(source.count)) { buffer, count in
                do throws(Base64Error) { count = try Base64.decode(source, into: buffer.baseAddress!) } catch {
                    failure = error
                    count = 0
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    /// The value of one hex digit (either case); `nil` for anything else.
    package static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

// SPDX-License-Identifier: MIT
import COpenSSL

/// PubNub's v2 request signature (spec §9.2):
/// `"v2." + base64url(HMAC-SHA256(secret, METHOD\npub\npath\nsorted_query\nbody))` without `=`.
enum RequestSignature {
    /// The string that is signed. `query` excludes nothing yet: `signature` is dropped here.
    static func input(method: String, publishKey: String, path: String, query: [QueryItem], body: String) -> String {
        let sorted = query.filter { $0.name != "signature" }
            .enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map { encode($0.element.name) + "=" + encode($0.element.value) }
            .joined(separator: "&")
        return method + "\n" + publishKey + "\n" + path + "\n" + sorted + "\n" + body
    }

    static func sign(_ input: String, secret: String) -> String {
        "v2." + base64URL(hmacSHA256(key: Array(secret.utf8), data: Array(input.utf8)))
    }

    /// Percent-encodes everything but ASCII letters, digits, `-`, `.` and `_` (so `~ ! * ' ( )` are escaped).
    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBuffer in
            data.withUnsafeBufferPointer { dataBuffer in
                _ = HMAC(
                    EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count), dataBuffer.baseAddress,
                    dataBuffer.count, &digest, &length)
            }
        }
        return Array(digest.prefix(Int(length)))
    }

    /// Base64 with the URL alphabet (`-`, `_`) and no padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0..<(chunk.count + 1) {
                out.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// SPDX-License-Identifier: MIT
import COpenSSL

/// Access Manager request signature "v2" (`pubnub-protocol.md` §9.2), used when a secret key is set:
/// `METHOD\npublishKey\npath\nsortedQuery\nbody` → HMAC-SHA256 with the secret → `v2.` + base64url
/// without padding. The sorted query holds every parameter except `signature`, values encoded with
/// only `A-Z a-z 0-9 - _ .` left as they are.
struct RequestSigner: Sendable {
    let publishKey: String
    let secretKey: String

    func signature(method: String, path: String, query: [(String, String)], body: [UInt8]?) -> String {
        let sorted = query.sorted { $0.0 < $1.0 }
            .map { "\($0.0)=\(PercentEncoding.encode($0.1, keeping: [], strict: true))" }
            .joined(separator: "&")
        var input = Array("\(method)\n\(publishKey)\n\(path)\n\(sorted)\n".utf8)
        if method == "POST" || method == "PATCH" { input += body ?? [] }
        let key = Array(secretKey.utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), input, input.count, &digest, &length)
        return "v2." + Self.base64URL(Array(digest[0..<Int(length)]))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out = ""
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = (UInt32(chunk[0]) << 16) | (chunk.count > 1 ? UInt32(chunk[1]) << 8 : 0) | (chunk.count > 2 ? UInt32(chunk[2]) : 0)
            let characters = chunk.count + 1
            for i in 0..<characters { out.append(alphabet[Int((value >> (18 - 6 * UInt32(i))) & 0x3F)]) }
            index += 3
        }
        return out
    }
}

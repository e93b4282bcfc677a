// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// Access Manager request signature "v2" (`pubnub-protocol.md` §9.2), used when a secret key is set:
/// `METHOD\npublishKey\npath\nsortedQuery\nbody` → HMAC-SHA256 with the secret → `v2.` + base64url
/// without padding. The sorted query holds every parameter except `signature`, values encoded with
/// only `A-Z a-z 0-9 - _ .` left as they are.
///
/// The canonical string is built here and again, independently, by the server's `RequestSignature`
/// on purpose: the client under test and the server that checks it must not share the sorting and
/// encoding rule, or one shared bug would pass both sides. Only the primitives (HMAC, base64url,
/// percent coding) are shared.
struct RequestSigner: Sendable {
    let publishKey: String
    let secretKey: String

    func signature(method: String, path: String, query: [(String, String)], body: [UInt8]?) -> String {
        let sorted = query.sorted { $0.0 < $1.0 }
            .map { "\($0.0)=\(PercentCoding.encode($0.1, keeping: .unreservedWithoutTilde))" }
            .joined(separator: "&")
        var input = Array("\(method)\n\(publishKey)\n\(path)\n\(sorted)\n".utf8)
        if method == "POST" || method == "PATCH" { input += body ?? [] }
        return "v2." + ByteEncoding.base64URL(HMAC.sha256(key: Array(secretKey.utf8), data: input))
    }
}

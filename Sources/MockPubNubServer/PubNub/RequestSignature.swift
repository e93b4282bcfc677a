// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// PubNub's v2 request signature (spec §9.2):
/// `"v2." + base64url(HMAC-SHA256(secret, METHOD\npub\npath\nsorted_query\nbody))` without `=`.
///
/// The canonical string is built here and again, independently, by the client's `RequestSigner` on
/// purpose: the server that checks signatures and the client under test must not share the sorting
/// and encoding rule, or one shared bug would pass both sides. Only the primitives are shared.
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
        "v2." + ByteEncoding.base64URL(HMAC.sha256(key: secret, message: input))
    }
    /// Percent-encodes everything but ASCII letters, digits, `-`, `.` and `_` (so `~ ! * ' ( )` are escaped).
    static func encode(_ text: String) -> String { PercentCoding.encode(text, keeping: .unreservedWithoutTilde) }
}

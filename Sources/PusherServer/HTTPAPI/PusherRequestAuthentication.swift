// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// Checks an HTTP API request's signature (spec §6.2): `auth_key`, `auth_timestamp` within 600 s,
/// `auth_version=1.0`, `body_md5`, and `auth_signature` = hex HMAC-SHA256(secret, `METHOD\nPATH\nQUERY`).
public enum PusherRequestAuthentication {
    /// How far `auth_timestamp` may be from the server's clock [doc] §6.2.
    public static let timestampWindow: Int64 = 600
    /// The parameters every endpoint takes besides its own.
    public static let authParameters: Set<String> = ["auth_key", "auth_timestamp", "auth_version", "body_md5", "auth_signature"]

    /// `METHOD\nPATH\nQUERY`, QUERY being every parameter but `auth_signature`, keys lower-cased and
    /// sorted, `k=v` joined by `&` with the decoded values, nothing escaped (what the libraries sign).
    public static func stringToSign(method: String, path: String, query: [QueryItem]) -> String {
        var pairs: [(name: String, value: String)] = []
        for item in query where item.name.lowercased() != "auth_signature" { pairs.append((item.name.lowercased(), item.value)) }
        pairs.sort { lhs, rhs in lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name }
        let joined: [String] = pairs.map { pair in pair.name + "=" + pair.value }
        return method + "\n" + path + "\n" + joined.joined(separator: "&")
    }

    /// The query an app server sends for `app` (the tests' and the benchmark's signer).
    public static func signedQuery(
        app: PusherApp, method: String, path: String, parameters: [QueryItem] = [], body: [UInt8], timestamp: Int64
    ) -> [QueryItem] {
        var query = parameters + [
            QueryItem(name: "auth_key", value: app.key), QueryItem(name: "auth_timestamp", value: String(timestamp)),
            QueryItem(name: "auth_version", value: "1.0"),
        ]
        if !body.isEmpty { query.append(QueryItem(name: "body_md5", value: PusherSignatures.md5Hex(body))) }
        let signature = PusherSignatures.hmacSHA256Hex(secret: app.secret, message: stringToSign(method: method, path: path, query: query))
        return query + [QueryItem(name: "auth_signature", value: signature)]
    }

    /// Throws the first failed check, in the order key, timestamp, version, body_md5, signature.
    ///
    /// The signature may be over the raw or the decoded path (UNVERIFIED which the service uses; both
    /// are accepted, the 401 text shows the raw one). `body_md5` is required with a body and checked
    /// whenever present, so GETs pass with or without it (pusher-http-python sends it on every request).
    public static func verify(_ request: PusherAPIRequest, query: [QueryItem], app: PusherApp, serverTime: Int64) throws(PusherAPIError) {
        guard let key = first("auth_key", in: query), key == app.key else { throw .unknownAuthKey }
        guard let text = first("auth_timestamp", in: query), let timestamp = Int64(text) else { throw .invalidTimestamp }
        guard abs(timestamp - serverTime) <= timestampWindow else { throw .timestampExpired(given: timestamp, server: serverTime) }
        let version = first("auth_version", in: query)
        guard version == "1.0" else { throw .unsupportedAuthVersion(version) }
        let md5 = first("body_md5", in: query)
        if !request.body.isEmpty, md5 == nil { throw .bodyMD5Mismatch }
        if let md5, md5.lowercased() != PusherSignatures.md5Hex(request.body) { throw .bodyMD5Mismatch }
        let sent = first("auth_signature", in: query) ?? ""
        var paths = [request.rawPath]
        if let decoded = request.decodedPath, decoded != request.rawPath { paths.append(decoded) }
        let expected = paths.map { stringToSign(method: request.method, path: $0, query: query) }
        let valid = expected.contains { candidate in
            PusherSignatures.constantTimeEqual(PusherSignatures.hmacSHA256Hex(secret: app.secret, message: candidate), sent.lowercased())
        }
        guard valid else { throw .invalidSignature(expected: expected[0], sent: sent) }
    }

    private static func first(_ name: String, in query: [QueryItem]) -> String? { query.first { $0.name.lowercased() == name }?.value }
}

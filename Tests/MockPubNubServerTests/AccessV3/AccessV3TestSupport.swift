// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer
import PubNubToken

/// A service with one Access Manager keyset and helpers that sign as a server-side SDK does.
struct AccessV3Harness {
    static let keyset = Keyset(subscribeKey: "v3-sub", publishKey: "v3-pub", secretKey: "v3-secret")
    let h = ServiceHarness(PubNubServiceConfiguration(keysets: [AccessV3Harness.keyset]))

    /// `path?query` signed with signature v2 (body included for POST), stamped with the service clock.
    func signed(_ method: String, _ path: String, query: String = "uuid=admin", body: String = "", skew: Int64 = 0,
                secret: String = AccessV3Harness.keyset.secretKey) -> String {
        let full = (query.isEmpty ? "" : query + "&") + "timestamp=\(h.time.clock.unixSeconds + skew)"
        let items = HTTPRequest(method: method, target: path + "?" + full).queryItems ?? []
        let input = RequestSignature.input(
            method: method, publishKey: Self.keyset.publishKey, path: path, query: items, body: method == "POST" ? body : "")
        return path + "?" + full + "&signature=" + RequestSignature.sign(input, secret: secret)
    }

    /// POSTs a grant-token body; returns (status, body, Content-Type).
    func grant(_ body: String, skew: Int64 = 0) -> (Int, String) {
        let capture = h.send(signed("POST", "/v3/pam/v3-sub/grant", body: body, skew: skew), method: "POST", body: body)
        return (capture.status ?? -1, capture.body ?? "")
    }

    /// Grants `body` and returns the token (fails the test otherwise).
    func token(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let (status, text) = grant(body)
        #expect(status == 200, "\(text)", sourceLocation: sourceLocation)
        guard let value = try? JSONValue.parse(text), let token = value["data"]?["token"]?.stringValue else {
            Issue.record("no token in \(text)", sourceLocation: sourceLocation)
            return ""
        }
        return token
    }

    func revoke(_ token: String) -> (Int, String) {
        let path = "/v3/pam/v3-sub/grant/" + PercentDecoding.encode(token)
        let capture = h.send(signed("DELETE", path), method: "DELETE")
        return (capture.status ?? -1, capture.body ?? "")
    }

    /// A GET with `auth=token` (percent-encoded), answered at once; (status, body).
    func get(_ target: String, token: String, uuid: String = "client") -> (Int, String) {
        let separator = target.contains("?") ? "&" : "?"
        let capture = h.send(target + separator + "uuid=\(uuid)&auth=" + PercentDecoding.encode(token))
        return (capture.status ?? -1, capture.body ?? "")
    }

    /// A publish of `"x"` on `channel` with the token.
    func publish(_ channel: String, token: String, uuid: String = "client") -> Int {
        get("/publish/v3-pub/v3-sub/0/\(channel)/0/%22x%22", token: token, uuid: uuid).0
    }

    /// A grant-token body for channel resources (`name: mask`) and channel patterns.
    static func body(ttl: String = "60", channels: String = "", patterns: String = "", groups: String = "",
                     uuids: String = "", uuid: String? = nil, meta: String = "{}") -> String {
        "{\"ttl\": \(ttl), \"permissions\": {\"resources\": {\"channels\": {\(channels)}, \"groups\": {\(groups)}, \"uuids\": {\(uuids)}},"
            + " \"patterns\": {\"channels\": {\(patterns)}, \"groups\": {}, \"uuids\": {}}, \"meta\": \(meta)"
            + (uuid.map { ", \"uuid\": \"\($0)\"" } ?? "") + "}}"
    }
}

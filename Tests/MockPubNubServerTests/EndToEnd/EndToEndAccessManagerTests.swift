// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import HarnessPrimitives
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Access Manager over loopback sockets: a grant signed in the test, then 403s on every endpoint kind.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndAccessManagerTests {
    static let keyset = Keyset(subscribeKey: "sk", publishKey: "pk", secretKey: "sec")

    /// `v2.` + base64url(HMAC-SHA256) without padding, computed here from the spec's formula.
    static func signature(_ input: String, secret: String) -> String {
        let mac = HMAC.sha256(key: Array(secret.utf8), data: Array(input.utf8))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out = ""
        var index = 0
        while index < mac.count {
            let chunk = Array(mac[index..<min(index + 3, mac.count)])
            let value = chunk.enumerated().reduce(0) { $0 | (Int($1.element) << (16 - 8 * $1.offset)) }
            for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return "v2." + out
    }

    /// A grant request with its query sorted and signed (values here need no escaping).
    static func signedGrant(_ parameters: [(String, String)], timestamp: Int) -> String {
        let query = (parameters + [("timestamp", String(timestamp))]).sorted { $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let path = "/v2/auth/grant/sub-key/sk"
        let signature = signature("GET\npk\n\(path)\n\(query)\n", secret: "sec")
        return path + "?" + query + "&signature=" + signature
    }

    @Test func signatureMatchesTheSpecsWorkedExample() {
        let input = "GET\ndemo\n/v2/auth/grant/sub-key/demo\nchannel=ch1&pnsdk=PubNub-Python%2F10.4.0&r=1&timestamp=1795243192&ttl=60&uuid=admin&w=1\n"
        #expect(Self.signature(input, secret: "my-secret-key") == "v2.Acw2PxzXgOdXNObmXVtRhyComCb3_cRd6d0Uyttf04I")
    }

    @Test func signedGrantOpensTheChannelAndEveryEndpointElseIsForbidden() throws {
        let server = try EndToEndServer(keysets: [Self.keyset])
        let now = Int(time(nil))
        // Publish denials are spaced and end with a line feed, unquoted charset (recorded 2024).
        let forbidden = "{\"message\": \"Forbidden\", \"payload\": {\"channels\": [\"secure\"]}, \"error\": true, \"service\": \"Access Manager\", \"status\": 403}\n"
        #expect(try server.raw("/publish/pk/sk/0/secure/0/1?uuid=u")
            == pubNubResponse(403, forbidden, contentType: "text/javascript; charset=UTF-8"))
        // A wrong signature is refused and grants nothing.
        var tampered = Self.signedGrant([("auth", "key1"), ("channel", "secure"), ("r", "1"), ("w", "1"), ("ttl", "5"), ("uuid", "admin")], timestamp: now)
        tampered = tampered.replacingOccurrences(of: "ttl=5", with: "ttl=6")
        #expect(try server.call(tampered).0 == 403)
        #expect(try server.call("/publish/pk/sk/0/secure/0/1?uuid=u&auth=key1").0 == 403)
        // A stale timestamp is refused.
        let stale = Self.signedGrant([("auth", "key1"), ("channel", "secure"), ("r", "1"), ("w", "1"), ("uuid", "admin")], timestamp: now - 7200)
        #expect(try server.call(stale).0 == 403)
        let grant = Self.signedGrant([("auth", "key1"), ("channel", "secure"), ("r", "1"), ("w", "1"), ("ttl", "5"), ("uuid", "admin")], timestamp: now)
        let (grantStatus, grantBody) = try server.call(grant)
        #expect(grantStatus == 200, "\(grantBody)")
        #expect(grantBody.hasPrefix("{\"message\":\"Success\",\"payload\":{"), "\(grantBody)")
        #expect(try server.call("/publish/pk/sk/0/secure/0/1?uuid=u&auth=key1").0 == 200)
        #expect(try server.call("/v2/history/sub-key/sk/channel/secure?auth=key1") .0 == 200)
        // Without the auth key every endpoint kind answers 403 naming the channel.
        for target in [
            "/publish/pk/sk/0/secure/0/1?uuid=u", "/signal/pk/sk/0/secure/0/1?uuid=u",
            "/v2/subscribe/sk/secure/0?tt=0&uuid=u", "/v2/history/sub-key/sk/channel/secure",
            "/v3/history/sub-key/sk/channel/secure", "/v3/history/sub-key/sk/message-counts/secure?timetoken=1",
            "/v2/presence/sub-key/sk/channel/secure", "/v2/presence/sub-key/sk/channel/secure/heartbeat?uuid=u",
            "/v2/presence/sub-key/sk/channel/secure/uuid/u/data?state=%7B%7D",
        ] {
            let (status, body) = try server.call(target)
            #expect(status == 403, "\(target)")
            let payload = (EndToEndServer.json(body) as? [String: Any])?["payload"] as? [String: Any]
            #expect(payload?["channels"] as? [String] == ["secure"], "\(target): \(body)")
        }
        // Other keys stay open demo keys.
        #expect(try server.call("/publish/demo/demo/0/secure/0/1").0 == 200)
    }
}

// SPDX-License-Identifier: MIT
import HarnessPrimitives
import Testing
@testable import MockPubNubServer

/// The v1 Access Manager of 3.x clients: v1 signature (padded URL-safe base64), v1 layout.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AccessV1Tests {
    /// `path?query` signed with the v1 formula (`sub\npub\ngrant|audit\nsorted query`).
    private func v1Signed(_ a: AccessV3Harness, _ operation: String, _ query: String, standardAlphabet: Bool = false) -> String {
        let path = "/v1/auth/\(operation)/sub-key/v3-sub"
        let full = query + "&timestamp=\(a.h.time.clock.unixSeconds)"
        let route = try! PubNubRoute.classify(HTTPRequest(method: "GET", target: path + "?" + full)).get()
        var signature = RequestAuthentication.v1Signature(HTTPRequest(method: "GET", target: path + "?" + full), route: route,
                                                          keyset: AccessV3Harness.keyset)
        #expect(signature.hasSuffix("="))
        if standardAlphabet { signature = String(signature.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }) }
        return path + "?" + full + "&signature=" + PercentDecoding.encode(signature)
    }

    @Test func v1SignatureInputNamesTheOperation() {
        let a = AccessV3Harness()
        let target = "/v1/auth/grant/sub-key/v3-sub?w=1&r=1&channel=c&timestamp=5"
        let route = try! PubNubRoute.classify(HTTPRequest(method: "GET", target: target)).get()
        let expected = HMAC.sha256(key: Array("v3-secret".utf8), data: Array("v3-sub\nv3-pub\ngrant\nchannel=c&r=1&timestamp=5&w=1".utf8))
        #expect(RequestAuthentication.v1Signature(HTTPRequest(method: "GET", target: target), route: route, keyset: AccessV3Harness.keyset)
            == ByteEncoding.base64URL(expected) + "=")
        _ = a
    }

    @Test func grantAuditAndEnforce() {
        let a = AccessV3Harness()
        #expect(a.h.send(v1Signed(a, "grant", "auth=k1&channel=c&r=1&w=1&ttl=10")).body
            == "{\"message\":\"Success\",\"payload\":{\"level\":\"user\",\"subscribe_key\":\"v3-sub\",\"ttl\":10,\"channel\":\"c\","
            + "\"auths\":{\"k1\":{\"r\":1,\"m\":0,\"w\":1}}},\"service\":\"Access Manager\",\"status\":200}")
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: "k1").0 == 200)
        #expect(a.h.send(v1Signed(a, "audit", "auth=k1&channel=c", standardAlphabet: true)).body
            == "{\"message\":\"Success\",\"payload\":{\"level\":\"user\",\"subscribe_key\":\"v3-sub\",\"channel\":\"c\","
            + "\"auths\":{\"k1\":{\"r\":1,\"m\":0,\"w\":1,\"ttl\":10}}},\"service\":\"Access Manager\",\"status\":200}")
        #expect(a.h.send(v1Signed(a, "grant", "channel=d&r=1&ttl=5")).body
            == "{\"message\":\"Success\",\"payload\":{\"level\":\"channel\",\"subscribe_key\":\"v3-sub\",\"ttl\":5,"
            + "\"channels\":{\"d\":{\"r\":1,\"m\":0,\"w\":0}}},\"service\":\"Access Manager\",\"status\":200}")
        #expect(a.h.send(v1Signed(a, "audit", "uuid=admin")).body
            == "{\"message\":\"Success\",\"payload\":{\"level\":\"subkey\",\"subscribe_key\":\"v3-sub\","
            + "\"channels\":{\"d\":{\"r\":1,\"m\":0,\"w\":0,\"ttl\":5}}},\"service\":\"Access Manager\",\"status\":200}")
        let tampered = v1Signed(a, "grant", "channel=c&r=1").replacingAll("r=1", "r=0")
        #expect(a.h.send(tampered).status == 403)
    }

    @Test func v1SignedRequestsAreServerSide() {
        let a = AccessV3Harness()
        let path = "/publish/v3-pub/v3-sub/0/c/0/%22x%22"
        let full = "uuid=s&timestamp=\(a.h.time.clock.unixSeconds)"
        let route = try! PubNubRoute.classify(HTTPRequest(method: "GET", target: path + "?" + full)).get()
        let signature = RequestAuthentication.v1Signature(HTTPRequest(method: "GET", target: path + "?" + full), route: route,
                                                          keyset: AccessV3Harness.keyset)
        #expect(a.h.send(path + "?" + full + "&signature=" + PercentDecoding.encode(signature)).status == 200)
    }
}

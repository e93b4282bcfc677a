// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Access Manager v2 audit (`/v2/auth/audit/sub-key/{sub}`, docs/access-manager.md "Audit"):
/// signed as a grant, the grants in force in the grant's layouts.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(2)))) struct AuditV2Tests {
    private let keyset = Keyset(subscribeKey: "pam-sub", publishKey: "pam-pub", secretKey: "sec")

    /// Sends a v2-signed Access Manager request (`grant` or `audit`) stamped with the service clock.
    @discardableResult
    private func signed(_ h: ServiceHarness, _ call: String, _ params: String, secret: String = "sec", skew: Int64 = 0) -> (Int, String) {
        let path = "/v2/auth/\(call)/sub-key/pam-sub"
        let query = (params.isEmpty ? "" : params + "&") + "timestamp=\(h.time.clock.unixSeconds + skew)&uuid=admin"
        let items = HTTPRequest(method: "GET", target: path + "?" + query).queryItems ?? []
        let input = RequestSignature.input(method: "GET", publishKey: "pam-pub", path: path, query: items, body: "")
        return h.call(path + "?" + query + "&signature=" + RequestSignature.sign(input, secret: secret))
    }

    private func success(_ payload: String) -> (Int, String) {
        (200, "{\"message\":\"Success\",\"payload\":{" + payload + "},\"service\":\"Access Manager\",\"status\":200}")
    }

    private func harness() -> ServiceHarness {
        let h = ServiceHarness(PubNubServiceConfiguration(keysets: [keyset]))
        signed(h, "grant", "channel=ch&r=1&w=1&ttl=60")
        signed(h, "grant", "channel=ch&auth=a1,a2&r=1&ttl=5")
        signed(h, "grant", "channel=other&auth=a1&w=1&ttl=0")
        signed(h, "grant", "channel-group=cg&r=1&m=1&ttl=10")
        signed(h, "grant", "channel-group=cg&auth=a1&r=1&ttl=10")
        return h
    }

    @Test func channelAndUserLevels() {
        let h = harness()
        #expect(signed(h, "audit", "channel=ch") == success("\"level\":\"channel\",\"subscribe_key\":\"pam-sub\",\"channels\":{\"ch\":"
            + "{\"r\":1,\"w\":1,\"m\":0,\"d\":0,\"ttl\":60,\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":5},"
            + "\"a2\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":5}}}}"))
        #expect(signed(h, "audit", "auth=a1&channel=ch") == success("\"level\":\"user\",\"subscribe_key\":\"pam-sub\",\"channel\":\"ch\","
            + "\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":5}}"))
        // Only auth grants on the channel; an indefinite grant reports ttl 0.
        #expect(signed(h, "audit", "channel=other") == success("\"level\":\"channel\",\"subscribe_key\":\"pam-sub\",\"channels\":{\"other\":"
            + "{\"auths\":{\"a1\":{\"r\":0,\"w\":1,\"m\":0,\"d\":0,\"ttl\":0}}}}"))
        // Nothing granted: an empty list.
        #expect(signed(h, "audit", "channel=none") == success("\"level\":\"channel\",\"subscribe_key\":\"pam-sub\",\"channels\":{}"))
    }

    @Test func groupLevelsAndTheWholeKeyset() {
        let h = harness()
        #expect(signed(h, "audit", "channel-group=cg") == success("\"level\":\"channel-group\",\"subscribe_key\":\"pam-sub\",\"channel-groups\":"
            + "{\"cg\":{\"r\":1,\"w\":0,\"m\":1,\"d\":0,\"ttl\":10,\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":10}}}}"))
        #expect(signed(h, "audit", "auth=a1&channel-group=cg") == success("\"level\":\"channel-group+auth\",\"subscribe_key\":\"pam-sub\","
            + "\"channel-group\":\"cg\",\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":10}}"))
        signed(h, "grant", "r=1&ttl=3")
        h.time.advance(seconds: 61)
        #expect(signed(h, "audit", "") == success("\"level\":\"subkey\",\"subscribe_key\":\"pam-sub\",\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":2,"
            + "\"channels\":{\"ch\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0,\"ttl\":59,\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":4},"
            + "\"a2\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":4}}},\"other\":{\"auths\":{\"a1\":{\"r\":0,\"w\":1,\"m\":0,\"d\":0,\"ttl\":0}}}},"
            + "\"objects\":{},\"channel-groups\":{\"cg\":{\"r\":1,\"w\":0,\"m\":1,\"d\":0,\"ttl\":9,"
            + "\"auths\":{\"a1\":{\"r\":1,\"w\":0,\"m\":0,\"d\":0,\"ttl\":9}}}}"))
    }

    @Test func expiredGrantsAreNotReported() {
        let h = harness()
        h.time.advance(seconds: 5 * 60)
        #expect(signed(h, "audit", "auth=a1,a2&channel=ch") == success("\"level\":\"user\",\"subscribe_key\":\"pam-sub\",\"channel\":\"ch\",\"auths\":{}"))
    }

    @Test func refusalsInTheAccessManagerLayout() {
        let h = harness()
        #expect(signed(h, "audit", "channel=ch", secret: "wrong")
            == (403, "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(signed(h, "audit", "channel=ch", skew: 601)
            == (403, "{\"message\":\"Invalid Timestamp\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(h.call("/v2/auth/audit/sub-key/pam-sub?channel=ch&uuid=admin")
            == (403, "{\"message\":\"Invalid Timestamp\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(h.call("/v2/auth/audit/sub-key/pam-sub?channel=ch&uuid=admin&timestamp=\(h.time.clock.unixSeconds)")
            == (403, "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(signed(h, "audit", "auth=a1")
            == (400, "{\"message\":\"Auth keys need a channel or channel group\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}\n"))
        #expect(h.call("/v2/auth/audit/sub-key/no-such-key?channel=ch")
            == (400, "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}\n"))
    }

    @Test func routeAndEndpointName() {
        let route = PubNubRoute.classify(HTTPRequest(method: "GET", target: "/v2/auth/audit/sub-key/pam-sub?channel=ch"))
        #expect((try? route.get())?.endpoint == .audit)
        #expect((try? route.get())?.subscribeKey == "pam-sub")
        #expect(PubNubEndpoint(rawValue: "audit") == .audit)
        #expect((try? PubNubRoute.classify(HTTPRequest(method: "GET", target: "/v2/auth/audit/pam-sub")).get()) == nil)
    }
}

// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AccessManagerTests {
    private let keyset = Keyset(subscribeKey: "pam-sub", publishKey: "pam-pub", secretKey: "sec")

    private func harness() -> ServiceHarness {
        ServiceHarness(PubNubServiceConfiguration(keysets: [keyset, Keyset(subscribeKey: "demo", publishKey: "demo", secretKey: "my-secret-key")]))
    }

    /// Sends a grant signed with the keyset's secret, stamped with the service clock.
    @discardableResult
    private func grant(_ h: ServiceHarness, _ params: String, secret: String = "sec", skew: Int64 = 0) -> (Int, String) {
        let path = "/v2/auth/grant/sub-key/pam-sub"
        let query = params + "&timestamp=\(h.time.clock.unixSeconds + skew)&uuid=admin&pnsdk=PubNub-Python%2F10.4.0"
        let items = HTTPRequest(method: "GET", target: path + "?" + query).queryItems ?? []
        let input = RequestSignature.input(method: "GET", publishKey: "pam-pub", path: path, query: items, body: "")
        return h.call(path + "?" + query + "&signature=" + RequestSignature.sign(input, secret: secret))
    }

    /// A 403 as recorded for subscribe / presence / history: compact, with a trailing line feed.
    private func forbidden(_ payload: String) -> String {
        "{\"message\":\"Forbidden\",\"payload\":{\(payload)},\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"
    }

    /// A publish 403 as recorded (2024): spaced, with a trailing line feed.
    private func publishForbidden(_ channel: String) -> String {
        "{\"message\": \"Forbidden\", \"payload\": {\"channels\": [\"\(channel)\"]}, \"error\": true, \"service\": \"Access Manager\", \"status\": 403}\n"
    }

    @Test func specWorkedExampleVerifies() {
        let target = "/v2/auth/grant/sub-key/demo?channel=ch1&pnsdk=PubNub-Python%2F10.4.0&r=1"
            + "&signature=v2.Acw2PxzXgOdXNObmXVtRhyComCb3_cRd6d0Uyttf04I&timestamp=1795243192&ttl=60&uuid=admin&w=1"
        let request = HTTPRequest(method: "GET", target: target)
        let input = RequestSignature.input(method: "GET", publishKey: "demo", path: request.rawPath,
                                           query: request.queryItems ?? [], body: "")
        #expect(input == "GET\ndemo\n/v2/auth/grant/sub-key/demo\nchannel=ch1&pnsdk=PubNub-Python%2F10.4.0&r=1&timestamp=1795243192&ttl=60&uuid=admin&w=1\n")
        #expect(RequestSignature.sign(input, secret: "my-secret-key") == "v2.Acw2PxzXgOdXNObmXVtRhyComCb3_cRd6d0Uyttf04I")
        let h = harness()
        h.time.set(unixSeconds: 1_795_243_192 + 600)
        #expect(h.call(target) == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"channel\",\"subscribe_key\":\"demo\",\"ttl\":60,"
            + "\"channels\":{\"ch1\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0,\"g\":0,\"u\":0,\"j\":0}}},\"service\":\"Access Manager\",\"status\":200}"))
        h.time.set(unixSeconds: 1_795_243_192 + 601)
        #expect(h.call(target) == (403, "{\"message\":\"Invalid Timestamp\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        h.time.set(unixSeconds: 1_795_243_192)
        #expect(h.call(target.replacingAll("&r=1&", "&r=0&"))
            == (403, "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
    }

    @Test func grantLevelsRenderAsRecorded() {
        let h = harness()
        let tail = "},\"service\":\"Access Manager\",\"status\":200}"
        #expect(grant(h, "r=1&w=1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"subkey\",\"subscribe_key\":\"pam-sub\",\"ttl\":1440,"
            + "\"r\":1,\"w\":1,\"m\":0,\"d\":0,\"g\":0,\"u\":0,\"j\":0" + tail))
        #expect(grant(h, "channel=ch&auth=a1&r=1&w=1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"user\",\"subscribe_key\":\"pam-sub\",\"ttl\":1440,"
            + "\"channel\":\"ch\",\"auths\":{\"a1\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0}}" + tail))
        #expect(grant(h, "channel-group=cg&r=1&w=1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"channel-group\",\"subscribe_key\":\"pam-sub\",\"ttl\":1440,"
            + "\"channel-groups\":{\"cg\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0}}" + tail))
        #expect(grant(h, "channel-group=cg&auth=a1&r=1&w=1&ttl=5") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"channel-group+auth\",\"subscribe_key\":\"pam-sub\",\"ttl\":5,"
            + "\"channel-groups\":\"cg\",\"auths\":{\"a1\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0}}" + tail))
        #expect(grant(h, "ttl=x").0 == 400)
    }

    /// Recorded 2020: channel-level grants carry all seven flags; a revoke without `ttl` reports
    /// `ttl` 1; uuid-level grants nest `auths` under `uuids`. Recorded 2016: auth-only grants are refused.
    @Test func channelRevokeUUIDAndAuthOnlyGrantsAsRecorded() {
        let h = harness()
        let tail = "},\"service\":\"Access Manager\",\"status\":200}"
        #expect(grant(h, "channel=demo&d=1&m=1&r=1&ttl=1440&w=1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"channel\","
            + "\"subscribe_key\":\"pam-sub\",\"ttl\":1440,\"channels\":{\"demo\":{\"r\":1,\"w\":1,\"m\":1,\"d\":1,\"g\":0,\"u\":0,\"j\":0}}" + tail))
        #expect(grant(h, "g=0&j=0&m=0&r=0&u=0&w=0") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"subkey\","
            + "\"subscribe_key\":\"pam-sub\",\"ttl\":1,\"r\":0,\"w\":0,\"m\":0,\"d\":0,\"g\":0,\"u\":0,\"j\":0" + tail))
        #expect(grant(h, "auth=demo&d=0&g=1&m=1&r=1&target-uuid=bob&ttl=1440&u=1&w=1") == (200, "{\"message\":\"Success\",\"payload\":{"
            + "\"level\":\"uuid\",\"subscribe_key\":\"pam-sub\",\"ttl\":1440,\"uuids\":{\"bob\":{\"auths\":{\"demo\":"
            + "{\"r\":1,\"w\":1,\"m\":1,\"d\":0,\"g\":1,\"u\":1,\"j\":0}}}}" + tail))
        #expect(grant(h, "auth=key&m=0&r=0&ttl=0&w=0") == (400, "{\"message\":\"Auth-only grants are reserved for future use\","
            + "\"error\":true,\"service\":\"Access Manager\",\"status\":400}\n"))
        // Two channels with an auth key: user level, four flags per auth (recorded 2019).
        #expect(grant(h, "auth=a&channel=c1,c2&r=1&w=1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"user\","
            + "\"subscribe_key\":\"pam-sub\",\"ttl\":1440,\"channels\":{\"c1\":{\"auths\":{\"a\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0}}},"
            + "\"c2\":{\"auths\":{\"a\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0}}}}" + tail))
    }

    @Test func endpointsEnforceGrantsUntilTheyExpire() {
        let h = harness()
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=k1") == (403, publishForbidden("ch1")))
        #expect(h.call("/publish/wrong/pam-sub/0/ch1/0/1?auth=k1") == (400, "[0,\"Invalid Key\",\"\(serviceFirstTT)\"]"))
        grant(h, "channel=ch1&auth=k1&r=1&w=1&ttl=1")
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=k1").0 == 200)
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=k2").0 == 403)
        #expect(h.call("/v2/subscribe/pam-sub/ch1,ch2/0?tt=0&channel-group=g&auth=k1")
            == (403, forbidden("\"channels\":[\"ch2\"],\"channel-groups\":[\":g\"]")))
        #expect(h.call("/v2/history/sub-key/pam-sub/channel/ch1?auth=k1").0 == 200)
        #expect(h.call("/v3/history/sub-key/pam-sub/channel/ch1?auth=k1", method: "DELETE") == (403, forbidden("\"channels\":[\"ch1\"]")))
        #expect(h.call("/v2/presence/sub-key/pam-sub?auth=k1")
            == (403, "{\"message\":\"Forbidden\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        h.time.advance(seconds: 60)
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=k1") == (403, publishForbidden("ch1")))
        // ttl=0 never lapses; a revoke is a grant with no flags.
        grant(h, "channel=ch1&r=1&w=1&ttl=0")
        h.time.advance(seconds: 10_000_000)
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=any").0 == 200)
        grant(h, "channel=ch1&ttl=0")
        #expect(h.call("/publish/pam-pub/pam-sub/0/ch1/0/1?auth=any").0 == 403)
    }

    @Test func channelGroupManagementNeedsManageAndSubscribeNeedsGroupRead() {
        let h = harness()
        let base = "/v1/channel-registration/sub-key/pam-sub/channel-group/cg"
        #expect(h.call(base + "?add=a&auth=k") == (403, forbidden("\"channel-groups\":[\":cg\"]")))
        grant(h, "channel-group=cg&auth=k&r=1&m=1")
        #expect(h.call(base + "?add=a&auth=k").0 == 200)
        #expect(h.call("/v2/subscribe/pam-sub/,/0?tt=0&channel-group=cg,cg-pnpres&auth=k").0 == 200)
    }

    @Test func whereNowNeedsTheSubkeyReadGrant() {
        let h = harness()
        let subkeyDenied = "{\"message\":\"Forbidden\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"
        #expect(h.call("/v2/presence/sub-key/pam-sub/uuid/bob?auth=k1") == (403, subkeyDenied))
        grant(h, "channel=ch1&auth=k1&r=1")
        #expect(h.call("/v2/presence/sub-key/pam-sub/uuid/bob?auth=k1") == (403, subkeyDenied))
        grant(h, "r=1")
        #expect(h.call("/v2/presence/sub-key/pam-sub/uuid/bob?auth=k1").0 == 200)
        #expect(h.call("/v2/presence/sub-key/open/uuid/bob").0 == 200)
    }

    @Test func unregisteredKeysAreOpenAndCannotGrant() {
        let h = harness()
        #expect(h.call("/publish/x/open/0/ch/0/1").0 == 200)
        #expect(h.call("/v2/auth/grant/sub-key/open?r=1&timestamp=1&signature=v2.x")
            == (400, "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}\n"))
    }
}

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EmbeddingAPITests {
    @Test func runtimeKeysetProgrammaticGrantAndInjection() throws {
        let h = ServiceHarness()
        #expect(h.call("/publish/p/late/0/ch/0/1").0 == 200)
        h.service.register(Keyset(subscribeKey: "late", publishKey: "p", secretKey: "s"))
        #expect(h.service.keyset(for: "late")?.secretKey == "s")
        #expect(h.call("/publish/p/late/0/ch/0/1?auth=k")
            == (403, "{\"message\": \"Forbidden\", \"payload\": {\"channels\": [\"ch\"]}, \"error\": true, \"service\": \"Access Manager\", \"status\": 403}\n"))
        h.service.grant(AccessGrant(channels: ["ch"], authKeys: ["k"], read: true, write: true, ttlMinutes: 1), subscribeKey: "late")
        #expect(h.call("/publish/p/late/0/ch/0/2?auth=k") == (200, "[1,\"Sent\",\"\(serviceFirstTT + 1)\"]"))
        let injected = try h.service.inject(subscribeKey: "late", channel: "ch", message: "{\"x\": 1}", publisher: "harness")
        #expect(injected == serviceFirstTT + 2)
        #expect(h.call("/v2/history/sub-key/late/channel/ch?auth=k") == (200, "[[1,2,{\"x\": 1}],\(serviceFirstTT),\(serviceFirstTT + 2)]"))
        h.time.advance(seconds: 60)
        #expect(h.call("/v2/history/sub-key/late/channel/ch?auth=k").0 == 403)
        #expect(throws: PubNubServiceError.invalidJSON("{")) { try h.service.inject(subscribeKey: "late", channel: "ch", message: "{") }
        #expect(throws: PubNubServiceError.invalidChannel("a,b")) { try h.service.inject(subscribeKey: "late", channel: "a,b", message: "1") }
    }

    @Test func resetsForgetStateAndGrantsButKeepKeysets() {
        let h = ServiceHarness()
        let denied = "{\"message\": \"Forbidden\", \"payload\": {\"channels\": [\"ch\"]}, \"error\": true, \"service\": \"Access Manager\", \"status\": 403}\n"
        h.service.register(Keyset(subscribeKey: "kept", publishKey: "p", secretKey: "s"))
        for resetAll in [false, true] {
            h.service.grant(AccessGrant(channels: ["ch"], read: true, write: true), subscribeKey: "kept")
            #expect(h.call("/publish/p/kept/0/ch/0/1").0 == 200)
            #expect(h.call("/publish/p/open/0/ch/0/1").0 == 200)
            if resetAll { h.service.reset() } else { h.service.reset(subscribeKey: "kept") }
            // The keyset is still registered: a wrong publish key is refused and the grant is gone.
            #expect(h.service.keyset(for: "kept")?.secretKey == "s")
            #expect(h.call("/publish/wrong/kept/0/ch/0/1").1.contains("Invalid Key"))
            #expect(h.call("/publish/p/kept/0/ch/0/1") == (403, denied))
            h.service.grant(AccessGrant(channels: ["ch"], read: true), subscribeKey: "kept")
            #expect(h.call("/v2/history/sub-key/kept/channel/ch") == (200, "[[],0,0]"))
        }
        // The open key lost its history only with the full reset.
        #expect(h.call("/v2/history/sub-key/open/channel/ch").1.hasPrefix("[[],0,0]"))
        #expect(h.service.keyset(for: "open") == nil)
    }
}

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HostileInputTests {
    @Test func extremeNumbersAreRefusedOrClamped() {
        let h = ServiceHarness(PubNubServiceConfiguration(
            keysets: [Keyset(subscribeKey: "pam", publishKey: "p", secretKey: "s")], maxMessagesPerSubscribeResponse: 0))
        #expect(h.call("/publish/demo/demo/0/ch/0/1?ttl=\(Int.max)").0 == 200)
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=1").1.hasSuffix("\"d\":1}]}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?uuid=u&heartbeat=\(Int.max)").0 == 200)
        h.scheduler.advance(by: .seconds(86_399))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u").1.contains("[\"ch\"]"))
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u").1.contains("[]"))
        #expect(h.call("/v2/auth/grant/sub-key/pam?timestamp=\(Int64.min)&signature=v2.x").0 == 403)
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=99999999999999999999999").0 == 400)
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=\(Int.max)").0 == 200)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(h.call("/publish/demo/demo/0/ch/0", method: "POST", body: deep).0 == 400)
        h.service.grant(AccessGrant(read: true, ttlMinutes: Int.max), subscribeKey: "pam")
        #expect(h.call("/v2/history/sub-key/pam/channel/ch").0 == 200)
    }
}

extension String {
    /// `self` with every `old` replaced by `new` (no Foundation in this target).
    func replacingAll(_ old: String, _ new: String) -> String {
        split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
    }
}

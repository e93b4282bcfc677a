// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer
import PubNubToken

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct GrantTokenTests {
    @Test func grantAnswersTheTokenInTheLiveEnvelope() throws {
        let a = AccessV3Harness()
        let body = AccessV3Harness.body(channels: "\"room\": 239", patterns: "\"^room-[0-9]+$\": 3", uuid: "alice", meta: "{\"k\": [1, 2.5, \"s\"]}")
        let capture = a.h.send(a.signed("POST", "/v3/pam/v3-sub/grant", body: body), method: "POST", body: body)
        #expect(capture.status == 200)
        #expect(capture.response?.headers["Content-Type"] == "text/javascript; charset=UTF-8")
        #expect(capture.response?.headers["Cache-Control"] == "no-cache, no-store, must-revalidate")
        let text = try #require(capture.body)
        #expect(text.hasPrefix("{\"data\":{\"message\":\"Success\",\"token\":\"qEF2"))
        #expect(text.hasSuffix("\"},\"service\":\"Access Manager\",\"status\":200}"))
        let token = try #require(try JSONValue.parse(text)["data"]?["token"]?.stringValue)
        #expect(token.hasSuffix("=") || token.count % 4 == 0)
        let parsed = try AccessToken.parse(token)
        #expect(parsed.ttl == 60)
        #expect(parsed.timestamp == a.h.time.clock.unixSeconds)
        #expect(parsed.authorizedUUID == "alice")
        #expect(parsed.resources[.channels] == [TokenGrantEntry(name: "room", mask: 239)])
        #expect(parsed.patterns[.channels] == [TokenGrantEntry(name: "^room-[0-9]+$", mask: 3)])
        #expect(parsed.metaJSON == ["k": [1, .double(2.5), "s"]])
        #expect(parsed.signature.count == 32)
    }

    @Test func withoutAuthorizedUUIDTheMapHasSevenKeys() {
        let a = AccessV3Harness()
        #expect(a.token(AccessV3Harness.body(channels: "\"c\": 1")).hasPrefix("p0F2"))
    }

    @Test func ttlAsStringAndRangeEdges() {
        let a = AccessV3Harness()
        #expect(a.grant(AccessV3Harness.body(ttl: "\"15\"", channels: "\"c\": 1")).0 == 200)
        #expect(a.grant(AccessV3Harness.body(ttl: "1", channels: "\"c\": 1")).0 == 200)
        #expect(a.grant(AccessV3Harness.body(ttl: "43200", channels: "\"c\": 1")).0 == 200)
        let invalid = "{\"error\":{\"message\":\"Invalid ttl\",\"source\":\"grant\",\"details\":[{\"message\":\"Range should be 1 to 43200 minute(s).\","
            + "\"location\":\"ttl\",\"locationType\":\"body\"}]},\"service\":\"Access Manager\",\"status\":400}"
        #expect(a.grant(AccessV3Harness.body(ttl: "43201", channels: "\"c\": 1")) == (400, invalid))
        #expect(a.grant(AccessV3Harness.body(ttl: "0", channels: "\"c\": 1")) == (400, invalid))
        #expect(a.grant(AccessV3Harness.body(ttl: "\"ten\"", channels: "\"c\": 1")) == (400, invalid))
    }

    @Test func zeroPermissionsAndBadPatternsGetTheirErrors() {
        let a = AccessV3Harness()
        #expect(a.grant(AccessV3Harness.body(uuids: "\"uuid-1\": 0")) == (400,
            "{\"error\":{\"message\":\"Invalid permissions\",\"source\":\"grant\",\"details\":[{\"message\":\"Unexpected value: "
            + "`permissions.resources.uuids.uuid-1` must be positive and non-zero.\",\"location\":\"permissions.resources.uuids.uuid-1\","
            + "\"locationType\":\"body\"}]},\"service\":\"Access Manager\",\"status\":400}"))
        let repeatBody = "{\"ttl\": 5, \"permissions\": {\"resources\": {}, \"patterns\": {\"uuids\": {\"!<[^>]+>++\": 32}}, \"meta\": {}}}"
        #expect(a.grant(repeatBody) == (400,
            "{\"error\":{\"message\":\"Invalid RegExp\",\"source\":\"grant\",\"details\":[{\"message\":\"Syntax error: multiple repeat.\","
            + "\"location\":\"permissions.patterns.uuids.!<[^>]+>++\",\"locationType\":\"body\"}]},\"service\":\"Access Manager\",\"status\":400}"))
        let capturing = a.grant(AccessV3Harness.body(patterns: "\"^(a|b)$\": 1"))
        #expect(capturing.0 == 400)
        #expect(capturing.1.contains("\"message\":\"Only non-capturing groups are allowed. Try replacing `(` with `(?:`.\""))
        #expect(a.grant(AccessV3Harness.body(patterns: "\"^(?:a|b)+$\": 1")).0 == 200)
        #expect(a.grant(AccessV3Harness.body()).0 == 400)
    }

    @Test func unsignedStaleOrWronglySignedGrantsAreRefused() {
        let a = AccessV3Harness()
        let body = AccessV3Harness.body(channels: "\"c\": 1")
        #expect(a.h.send("/v3/pam/v3-sub/grant?uuid=x", method: "POST", body: body).status == 403)
        #expect(a.grant(body, skew: -601).0 == 403)
        let forged = a.signed("POST", "/v3/pam/v3-sub/grant", body: body, secret: "other")
        #expect(a.h.send(forged, method: "POST", body: body).body
            == "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n")
        // The signature covers the body: another body under the same signature fails.
        let signed = a.signed("POST", "/v3/pam/v3-sub/grant", body: body)
        #expect(a.h.send(signed, method: "POST", body: AccessV3Harness.body(channels: "\"c\": 3")).status == 403)
    }

    @Test func revokeThenRevokedAndExpiredAnswers() {
        let a = AccessV3Harness()
        let token = a.token(AccessV3Harness.body(ttl: "1", channels: "\"c\": 2"))
        #expect(a.revoke(token) == (200, "{\"data\":{\"message\":\"Success\"},\"service\":\"Access Manager\",\"status\":200}"))
        #expect(a.publish("c", token: token) == 403)
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: token).1
            == "{\"error\":true,\"status\":403,\"service\":\"Access Manager\",\"message\":\"Token is revoked\"}\n")
        let other = a.token(AccessV3Harness.body(ttl: "1", channels: "\"c\": 2"))
        a.h.time.advance(seconds: 60)
        #expect(a.revoke(other) == (400, "{\"error\":{\"details\":[{\"location\":\"token\",\"locationType\":\"path\",\"message\":\"Token is expired.\"}],"
            + "\"message\":\"Invalid token\",\"source\":\"revoke\"},\"service\":\"Access Manager\",\"status\":400}"))
        #expect(a.revoke("not-a-token").0 == 400)
    }
}

// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer
import PubNubToken

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TokenEnforcementTests {
    @Test func eachPermissionBitAdmitsItsOperations() {
        let a = AccessV3Harness()
        let write = a.token(AccessV3Harness.body(channels: "\"c\": 2"))
        #expect(a.publish("c", token: write) == 200)
        #expect(a.get("/v2/history/sub-key/v3-sub/channel/c", token: write).0 == 403)
        let read = a.token(AccessV3Harness.body(channels: "\"c\": 1"))
        #expect(a.get("/v2/history/sub-key/v3-sub/channel/c", token: read).0 == 200)
        #expect(a.get("/v2/presence/sub-key/v3-sub/channel/c", token: read).0 == 200)
        #expect(a.publish("c", token: read) == 403)
        let delete = a.token(AccessV3Harness.body(channels: "\"c\": 8"))
        #expect(a.h.send("/v3/history/sub-key/v3-sub/channel/c?uuid=client&auth=" + PercentDecoding.encode(delete), method: "DELETE").status == 200)
        #expect(a.h.send("/v3/history/sub-key/v3-sub/channel/c?uuid=client&auth=" + PercentDecoding.encode(read), method: "DELETE").status == 403)
        let manage = a.token(AccessV3Harness.body(groups: "\"g\": 4"))
        #expect(a.get("/v1/channel-registration/sub-key/v3-sub/channel-group/g?add=c", token: manage).0 == 200)
        #expect(a.get("/v1/channel-registration/sub-key/v3-sub/channel-group/g?add=c", token: read).0 == 403)
        // Time and where-now need nothing; subkey-wide reads need the secret key.
        #expect(a.get("/v2/presence/sub-key/v3-sub/uuid/client", token: read).0 == 200)
        #expect(a.get("/v2/presence/sub-key/v3-sub", token: read).0 == 403)
    }

    @Test func deniedChannelsAreNamedInTheLegacyBody() {
        let a = AccessV3Harness()
        let token = a.token(AccessV3Harness.body(channels: "\"a\": 1"))
        #expect(a.get("/v2/presence/sub-key/v3-sub/channel/a,b", token: token) == (403,
            "{\"message\":\"Forbidden\",\"payload\":{\"channels\":[\"b\"]},\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(a.get("/publish/v3-pub/v3-sub/0/a/0/%22x%22", token: token).1
            == "{\"message\": \"Forbidden\", \"payload\": {\"channels\": [\"a\"]}, \"error\": true, \"service\": \"Access Manager\", \"status\": 403}\n")
    }

    @Test func patternsAreRegularExpressionsAndExactEntriesDecideFirst() {
        let a = AccessV3Harness()
        let token = a.token(AccessV3Harness.body(channels: "\"room-7\": 1", patterns: "\"^room-[0-9]+$\": 3"))
        #expect(a.publish("room-42", token: token) == 200)
        #expect(a.publish("room-x", token: token) == 403)
        // The exact entry (read only) wins over the matching pattern's write.
        #expect(a.publish("room-7", token: token) == 403)
    }

    @Test func authorizedUUIDMustMatchTheRequest() {
        let a = AccessV3Harness()
        let token = a.token(AccessV3Harness.body(channels: "\"c\": 2", uuid: "alice"))
        #expect(a.publish("c", token: token, uuid: "alice") == 200)
        #expect(a.publish("c", token: token, uuid: "mallory") == 403)
    }

    @Test func expiryFollowsTheServiceClockAndTheAdminOffset() {
        let a = AccessV3Harness()
        let token = a.token(AccessV3Harness.body(ttl: "2", channels: "\"c\": 2"))
        a.h.time.advance(seconds: 119)
        #expect(a.publish("c", token: token) == 200)
        a.h.service.advanceAccessClock(subscribeKey: "v3-sub", seconds: 1)
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: token)
            == (403, "{\"error\":true,\"status\":403,\"service\":\"Access Manager\",\"message\":\"Token is expired\"}\n"))
    }

    @Test func tokensOfAnotherKeysetOrEditedAreInvalid() throws {
        let a = AccessV3Harness()
        var token = try AccessToken.parse(a.token(AccessV3Harness.body(channels: "\"c\": 2")))
        token.resources[.channels] = [TokenGrantEntry(name: "c", mask: 255)]
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: token.text).1
            == "{\"error\":true,\"status\":403,\"service\":\"Access Manager\",\"message\":\"Invalid token\"}\n")
    }

    @Test func v2GrantsStillApplyToAuthKeysBesideTokens() {
        let a = AccessV3Harness()
        a.h.service.grant(AccessGrant(channels: ["c"], groups: [], authKeys: ["key-1"], read: false, write: true, manage: false,
                                      delete: false, ttlMinutes: 60), subscribeKey: "v3-sub")
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: "key-1").0 == 200)
        #expect(a.get("/publish/v3-pub/v3-sub/0/c/0/%22x%22", token: "key-2").0 == 403)
        let token = a.token(AccessV3Harness.body(channels: "\"c\": 2"))
        #expect(a.publish("c", token: token) == 200)
    }

    @Test func secretSignedRequestsHaveRootRights() {
        let a = AccessV3Harness()
        let signed = a.signed("GET", "/publish/v3-pub/v3-sub/0/c/0/%22x%22", query: "uuid=server")
        #expect(a.h.send(signed).status == 200)
        #expect(a.h.send(a.signed("GET", "/v2/presence/sub-key/v3-sub", query: "uuid=server")).status == 200)
        let forged = a.signed("GET", "/publish/v3-pub/v3-sub/0/c/0/%22x%22", query: "uuid=server", secret: "nope")
        #expect(a.h.send(forged).body == "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n")
        let stale = a.signed("GET", "/publish/v3-pub/v3-sub/0/c/0/%22x%22", query: "uuid=server", skew: 700)
        #expect(a.h.send(stale).body == "{\"message\":\"Invalid Timestamp\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n")
    }

    @Test func permissionTableIsPure() {
        var route = PubNubRoute(endpoint: .subscribe, subscribeKey: "k", channels: ["a"], channelGroups: ["g"])
        #expect(AccessRequirements.rule(for: route) == .resources([
            AccessRequirement(resource: .channel("a"), permission: .read), AccessRequirement(resource: .group("g"), permission: .read)]))
        route.endpoint = .leave
        #expect(AccessRequirements.rule(for: route) == .resources([
            AccessRequirement(resource: .channel("a"), permission: .read), AccessRequirement(resource: .group("g"), permission: .read)]))
        route.endpoint = .whereNow
        #expect(AccessRequirements.rule(for: route) == .open)
        route.endpoint = .grantToken
        #expect(AccessRequirements.rule(for: route) == .secretKeyOnly)
        #expect(AccessRequirements.objects(.setMemberships, uuid: "u", channels: ["x"]) == .resources([
            AccessRequirement(resource: .uuid("u"), permission: .update), AccessRequirement(resource: .channel("x"), permission: .join)]))
    }
}

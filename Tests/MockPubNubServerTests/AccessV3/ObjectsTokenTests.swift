// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer
import PubNubToken

/// App Context (`/v2/objects/…`) under v3 tokens: the permission table's `objects` rules, the
/// objects-shaped 403, revocation, and secret-key requests with root rights.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ObjectsTokenTests {
    static let forbidden =
        "{\"status\":403,\"error\":{\"message\":\"Supplied authorization key does not have the permissions required to perform this operation.\",\"source\":\"objects\"}}"
    static let get = 32, update = 64, join = 128, manage = 4, delete = 8

    private func route(_ method: String, _ target: String, body: String = "") -> PubNubRoute? {
        let request = HTTPRequest(method: method, target: target, body: Array(body.utf8))
        guard var route = try? PubNubRoute.classify(request).get() else { return nil }
        if let access = route.objectsAccess, access.readsBody {
            route.objectsAccess?.namedIDs = ObjectsAccess.namedIDs(
                in: request, key: access.operation == .setMemberships ? "channel" : "uuid")
        }
        return route
    }

    private func rule(_ method: String, _ target: String, body: String = "") -> AccessRule? {
        route(method, target, body: body).flatMap(AccessRequirements.rule(for:))
    }

    private func need(_ resource: AccessResource, _ permission: TokenPermissions) -> AccessRequirement {
        AccessRequirement(resource: resource, permission: permission)
    }

    /// A request with `auth=token`; (status, body, Content-Type).
    private func call(_ a: AccessV3Harness, _ method: String, _ path: String, token: String, uuid: String = "client",
                      body: String = "") -> (Int, String, String?) {
        let capture = a.h.send(path + "?uuid=\(uuid)&auth=" + PercentDecoding.encode(token), method: method, body: body)
        return (capture.status ?? -1, capture.body ?? "", capture.response?.headers["Content-Type"])
    }

    /// A request signed with the secret key (root rights); (status, body).
    private func root(_ a: AccessV3Harness, _ method: String, _ path: String, body: String = "") -> (Int, String) {
        let capture = a.h.send(a.signed(method, path, body: body), method: method, body: body)
        return (capture.status ?? -1, capture.body ?? "")
    }

    @Test func objectsRoutesExposeTheirOperationAndResources() {
        #expect(rule("GET", "/v2/objects/s/uuids/u") == .resources([need(.uuid("u"), .get)]))
        #expect(rule("HEAD", "/v2/objects/s/uuids/u") == .resources([need(.uuid("u"), .get)]))
        #expect(rule("PATCH", "/v2/objects/s/uuids/u") == .resources([need(.uuid("u"), .update)]))
        #expect(rule("DELETE", "/v2/objects/s/uuids/u") == .resources([need(.uuid("u"), .delete)]))
        #expect(rule("GET", "/v2/objects/s/channels/c") == .resources([need(.channel("c"), .get)]))
        #expect(rule("PATCH", "/v2/objects/s/channels/c") == .resources([need(.channel("c"), .update)]))
        #expect(rule("DELETE", "/v2/objects/s/channels/c") == .resources([need(.channel("c"), .delete)]))
        #expect(rule("GET", "/v2/objects/s/uuids") == .secretKeyOnly)
        #expect(rule("GET", "/v2/objects/s/channels") == .secretKeyOnly)
        #expect(rule("GET", "/v2/objects/s/uuids/u/channels") == .resources([need(.uuid("u"), .get)]))
        #expect(rule("GET", "/v2/objects/s/channels/c/uuids") == .resources([need(.channel("c"), .get)]))
        // Membership and member changes name their second resources in the body: set, then delete, once each.
        #expect(rule("PATCH", "/v2/objects/s/uuids/u/channels",
                     body: "{\"set\":[{\"channel\":{\"id\":\"a\"}}],\"delete\":[{\"channel\":{\"id\":\"b\"}},{\"channel\":{\"id\":\"a\"}}]}")
            == .resources([need(.uuid("u"), .update), need(.channel("a"), .join), need(.channel("b"), .join)]))
        #expect(rule("PATCH", "/v2/objects/s/channels/c/uuids", body: "{\"set\":[{\"uuid\":{\"id\":\"x\"}},{\"uuid\":{\"id\":\"y\"}}]}")
            == .resources([need(.channel("c"), .manage), need(.uuid("x"), .update), need(.uuid("y"), .update)]))
        // A body the handler will refuse names nothing; the path's resource is still checked.
        #expect(rule("PATCH", "/v2/objects/s/uuids/u/channels", body: "{not json") == .resources([need(.uuid("u"), .update)]))
        #expect(route("PATCH", "/v2/objects/s/channels/c/uuids", body: "{\"set\":[{\"channel\":{\"id\":\"a\"}}]}")?.objectsAccess?.namedIDs == [])
    }

    @Test func getOnAUUIDReadsItsMetadataAndNothingElse() {
        let a = AccessV3Harness()
        // Signed with the secret key: root rights, no v2 grant consulted.
        let (status, created) = root(a, "PATCH", "/v2/objects/v3-sub/uuids/alice", body: "{\"name\":\"Alice\"}")
        #expect(status == 200, "\(created)")
        let token = a.token(AccessV3Harness.body(uuids: "\"alice\": \(Self.get)"))
        let read = call(a, "GET", "/v2/objects/v3-sub/uuids/alice", token: token)
        #expect(read.0 == 200)
        #expect(read.1 == created)
        #expect(call(a, "GET", "/v2/objects/v3-sub/uuids/bob", token: token).1 == Self.forbidden)
        #expect(call(a, "GET", "/v2/objects/v3-sub/uuids/alice/channels", token: token).0 == 200)
        // A uuid pattern admits the names it matches (past the gate: 404, no metadata yet).
        let pattern = a.token("{\"ttl\": 60, \"permissions\": {\"resources\": {}, \"patterns\": {\"uuids\": {\"^user-[0-9]+$\": \(Self.get)}}}}")
        #expect(call(a, "GET", "/v2/objects/v3-sub/uuids/user-1", token: pattern)
            == (404, "{\"status\":404,\"error\":{\"message\":\"Requested object was not found.\",\"source\":\"objects\"}}", "application/json"))
        #expect(call(a, "GET", "/v2/objects/v3-sub/uuids/user-x", token: pattern).0 == 403)
    }

    @Test func writesWithoutUpdateOrDeleteAreRefusedWithTheObjectsBody() {
        let a = AccessV3Harness()
        let reader = a.token(AccessV3Harness.body(channels: "\"room\": \(Self.get)", uuids: "\"alice\": \(Self.get)"))
        #expect(call(a, "PATCH", "/v2/objects/v3-sub/uuids/alice", token: reader, body: "{\"name\":\"A\"}")
            == (403, Self.forbidden, "application/json"))
        #expect(call(a, "PATCH", "/v2/objects/v3-sub/channels/room", token: reader, body: "{\"name\":\"R\"}")
            == (403, Self.forbidden, "application/json"))
        // The refused write changed nothing.
        #expect(root(a, "GET", "/v2/objects/v3-sub/uuids/alice").0 == 404)
        let writer = a.token(AccessV3Harness.body(uuids: "\"alice\": \(Self.update)"))
        #expect(call(a, "PATCH", "/v2/objects/v3-sub/uuids/alice", token: writer, body: "{\"name\":\"A\"}").0 == 200)
        #expect(call(a, "DELETE", "/v2/objects/v3-sub/uuids/alice", token: writer).1 == Self.forbidden)
        let remover = a.token(AccessV3Harness.body(uuids: "\"alice\": \(Self.delete)"))
        #expect(call(a, "DELETE", "/v2/objects/v3-sub/uuids/alice", token: remover)
            == (200, "{\"status\":200,\"data\":null}", "application/json"))
    }

    @Test func membershipChangesNeedUpdateOnTheUUIDAndJoinOnEveryChannelNamed() {
        let a = AccessV3Harness()
        let path = "/v2/objects/v3-sub/uuids/alice/channels"
        let setBoth = "{\"set\":[{\"channel\":{\"id\":\"ch-1\"}},{\"channel\":{\"id\":\"ch-2\"}}]}"
        let token = a.token(AccessV3Harness.body(channels: "\"ch-1\": \(Self.join)", uuids: "\"alice\": \(Self.update)"))
        #expect(call(a, "PATCH", path, token: token, body: setBoth) == (403, Self.forbidden, "application/json"))
        let one = call(a, "PATCH", path, token: token, body: "{\"set\":[{\"channel\":{\"id\":\"ch-1\"}}]}")
        #expect(one.0 == 200)
        #expect(one.1.contains("\"channel\":{\"id\":\"ch-1\"}"))
        #expect(call(a, "PATCH", path, token: token, body: "{\"delete\":[{\"channel\":{\"id\":\"ch-2\"}}]}").1 == Self.forbidden)
        // join on every channel through a pattern, but no update on the uuid.
        let joinOnly = a.token(AccessV3Harness.body(patterns: "\"^ch-[0-9]+$\": \(Self.join)"))
        #expect(call(a, "PATCH", path, token: joinOnly, body: setBoth).1 == Self.forbidden)
        let both = a.token(AccessV3Harness.body(patterns: "\"^ch-[0-9]+$\": \(Self.join)", uuids: "\"alice\": \(Self.update)"))
        #expect(call(a, "PATCH", path, token: both, body: setBoth).0 == 200)
        // Reading memberships needs get on the uuid, not update.
        #expect(call(a, "GET", path, token: both).1 == Self.forbidden)
    }

    @Test func memberChangesNeedManageOnTheChannelAndUpdateOnEveryUUIDNamed() {
        let a = AccessV3Harness()
        let path = "/v2/objects/v3-sub/channels/room/uuids"
        let setOne = "{\"set\":[{\"uuid\":{\"id\":\"u-1\"}}]}"
        let token = a.token(AccessV3Harness.body(channels: "\"room\": \(Self.manage)", uuids: "\"u-1\": \(Self.update)"))
        #expect(call(a, "PATCH", path, token: token, body: setOne).0 == 200)
        #expect(call(a, "PATCH", path, token: token, body: "{\"set\":[{\"uuid\":{\"id\":\"u-1\"}},{\"uuid\":{\"id\":\"u-2\"}}]}")
            == (403, Self.forbidden, "application/json"))
        let noManage = a.token(AccessV3Harness.body(channels: "\"room\": \(Self.update)", uuids: "\"u-1\": \(Self.update)"))
        #expect(call(a, "PATCH", path, token: noManage, body: setOne).1 == Self.forbidden)
        #expect(call(a, "GET", path, token: token).1 == Self.forbidden)
        let getter = a.token(AccessV3Harness.body(channels: "\"room\": \(Self.get)"))
        let members = call(a, "GET", path, token: getter)
        #expect(members.0 == 200)
        #expect(members.1.contains("\"uuid\":{\"id\":\"u-1\"}"))
    }

    @Test func revokedTokenIsRefusedOnAppContext() {
        let a = AccessV3Harness()
        #expect(root(a, "PATCH", "/v2/objects/v3-sub/channels/room", body: "{\"name\":\"Room\"}").0 == 200)
        let token = a.token(AccessV3Harness.body(channels: "\"room\": \(Self.get)"))
        #expect(call(a, "GET", "/v2/objects/v3-sub/channels/room", token: token).0 == 200)
        #expect(a.revoke(token).0 == 200)
        #expect(call(a, "GET", "/v2/objects/v3-sub/channels/room", token: token)
            == (403, "{\"error\":true,\"status\":403,\"service\":\"Access Manager\",\"message\":\"Token is revoked\"}\n",
                "text/javascript; charset=UTF-8"))
    }

    @Test func listsNeedTheSecretKeyAndAuthorizedUUIDMustMatch() {
        let a = AccessV3Harness()
        let everything = a.token("{\"ttl\": 60, \"permissions\": {\"resources\": {}, \"patterns\": {\"uuids\": {\".*\": 255}, \"channels\": {\".*\": 255}}}}")
        #expect(call(a, "GET", "/v2/objects/v3-sub/uuids", token: everything) == (403, Self.forbidden, "application/json"))
        #expect(call(a, "GET", "/v2/objects/v3-sub/channels", token: everything).1 == Self.forbidden)
        #expect(root(a, "GET", "/v2/objects/v3-sub/uuids") == (200, "{\"status\":200,\"data\":[]}"))
        let alices = a.token(AccessV3Harness.body(uuids: "\"alice\": \(Self.update)", uuid: "alice"))
        #expect(call(a, "PATCH", "/v2/objects/v3-sub/uuids/alice", token: alices, uuid: "mallory", body: "{\"name\":\"M\"}")
            == (403, Self.forbidden, "application/json"))
        #expect(call(a, "PATCH", "/v2/objects/v3-sub/uuids/alice", token: alices, uuid: "alice", body: "{\"name\":\"A\"}").0 == 200)
    }
}

// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The v2 audit and here now paging over loopback sockets: exact bodies as a client reads them.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(2)))) struct EndToEndAuditAndPagingTests {
    /// A v2-signed Access Manager request for the `sub` keyset (secret `sec`), stamped now.
    private func signed(_ server: EndToEndServer, _ call: String, _ params: String, secret: String = "sec") throws -> (Int, String) {
        let path = "/v2/auth/\(call)/sub-key/sub"
        let query = params + "&timestamp=\(Int64(ServiceClock.system.unixSeconds))&uuid=admin"
        let items = HTTPRequest(method: "GET", target: path + "?" + query).queryItems ?? []
        let input = RequestSignature.input(method: "GET", publishKey: "pub", path: path, query: items, body: "")
        return try server.call(path + "?" + query + "&signature=" + RequestSignature.sign(input, secret: secret))
    }

    @Test func auditAnswersTheGrantsInForceAndRefusesABadSignature() throws {
        let server = try EndToEndServer(keysets: [Keyset(subscribeKey: "sub", publishKey: "pub", secretKey: "sec")])
        #expect(try signed(server, "grant", "channel=room&auth=k1&r=1&w=1&ttl=0").0 == 200)
        #expect(try signed(server, "audit", "channel=room&auth=k1") == (200, "{\"message\":\"Success\",\"payload\":{\"level\":\"user\","
            + "\"subscribe_key\":\"sub\",\"channel\":\"room\",\"auths\":{\"k1\":{\"r\":1,\"w\":1,\"m\":0,\"d\":0,\"ttl\":0}}},"
            + "\"service\":\"Access Manager\",\"status\":200}"))
        #expect(try signed(server, "audit", "channel=room", secret: "nope")
            == (403, "{\"message\":\"Signature Does Not Match\",\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(try signed(server, "audit", "auth=k1")
            == (400, "{\"message\":\"Auth keys need a channel or channel group\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}\n"))
    }

    @Test func hereNowPagesTheOccupantsAndKeepsTheCounts() throws {
        let server = try EndToEndServer()
        for uuid in ["u1", "u2", "u3"] {
            #expect(try server.call("/v2/presence/sub-key/demo/channel/lobby/heartbeat?uuid=\(uuid)&heartbeat=60").0 == 200)
        }
        #expect(try server.call("/v2/presence/sub-key/demo/channel/lobby?limit=2&offset=1")
            == (200, "{\"message\":\"OK\",\"occupancy\":3,\"service\":\"Presence\",\"status\":200,\"uuids\":[\"u2\",\"u3\"]}"))
        #expect(try server.call("/v2/presence/sub-key/demo/channel/lobby?limit=0")
            == (200, "{\"message\":\"OK\",\"occupancy\":3,\"service\":\"Presence\",\"status\":200}"))
        #expect(try server.call("/v2/presence/sub-key/demo/channel/lobby?offset=-1") == (400, "{\"status\": 400, \"error\": 1, \"message\": "
            + "\"Invalid value for parameter 'offset': '-1' (expected a non-negative integer)\", \"service\": \"Presence\"}"))
    }
}

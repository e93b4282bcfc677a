// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// The user authentication endpoint and peer signin under `/__admin/pusher/`, and a real socket
/// signing in with the endpoint's answer: signin_success, the watchlist's status, online/offline.
@Suite("Pusher user routes", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherUserRouteTests {
    static let userData = #"{"id":"ann","user_info":{"name":"ann"},"watchlist":["bob","carol"]}"#

    @Test func userEndpointSignsTheUserDataWithTheWatchlist() throws {
        try withPusherServer { server in
            let answer = try server.http("POST", "/__admin/pusher/user-auth/test-key/ann?watchlist=bob,carol", body: "socket_id=1.2")
            #expect(answer.status == 200)
            let auth = PusherSignatures.userAuth(app: testApp, socketID: "1.2", userData: Self.userData)
            #expect(answer.bodyText == #"{"auth":"\#(auth)","user_data":\#(jsonString(Self.userData))}"#)
            let plain = try server.http("POST", "/__admin/pusher/user-auth/test-key/u%201", body: "socket_id=1.2")
            #expect(try JSONValue.parse(plain.body)["user_data"]?.stringValue == #"{"id":"u 1","user_info":{"name":"u 1"}}"#)
            let bad = try server.http("POST", "/__admin/pusher/user-auth/test-key/ann?signature=bad", body: "socket_id=1.2")
            #expect(try JSONValue.parse(bad.body)["auth"]?.stringValue == "test-key:" + String(repeating: "0", count: 64))

            let refused = try server.http("POST", "/__admin/pusher/user-auth/test-key/refused", body: "socket_id=1.2")
            #expect(refused.status == 403)
            #expect(refused.bodyText == #"{"error":"forbidden"}"#)
            #expect(try server.http("POST", "/__admin/pusher/user-auth/test-key/ann", body: "channel_name=x").bodyText
                == PusherHarnessRouteTests.adminError(400, "socket_id: required (form-encoded)"))
            #expect(try server.http("POST", "/__admin/pusher/user-auth/test-key/ann?signature=odd", body: "socket_id=1.2").status == 400)
            #expect(try server.http("POST", "/__admin/pusher/user-auth/nope/ann", body: "socket_id=1.2").bodyText
                == PusherHarnessRouteTests.adminError(404, #"no Pusher app with key "nope""#))
            #expect(try server.http("GET", "/__admin/pusher/user-auth/test-key/ann").status == 405)

            let record = try JSONValue.parse(server.http("GET", "/__admin/pusher/record?app_key=test-key").body)
            #expect(record["authorizations"]?.arrayValue?.compactMap { $0["channel"]?.stringValue } == ["#user:ann", "#user:u 1", "#user:ann"])
            #expect(record["refused"] == 1)
        }
    }

    @Test func appsGetTheirWatchlistSettings() throws {
        try withPusherServer { server in
            let body = #"{"id":"21","key":"watch-key","secret":"s","watchlistLimit":1,"watchlistInitial":"online"}"#
            let registered = try server.http("POST", "/__admin/pusher/apps", body: body)
            #expect(registered.status == 200)
            #expect(server.service.core.app(key: "watch-key")?.options.watchlistLimit == 1)
            #expect(server.service.core.app(key: "watch-key")?.options.watchlistInitialStatus == .onlineOnly)
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"22","key":"k22","secret":"s","watchlistInitial":"all"}"#).bodyText
                == PusherHarnessRouteTests.adminError(400, #"watchlistInitial: expected "online-and-offline" or "online", got "all""#))
            let negative = try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"22","key":"k22","secret":"s","watchlistLimit":-1}"#)
            #expect(negative.status == 400)
        }
    }

    @Test func aSocketSignedInWithTheAnswerHearsItsWatchlist() throws {
        try withPusherServer { server in
            #expect(try server.http("POST", "/__admin/pusher/peers/signin", body: #"{"appKey":"test-key","name":"bob"}"#).bodyText
                == #"{"appKey":"test-key","name":"bob","userId":"bob"}"#)
            let (socket, socketID) = try server.established()
            let answer = try JSONValue.parse(server.http("POST", "/__admin/pusher/user-auth/test-key/ann?watchlist=bob,carol", body: "socket_id=\(socketID)").body)
            let data: JSONValue = ["auth": answer["auth"] ?? .null, "user_data": answer["user_data"] ?? .null]
            socket.send(JSONValue.object([("event", "pusher:signin"), ("data", data)]).jsonText)
            #expect(try socket.nextText().hasPrefix(#"{"event":"pusher:signin_success""#))
            let status = #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"online\",\"user_ids\":[\"bob\"]},{\"name\":\"offline\",\"user_ids\":[\"carol\"]}]}"}"#
            #expect(try socket.nextText() == status)
            #expect(try server.http("POST", "/__admin/pusher/peers/signin", body: #"{"appKey":"test-key","name":"c","userId":"carol"}"#).status == 200)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"online\",\"user_ids\":[\"carol\"]}]}"}"#)
            #expect(try server.http("DELETE", "/__admin/pusher/peers?app_key=test-key&name=bob").status == 200)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"offline\",\"user_ids\":[\"bob\"]}]}"}"#)
            #expect(try server.http("POST", "/__admin/pusher/peers/signin", body: #"{"appKey":"test-key","name":"x","watchlist":"bob"}"#).bodyText
                == PusherHarnessRouteTests.adminError(400, "watchlist: expected an array of strings"))
        }
    }
}

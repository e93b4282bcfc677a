// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// The harness routes under `/__admin/pusher/`: apps, peers, server-side closes and sends, the auth
/// endpoint and the record, with their exact bodies and their errors.
@Suite("Pusher harness routes", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherHarnessRouteTests {
    static func adminError(_ status: Int, _ message: String) -> String {
        #"{"error":true,"message":"# + jsonString(message) + #","status":\#(status),"service":"Admin"}"#
    }

    @Test func appSettingsSwitchCacheTTLAndSubscriptionCounts() throws {
        try withPusherServer { server in
            let body = #"{"id":"12","key":"feature-key","secret":"s","subscriptionCount":true,"cacheTtlMs":60000}"#
            #expect(try server.http("POST", "/__admin/pusher/apps", body: body).status == 200)
            let socket = try server.connect(key: "feature-key")
            _ = try socket.nextText()
            #expect(try socket.subscribe("cache-x").contains("subscription_succeeded"))
            // The replay (here the miss) is the first event after subscription_succeeded, then the count.
            #expect(try socket.nextText() == #"{"event":"pusher:cache_miss","channel":"cache-x"}"#)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:subscription_count","data":"{\"subscription_count\":1}","channel":"cache-x"}"#)
            // The core sends the count frame before it records the webhook event of the same step, so
            // the record may lag the frame the socket read: wait for the record to hold it.
            var hooks = ""
            _ = eventually {
                hooks = (try? server.http("GET", "/__admin/pusher/webhooks?app_key=feature-key").bodyText) ?? ""
                return hooks.contains("subscription_count")
            }
            #expect(hooks == #"{"appKey":"feature-key","events":[{"name":"channel_occupied","channel":"cache-x"},"#
                + #"{"name":"cache_miss","channel":"cache-x"},{"name":"subscription_count","channel":"cache-x","subscription_count":1}]}"#)
            #expect(try server.http("GET", "/__admin/pusher/webhooks?app_key=nobody").status == 404)
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"13","key":"k13","secret":"s","cacheTtlMs":0}"#).bodyText
                == Self.adminError(400, "cacheTtlMs: expected an integer from 1 to 1800000"))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"13","key":"k13","secret":"s","subscriptionCount":"yes"}"#).bodyText
                == Self.adminError(400, "subscriptionCount: expected true or false"))
            withExtendedLifetime(socket) {}
        }
    }

    @Test func appsAreAddedListedAndConflictsRefused() throws {
        try withPusherServer { server in
            let body = #"{"id":"9","key":"case-key","secret":"case-secret","activityTimeoutMs":1000,"pongTimeoutMs":500,"serverPing":"pusher"}"#
            let added = try server.http("POST", "/__admin/pusher/apps", body: body)
            #expect(added.status == 200)
            #expect(added.bodyText == #"{"id":"9","key":"case-key","registered":true}"#)
            #expect(try server.http("POST", "/__admin/pusher/apps", body: body).bodyText == #"{"id":"9","key":"case-key","registered":false}"#)
            #expect(try server.http("GET", "/__admin/pusher/apps").bodyText == #"{"apps":[{"id":"4242","key":"test-key"},{"id":"9","key":"case-key"}]}"#)
            // The options reach the core: connection_established announces the 1 s activity timeout.
            let socket = try server.connect(key: "case-key")
            #expect(try socket.nextText().hasSuffix(#"\",\"activity_timeout\":1}"}"#))

            let other = try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"9","key":"case-key","secret":"changed"}"#)
            #expect(other.status == 409)
            #expect(other.bodyText == Self.adminError(409, #"app id "9" is already served with other credentials or options"#))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"10","key":"test-key","secret":"s"}"#).bodyText
                == Self.adminError(409, #"app key "test-key" is already served by another app"#))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"11"}"#).bodyText
                == Self.adminError(400, "key: required (a non-empty string)"))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: "id=11").bodyText == Self.adminError(400, "body: expected a JSON object"))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"11","key":"k","secret":"s","activityTimeoutMs":0}"#).bodyText
                == Self.adminError(400, "activityTimeoutMs: expected an integer from 1 to 3600000"))
            #expect(try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"11","key":"k","secret":"s","serverPing":"smoke"}"#).bodyText
                == Self.adminError(400, #"serverPing: expected "websocket" or "pusher", got "smoke""#))
            let method = try server.http("DELETE", "/__admin/pusher/apps")
            #expect(method.status == 405)
            #expect(method.header("Allow") == "GET, POST")
            withExtendedLifetime(socket) {}
        }
    }

    @Test func peersJoinSpeakAndLeaveThroughTheCore() throws {
        try withPusherServer { server in
            let joined = try server.http("POST", "/__admin/pusher/peers/subscribe",
                                         body: #"{"appKey":"test-key","name":"ann","userId":"ann-id","channel":"presence-room"}"#)
            #expect(joined.status == 200)
            let peerSocketID = try JSONValue.parse(joined.body)["socketId"]?.stringValue ?? ""
            #expect(joined.bodyText == #"{"appKey":"test-key","name":"ann","socketId":"\#(peerSocketID)"}"#)
            #expect(peerSocketID.contains("."))

            let (socket, socketID) = try server.established()
            let channelData = #"{"user_id":"me","user_info":{}}"#
            let auth = PusherSignatures.channelAuth(app: testApp, socketID: socketID, channel: "presence-room", channelData: channelData)
            let succeeded = try socket.subscribe("presence-room", auth: auth, channelData: channelData)
            #expect(succeeded.contains(#"\"ids\":[\"ann-id\",\"me\"]"#) || succeeded.contains(#"\"ids\":[\"me\",\"ann-id\"]"#), "\(succeeded)")

            let spoke = try server.http("POST", "/__admin/pusher/peers/event",
                                        body: #"{"appKey":"test-key","name":"ann","channel":"presence-room","event":"client-hi","data":"{\"x\":1}"}"#)
            #expect(spoke.bodyText == #"{"appKey":"test-key","name":"ann","sent":true}"#)
            #expect(try socket.nextText() == #"{"event":"client-hi","data":"{\"x\":1}","channel":"presence-room","user_id":"ann-id"}"#)

            let messages = try JSONValue.parse(server.http("GET", "/__admin/pusher/peers/messages?app_key=test-key&name=ann").body)
            let texts = (messages["messages"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(texts.first?.hasPrefix(#"{"event":"pusher:connection_established""#) == true)
            #expect(texts.last == #"{"event":"pusher_internal:member_added","data":"{\"user_id\":\"me\",\"user_info\":{}}","channel":"presence-room"}"#)

            #expect(try server.http("DELETE", "/__admin/pusher/peers?app_key=test-key&name=ann").bodyText == #"{"appKey":"test-key","removed":1}"#)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"ann-id\"}","channel":"presence-room"}"#)
            #expect(try server.http("DELETE", "/__admin/pusher/peers?app_key=test-key").bodyText == #"{"appKey":"test-key","removed":0}"#)

            #expect(try server.http("POST", "/__admin/pusher/peers/event",
                                    body: #"{"appKey":"test-key","name":"zed","channel":"c","event":"client-x","data":""}"#).bodyText
                == Self.adminError(404, #"no peer "zed" on app key "test-key""#))
            #expect(try server.http("POST", "/__admin/pusher/peers/subscribe", body: #"{"appKey":"nope","name":"ann","channel":"c"}"#).bodyText
                == Self.adminError(404, #"no Pusher app with key "nope""#))
            #expect(try server.http("GET", "/__admin/pusher/peers/messages?app_key=test-key").bodyText == Self.adminError(400, "app_key and name: required"))
            #expect(try server.http("POST", "/__admin/pusher/peers/subscribe", body: #"{"appKey":"test-key","name":"ann"}"#).bodyText
                == Self.adminError(400, "channel: required (a non-empty string)"))
        }
    }

    @Test func peersAnswerTheServersProbes() throws {
        try withPusherServer { (server: PusherTestServer) throws in
            let register = #"{"id":"12","key":"probe-key","secret":"s","activityTimeoutMs":20,"pongTimeoutMs":20,"serverPing":"pusher"}"#
            #expect(try server.http("POST", "/__admin/pusher/apps", body: register).status == 200)
            #expect(try server.http("POST", "/__admin/pusher/peers/subscribe", body: #"{"appKey":"probe-key","name":"p","channel":"news"}"#).status == 200)
            // An unanswered probe would close the peer 20 ms later; three probes mean each was answered.
            #expect(eventually { ((try? server.service.peerMessages("p", appKey: "probe-key")) ?? []).count { $0.hasPrefix(#"{"event":"pusher:ping""#) } >= 3 })
            #expect(server.service.core.connectionCount == 1)
        }
    }

    @Test func serverSideSendsAndCloses() throws {
        try withPusherServer { server in
            let (socket, _) = try server.established()
            #expect(try server.http("POST", "/__admin/pusher/connections/send", body: #"{"appKey":"test-key","text":"not json"}"#).bodyText
                == #"{"appKey":"test-key","sent":1}"#)
            #expect(try socket.nextText() == "not json")
            #expect(try server.http("POST", "/__admin/pusher/connections/close", body: #"{"appKey":"test-key","code":4100,"reason":"later"}"#).bodyText
                == #"{"appKey":"test-key","closed":1}"#)
            let close = try socket.nextFrame()
            #expect(close.opcode == .close)
            #expect(close.payload == closePayload(4100, "later"))
            #expect(try server.http("POST", "/__admin/pusher/connections/close", body: #"{"appKey":"other","code":4100}"#).bodyText
                == #"{"appKey":"other","closed":0}"#)
            #expect(try server.http("POST", "/__admin/pusher/connections/close", body: #"{"appKey":"test-key","code":99}"#).bodyText
                == Self.adminError(400, "code: expected an integer from 1000 to 4999"))
            #expect(try server.http("POST", "/__admin/pusher/connections/close", body: #"{"appKey":"test-key"}"#).bodyText
                == Self.adminError(400, "code: required (1000-4999)"))
            #expect(try server.http("POST", "/__admin/pusher/connections/send", body: #"{"appKey":"test-key"}"#).bodyText
                == Self.adminError(400, "text: required (a non-empty string)"))
            let method = try server.http("GET", "/__admin/pusher/connections/close")
            #expect(method.status == 405)
            #expect(method.header("Allow") == "POST")
        }
    }

    @Test func authEndpointSignsRefusesAndIsRecorded() throws {
        try withPusherServer { server in
            let signed = try server.http("POST", "/__admin/pusher/auth/test-key/u1", body: "socket_id=1.2&channel_name=private-a")
            #expect(signed.status == 200)
            #expect(signed.bodyText == #"{"auth":"\#(PusherSignatures.channelAuth(app: testApp, socketID: "1.2", channel: "private-a"))"}"#)
            let presence = try server.http("POST", "/__admin/pusher/auth/test-key/u%201", body: "socket_id=3.4&channel_name=presence-r")
            let channelData = #"{"user_id": "u 1", "user_info": {"name": "u 1"}}"#
            let auth = PusherSignatures.channelAuth(app: testApp, socketID: "3.4", channel: "presence-r", channelData: channelData)
            #expect(presence.bodyText == #"{"auth":"\#(auth)","channel_data":\#(jsonString(channelData))}"#)
            let refused = try server.http("POST", "/__admin/pusher/auth/test-key/refused", body: "socket_id=1.2&channel_name=private-a")
            #expect(refused.status == 403)
            #expect(refused.bodyText == #"{"error":"forbidden"}"#)
            #expect(try server.http("POST", "/__admin/pusher/auth/test-key/u1", body: "socket_id=1.2").bodyText
                == Self.adminError(400, "socket_id and channel_name: required (form-encoded)"))
            #expect(try server.http("POST", "/__admin/pusher/auth/nope/u1", body: "socket_id=1.2&channel_name=private-a").bodyText
                == Self.adminError(404, #"no Pusher app with key "nope""#))
            #expect(try server.http("POST", "/__admin/pusher/auth/test-key", body: "").status == 404)
            #expect(try server.http("GET", "/__admin/pusher/auth/test-key/u1").status == 405)

            let record = try JSONValue.parse(server.http("GET", "/__admin/pusher/record?app_key=test-key").body)
            #expect(record["authorizations"]?.jsonText == #"[{"socketId":"1.2","channel":"private-a"},{"socketId":"3.4","channel":"presence-r"}]"#)
            #expect(record["refused"] == 1)
            #expect(record["entries"]?.jsonText == "[]")
            #expect(record["nowMs"]?.intValue != nil)
            #expect(try server.http("DELETE", "/__admin/pusher/record?app_key=test-key").bodyText == #"{"appKey":"test-key","cleared":true}"#)
            let cleared = try JSONValue.parse(server.http("GET", "/__admin/pusher/record?app_key=test-key").body)
            #expect(cleared["authorizations"]?.jsonText == "[]")
            #expect(cleared["refused"] == 0)
            #expect(try server.http("GET", "/__admin/pusher/record").bodyText == Self.adminError(400, "app_key: required"))
            #expect(try server.http("GET", "/__admin/pusher/record?app_key=k&since=x").bodyText
                == Self.adminError(400, "since: expected a sequence number (an integer >= 0)"))
        }
    }

    @Test func theRecordHasTheJournalOnTheServiceClock() throws {
        try withPusherServer { server in
            let (socket, socketID) = try server.established()
            #expect(eventually { server.service.journal.entries(for: testApp.key).count == 1 })
            let record = try JSONValue.parse(server.http("GET", "/__admin/pusher/record?app_key=test-key").body)
            let entry = server.service.journal.entries(for: testApp.key)[0]
            #expect(record["entries"]?.jsonText == "[\(entry.json.jsonText)]")
            #expect(record["entries"]?[0]?["socketId"]?.stringValue == socketID)
            #expect(record["lastSequence"] == 1)
            #expect((record["nowMs"]?.intValue).map { Int64($0) >= entry.at.milliseconds } == true)
            withExtendedLifetime(socket) {}
        }
    }
}

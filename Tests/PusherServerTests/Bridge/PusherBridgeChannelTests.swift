// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing
import Dispatch

/// Subscriptions, triggers, private auth and presence across sockets.
@Suite("Pusher bridge: channels", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherBridgeChannelTests {
    @Test(arguments: [false, true])
    func triggerFansOutToTwoSockets(tls: Bool) throws {
        try withPusherServer { server in
            let (first, _) = try server.established(tls: tls)
            let (second, _) = try server.established(tls: tls)
            for socket in [first, second] {
                #expect(try socket.subscribe("my-channel") ==
                    #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"my-channel"}"#)
            }
            try server.service.trigger(appID: testApp.id, event: "my-event", data: #"{"message":"hello"}"#, channels: ["my-channel"])
            for socket in [first, second] {
                #expect(try socket.nextText() ==
                    #"{"event":"my-event","data":"{\"message\":\"hello\"}","channel":"my-channel"}"#)
            }
            // The sink is called on the connection's loop, after the message it goes with was queued.
            #expect(eventually { server.webhooks.all == [.channelOccupied(channel: "my-channel")] })
            #expect(server.webhooks.appIDs == [testApp.id])
        }
    }

    @Test func coreTriggerAndPerformExcludeTheSender() throws {
        try withPusherServer { server in
            let (first, firstID) = try server.established()
            let (second, _) = try server.established()
            _ = try first.subscribe("news")
            _ = try second.subscribe("news")
            let actions = try server.service.core.trigger(
                appID: testApp.id, event: "e", data: "plain", channels: ["news"], excludeSocketID: firstID, now: server.service.now)
            server.service.perform(actions)
            #expect(try second.nextText() == #"{"event":"e","data":"plain","channel":"news"}"#)
            #expect(throws: PusherTestSocket.UnexpectedFrame.self) { try first.nextText(timeoutMs: 200) }
        }
    }

    @Test func privateChannelWithASignatureComputedByOpenSSL() throws {
        try withPusherServer { server in
            let (socket, socketID) = try server.established()
            #expect(socketID == "166477.91849561")
            // printf '%s' '166477.91849561:private-orders' | openssl dgst -sha256 -hmac test-secret
            let signature = "8269631895142129d1474d8926c3daeb4fc83ab7002edf1e739039bcabbf7ace"
            #expect(try socket.subscribe("private-orders", auth: "test-key:" + signature) ==
                #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-orders"}"#)
            let wrong = String(repeating: "0", count: 64)
            #expect(try socket.subscribe("private-other", auth: "test-key:" + wrong) ==
                #"{"event":"pusher:error","data":{"code":null,"message":"Invalid signature: Expected HMAC SHA256 hex digest of 166477.91849561:private-other, but got 0000000000000000000000000000000000000000000000000000000000000000"}}"#)
        }
    }

    @Test func presenceMembersAcrossTwoSocketsAndAClientCloseLeaves() throws {
        try withPusherServer { server in
            let (alice, aliceID) = try server.established()
            let (bob, bobID) = try server.established()
            #expect([aliceID, bobID] == ["166477.91849561", "972280.33132562"])
            // openssl dgst -sha256 -hmac test-secret over socket_id:channel:channel_data
            let aliceData = #"{"user_id":"alice","user_info":{"name":"Alice"}}"#
            let aliceAuth = "test-key:82c3f9fd61fb8431b605a224da3ea9a5145e250ae58e042d76cb5134c9defcce"
            #expect(try alice.subscribe("presence-room", auth: aliceAuth, channelData: aliceData) ==
                #"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"alice\"],\"hash\":{\"alice\":{\"name\":\"Alice\"}},\"count\":1}}","channel":"presence-room"}"#)
            let bobAuth = "test-key:5f31a04cd46eb5ed613712852bc0531232315dad277796820fc37d7679f2cef9"
            #expect(try bob.subscribe("presence-room", auth: bobAuth, channelData: #"{"user_id":"bob"}"#) ==
                #"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"alice\",\"bob\"],\"hash\":{\"alice\":{\"name\":\"Alice\"},\"bob\":null},\"count\":2}}","channel":"presence-room"}"#)
            #expect(try alice.nextText() ==
                #"{"event":"pusher_internal:member_added","data":"{\"user_id\":\"bob\"}","channel":"presence-room"}"#)
            bob.client.sendClose(WebSocketClosePayload(code: .normalClosure, reason: "bye"))
            #expect(bob.client.readFramesToEnd().end == .eof)
            #expect(try alice.nextText() ==
                #"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"bob\"}","channel":"presence-room"}"#)
            #expect(try server.service.core.users(appID: testApp.id, channel: "presence-room") == ["alice"])
            #expect(eventually { server.service.openConnectionCount == 1 })
            let expected: [PusherWebhookEvent] = [
                .channelOccupied(channel: "presence-room"), .memberAdded(channel: "presence-room", userID: "alice"),
                .memberAdded(channel: "presence-room", userID: "bob"), .memberRemoved(channel: "presence-room", userID: "bob"),
            ]
            #expect(eventually { server.webhooks.all == expected }, "got \(server.webhooks.all)")
        }
    }

    @Test func aWebhookSinkPluggedInAfterTheStartGetsTheEvents() throws {
        try withPusherServer { server in
            let later = WebhookLog()
            server.service.setWebhookSink { later.append($0, $1) }
            let (socket, _) = try server.established()
            _ = try socket.subscribe("late")
            #expect(eventually { later.all == [.channelOccupied(channel: "late")] })
            #expect(later.appIDs == [testApp.id])
            #expect(server.webhooks.all.isEmpty)
        }
    }

    @Test func performFromManyThreadsDeliversEveryMessageOnce() throws {
        try withPusherServer { server in
            let sockets = try (0..<2).map { _ in try server.established().socket }
            for socket in sockets { _ = try socket.subscribe("busy") }
            let service = server.service
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<50 {
                    try? service.trigger(appID: testApp.id, event: "e", data: "\(thread)-\(index)", channels: ["busy"])
                }
            }
            let expected = Set((0..<4).flatMap { thread in (0..<50).map { #"{"event":"e","data":"\#(thread)-\#($0)","channel":"busy"}"# } })
            for socket in sockets {
                let received = try (0..<200).map { _ in try socket.nextText() }
                #expect(Set(received) == expected)
                #expect(received.count == 200)
            }
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import PusherClientUnderTest

/// The pure state machine: subscriptions, authorization, re-authorization after reconnects,
/// presence members, client events, ping/pong and incoming data.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MachineChannelTests {
    private let auth = PusherChannelAuthorization(auth: "key:sig")

    @Test func subscriptionsBeforeConnectAreSentOnceEstablished() {
        var h = MachineHarness()
        #expect(h.feed(.subscribe(channel: "news")) == [])
        #expect(h.feed(.subscribe(channel: "private-room")) == [])
        #expect(h.feed(.subscribe(channel: "news")) == [])
        #expect(h.machine.channelNames == ["news", "private-room"])
        let actions = h.establish(socketID: "1.1")
        #expect(actions.sent == [#"{"event":"pusher:subscribe","data":{"channel":"news"}}"#])
        #expect(actions.authorizations == [PusherAuthorizationRequest(channelName: "private-room", socketID: "1.1")])
        #expect(h.machine.status(of: "news") == .subscribing)
        #expect(h.machine.status(of: "private-room") == .authorizing)
        let done = h.feed(.socketText(MachineHarness.succeeded("news")))
        #expect(done.callbacks == [.subscribed(channel: "news")])
        #expect(h.machine.status(of: "news") == .subscribed)
    }

    @Test func authorizationSendsSubscribeWithAuthAndChannelData() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        #expect(h.feed(.subscribe(channel: "presence-chat")).authorizations == [PusherAuthorizationRequest(channelName: "presence-chat", socketID: "1.1")])
        let channelData = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#
        let actions = h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "presence-chat", socketID: "1.1"),
                                                    .success(PusherChannelAuthorization(auth: "key:abc", channelData: channelData))))
        // channel_data is forwarded as the exact string the auth endpoint gave (its bytes are signed).
        #expect(actions.sent == [#"{"event":"pusher:subscribe","data":{"channel":"presence-chat","auth":"key:abc","channel_data":"{\"user_id\": 10, \"user_info\": {\"name\": \"Mr. Channels\"}}"}}"#])
        #expect(h.machine.myUserID(on: "presence-chat") == "10")
    }

    @Test func authorizationFailureIsReportedAndRetriedAfterReconnect() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.subscribe(channel: "private-a"))
        let actions = h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "private-a", socketID: "1.1"), .failure(.status(403, body: "no"))))
        #expect(actions.callbacks == [.subscriptionFailed(channel: "private-a", error: .status(403, body: "no"))])
        #expect(h.machine.status(of: "private-a") == .failed)
        h.feed(.socketClosed(code: 4200, reason: ""))
        #expect(h.establish(socketID: "2.2").authorizations == [PusherAuthorizationRequest(channelName: "private-a", socketID: "2.2")])
    }

    @Test func everyReconnectReauthorizesWithTheNewSocketIDAndResubscribesAll() {
        var h = MachineHarness()
        for name in ["public-1", "private-a", "presence-b"] { h.feed(.subscribe(channel: name)) }
        h.establish(socketID: "1.1")
        for name in ["private-a", "presence-b"] {
            h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: name, socketID: "1.1"), .success(auth)))
        }
        for name in ["public-1", "private-a", "presence-b"] { h.feed(.socketText(MachineHarness.succeeded(name))) }
        #expect(h.machine.status(of: "presence-b") == .subscribed)

        let lost = h.feed(.socketClosed(code: 4200, reason: "reconnect"))
        #expect(lost.opensSocket)
        #expect(h.machine.channelNames.allSatisfy { h.machine.status(of: $0) == .pending })
        let again = h.establish(socketID: "2.2")
        #expect(again.sent == [#"{"event":"pusher:subscribe","data":{"channel":"public-1"}}"#])
        #expect(again.authorizations == [
            PusherAuthorizationRequest(channelName: "private-a", socketID: "2.2"),
            PusherAuthorizationRequest(channelName: "presence-b", socketID: "2.2"),
        ])
        // A late answer for the old socket id is ignored; the new one subscribes.
        #expect(h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "private-a", socketID: "1.1"), .success(auth))) == [])
        #expect(h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "private-a", socketID: "2.2"), .success(auth))).sent
            == [#"{"event":"pusher:subscribe","data":{"channel":"private-a","auth":"key:sig"}}"#])
    }

    @Test func unsubscribeSendsOnlyForSentSubscriptions() {
        var h = MachineHarness()
        h.feed(.subscribe(channel: "a"))
        #expect(h.feed(.unsubscribe(channel: "a")) == [])
        h.feed(.subscribe(channel: "b"))
        h.establish()
        #expect(h.feed(.unsubscribe(channel: "b")).sent == [#"{"event":"pusher:unsubscribe","data":{"channel":"b"}}"#])
        #expect(h.machine.channelNames.isEmpty)
        #expect(h.feed(.unsubscribe(channel: "b")) == [])
    }

    @Test func clientEventsWaitForSubscriptionSucceeded() {
        var h = MachineHarness()
        h.feed(.subscribe(channel: "private-room"))
        #expect(h.feed(.trigger(event: "client-typing", data: ["who": "ann"], channel: "private-room")) == [])
        h.establish(socketID: "1.1")
        #expect(h.feed(.trigger(event: "client-typing", data: "second", channel: "private-room")) == [])
        h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "private-room", socketID: "1.1"), .success(auth)))
        let actions = h.feed(.socketText(MachineHarness.succeeded("private-room")))
        #expect(actions.sent == [
            #"{"event":"client-typing","data":{"who":"ann"},"channel":"private-room"}"#,
            #"{"event":"client-typing","data":"second","channel":"private-room"}"#,
        ])
        #expect(h.feed(.trigger(event: "client-x", data: 1, channel: "private-room")).sent == [#"{"event":"client-x","data":1,"channel":"private-room"}"#])
    }

    @Test func clientEventsAreRefusedOnPublicAndUnknownChannels() {
        var h = MachineHarness()
        h.feed(.subscribe(channel: "news"))
        h.establish()
        h.feed(.socketText(MachineHarness.succeeded("news")))
        #expect(h.feed(.trigger(event: "client-x", data: 1, channel: "news")) == [])
        #expect(h.feed(.trigger(event: "client-x", data: 1, channel: "private-unknown")) == [])
        #expect(PusherChannelType.clientEventName("typing") == "client-typing")
        #expect(PusherChannelType.clientEventName("client-typing") == "client-typing")
        #expect(PusherChannelType.privateName("room") == "private-room")
        #expect(PusherChannelType.presenceName("presence-room") == "presence-room")
    }

    @Test func queuedClientEventsAreCapped() {
        var h = MachineHarness { $0.maximumQueuedClientEvents = 2 }
        h.feed(.subscribe(channel: "private-q"))
        for n in 0..<5 { h.feed(.trigger(event: "client-n", data: .int(n), channel: "private-q")) }
        h.establish(socketID: "1.1")
        h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "private-q", socketID: "1.1"), .success(auth)))
        #expect(h.feed(.socketText(MachineHarness.succeeded("private-q"))).sent.count == 2)
    }

    @Test func presenceMembersFromHashAndMemberEvents() {
        var h = MachineHarness()
        h.feed(.subscribe(channel: "presence-x"))
        h.establish(socketID: "1.1")
        h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: "presence-x", socketID: "1.1"), .success(auth)))
        let data = #"{"presence":{"ids":["1","2"],"hash":{"1":{"name":"a"},"2":null},"count":2}}"#
        h.feed(.socketText(MachineHarness.succeeded("presence-x", data: data)))
        #expect(h.machine.members(of: "presence-x") == [PusherMember(userID: "1", userInfo: ["name": "a"]), PusherMember(userID: "2", userInfo: .some(.null))])
        let added = h.feed(.socketText(#"{"event":"pusher_internal:member_added","data":"{\"user_id\":\"3\",\"user_info\":{\"name\":\"c\"}}","channel":"presence-x"}"#))
        #expect(added.callbacks == [.memberAdded(channel: "presence-x", member: PusherMember(userID: "3", userInfo: ["name": "c"]))])
        let removed = h.feed(.socketText(#"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"1\"}","channel":"presence-x"}"#))
        #expect(removed.callbacks == [.memberRemoved(channel: "presence-x", member: PusherMember(userID: "1", userInfo: ["name": "a"]))])
        #expect(h.machine.members(of: "presence-x").map(\.userID) == ["2", "3"])
        h.feed(.socketFailed(PusherTransportError(.io, "reset")))
        #expect(h.machine.members(of: "presence-x").isEmpty)
    }

    @Test func activityTimeoutSendsPingAndMissingPongKillsTheConnection() {
        var h = MachineHarness { $0.pongTimeout = 3 }
        h.establish(activityTimeout: 2)
        #expect(h.feed(.timerFired(.activity)) == [.send(#"{"event":"pusher:ping"}"#), .schedule(.pong, after: 3)])
        let dead = h.feed(.timerFired(.pong))
        #expect(dead.first == .abortSocket)
        guard case .disconnected(.transport(let error)?, true)? = dead.callbacks.first else {
            Issue.record("callbacks \(dead.callbacks)")
            return
        }
        #expect(error.kind == .pongTimeout)
        #expect(dead.opensSocket)
    }

    @Test func anyTrafficAnswersThePing() {
        var h = MachineHarness()
        h.establish(activityTimeout: 2)
        h.feed(.timerFired(.activity))
        #expect(h.feed(.socketText(#"{"event":"pusher:pong","data":"{}"}"#)).prefix(2) == [.cancel(.pong), .schedule(.activity, after: 2)])
        h.feed(.timerFired(.activity))
        #expect(h.feed(.socketControlFrame) == [.cancel(.pong), .schedule(.activity, after: 2)])
    }

    @Test func serverPingIsAnsweredWithPong() {
        var h = MachineHarness()
        h.establish()
        #expect(h.feed(.socketText(#"{"event":"pusher:ping","data":"{}"}"#)).sent == [#"{"event":"pusher:pong","data":{}}"#])
        #expect(h.feed(.socketText(#"{"event":"pusher:ping"}"#)).sent == [#"{"event":"pusher:pong","data":{}}"#])
    }

    @Test func pusherErrorBecomesAnErrorEvent() {
        var h = MachineHarness()
        h.establish()
        let live = h.feed(.socketText(#"{"event":"pusher:error","data":{"code":null,"message":"Auth info required to subscribe to private-events"}}"#))
        #expect(live.callbacks == [.errorEvent(code: nil, message: "Auth info required to subscribe to private-events")])
        let coded = h.feed(.socketText(#"{"event":"pusher:error","data":"{\"code\":4301,\"message\":\"Client event rejected due to rate limit\"}"}"#))
        #expect(coded.callbacks == [.errorEvent(code: 4301, message: "Client event rejected due to rate limit")])
    }

    /// libPusher parses a string `data` only when it holds a JSON object or array.
    @Test(arguments: [
        (#""{\"some\":\"data\"}""#, JSONValue.object(["some": "data"]), "{\"some\":\"data\"}" as String?),
        (#""[1,2]""#, JSONValue.array([1, 2]), "[1,2]"),
        (#""plain text""#, "plain text", "plain text"),
        (#""123""#, "123", "123"),
        (#""{broken""#, "{broken", "{broken"),
        (#"{"an":"object"}"#, JSONValue.object(["an": "object"]), nil),
        ("42", 42, nil),
    ])
    func eventDataDecoding(wire: String, data: JSONValue, raw: String?) {
        var h = MachineHarness()
        h.establish()
        let actions = h.feed(.socketText(#"{"event":"my-event","data":\#(wire),"channel":"c"}"#))
        #expect(actions.emitted.last == .event(PusherEventMessage(name: "my-event", channel: "c", data: data, rawData: raw)))
    }

    @Test func malformedMessagesAreReportedAndIgnored() {
        var h = MachineHarness()
        h.establish()
        #expect(h.feed(.socketText("not json")).emitted == [.malformedMessage("not json")])
        #expect(h.feed(.socketText(#"{"data":"x"}"#)).emitted == [.malformedMessage(#"{"data":"x"}"#)])
        #expect(h.machine.state == .connected(socketID: "123.456"))
    }

    @Test func authRequestFormBodyIsFormEncoded() {
        #expect(PusherAuthorizationRequest(channelName: "private-a b&c", socketID: "1.2").formBody == "socket_id=1.2&channel_name=private-a+b%26c")
        #expect(PusherAuthorizationRequest(channelName: "presence-foobar", socketID: "1234.1234").formBody
            == "socket_id=1234.1234&channel_name=presence-foobar")
    }
}

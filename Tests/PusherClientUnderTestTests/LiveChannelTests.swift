// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import Synchronization
import Testing
@testable import PusherClientUnderTest

/// Channels over real sockets: the auth endpoint POST, re-authorization after a reconnect,
/// channel events and client events.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct LiveChannelTests {
    private func greetingServer() throws -> ScriptedWebSocketServer {
        try ScriptedWebSocketServer { peer in peer.sendEstablished(socketID: "\(peer.index).\(peer.index)") }
    }

    @Test func privateChannelIsAuthorizedAtTheEndpointWithAnExactFormBody() async throws {
        let auth = try ScriptedServer { _ in .http(200, #"{"auth":"278d425bdf160c739803:58df8b0c"}"#, contentType: "application/json") }
        defer { auth.stop() }
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) {
            $0.authorizationURL = "http://127.0.0.1:\(auth.port)/pusher/auth"
            $0.authorizationHeaders = { _ in [HTTPHeaderField("Authorization", "Bearer t0ken")] }
        }
        defer { live.stop() }
        let channel = live.client.subscribeToPrivateChannelNamed("room")
        #expect(channel.name == "private-room")
        live.client.connect()
        let seen = try #require(await auth.journal.wait(count: 1)?.first)
        #expect(seen.method == "POST")
        #expect(seen.path == "/pusher/auth")
        #expect(String(decoding: seen.body, as: UTF8.self) == "socket_id=1.1&channel_name=private-room")
        #expect(seen.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(seen.headers["authorization"] == "Bearer t0ken")
        let peer = try #require(server.peers.items.first)
        let subscribe = #"{"event":"pusher:subscribe","data":{"channel":"private-room","auth":"278d425bdf160c739803:58df8b0c"}}"#
        #expect(await peer.text { $0 == subscribe } != nil)
        let events = channel.events()
        peer.sendText(#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-room"}"#)
        #expect(await live.wait { $0 == .subscribed(channel: "private-room") } != nil)
        peer.sendText(#"{"event":"my-event","data":"{\"some\":\"data\"}","channel":"private-room"}"#)
        var iterator = events.makeAsyncIterator()
        let received = await iterator.next()
        #expect(received?.name == "pusher_internal:subscription_succeeded")
        let event = await iterator.next()
        #expect(event == PusherEventMessage(name: "my-event", channel: "private-room", data: ["some": "data"], rawData: #"{"some":"data"}"#))
    }

    @Test(arguments: [201, 403])
    func authEndpointStatus(status: Int) async throws {
        let auth = try ScriptedServer { _ in .http(status, #"{"auth":"k:s"}"#, contentType: "application/json") }
        defer { auth.stop() }
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) { $0.authorizationURL = "http://127.0.0.1:\(auth.port)/auth" }
        defer { live.stop() }
        live.client.subscribe(to: "private-a")
        live.client.connect()
        if status == 201 {
            #expect(await server.peers.wait(count: 1)?.first?.text { $0.contains(#""auth":"k:s""#) } != nil)
        } else {
            let failed = await live.wait { if case .subscriptionFailed = $0 { true } else { false } }
            #expect(failed == .subscriptionFailed(channel: "private-a", error: .status(403, body: #"{"auth":"k:s"}"#)))
        }
    }

    @Test func everyChannelIsReauthorizedWithTheNewSocketIDAfterAReconnect() async throws {
        let requests = Waitable<PusherAuthorizationRequest>()
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) {
            $0.authorizer = { request in
                requests.append(request)
                let data = request.channelName.hasPrefix("presence-") ? #"{"user_id":"u1"}"# : nil
                return .success(PusherChannelAuthorization(auth: "key:\(request.socketID)", channelData: data))
            }
        }
        defer { live.stop() }
        live.client.subscribe(to: "news")
        live.client.subscribeToPrivateChannelNamed("a")
        live.client.subscribeToPresenceChannelNamed("b")
        live.client.connect()
        let first = try #require(await server.peers.wait(count: 1)?.first)
        #expect(await first.text { $0.contains("presence-b") } != nil)
        first.sendClose(code: 4200)
        let second = try #require(await server.peers.wait(count: 2)?.last)
        let subscribes = await second.received.wait { $0.filter { if case .text(let t) = $0 { t.contains("pusher:subscribe") } else { false } }.count >= 3 }
        let texts = (subscribes ?? []).compactMap { if case .text(let t) = $0 { t } else { nil } }
        #expect(texts.contains(#"{"event":"pusher:subscribe","data":{"channel":"news"}}"#))
        #expect(texts.contains(#"{"event":"pusher:subscribe","data":{"channel":"private-a","auth":"key:2.2"}}"#))
        #expect(texts.contains(#"{"event":"pusher:subscribe","data":{"channel":"presence-b","auth":"key:2.2","channel_data":"{\"user_id\":\"u1\"}"}}"#))
        let asked = await requests.wait(count: 4)
        #expect(Set(asked ?? []) == [
            PusherAuthorizationRequest(channelName: "private-a", socketID: "1.1"),
            PusherAuthorizationRequest(channelName: "presence-b", socketID: "1.1"),
            PusherAuthorizationRequest(channelName: "private-a", socketID: "2.2"),
            PusherAuthorizationRequest(channelName: "presence-b", socketID: "2.2"),
        ])
    }

    @Test func clientEventsAreSentAfterSubscriptionSucceededAndRefusedOnPublicChannels() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) { $0.authorizer = { _ in .success(PusherChannelAuthorization(auth: "k:s")) } }
        defer { live.stop() }
        let room = live.client.subscribeToPrivateChannelNamed("room")
        let news = live.client.subscribe(to: "news")
        try room.trigger(event: "typing", data: ["who": "ann"])
        #expect(throws: PusherTriggerError.publicChannel("news")) { try news.trigger(event: "x", data: 1) }
        #expect(throws: PusherTriggerError.unknownChannel("private-other")) { try live.client.trigger(event: "x", data: 1, on: "private-other") }
        live.client.connect()
        let peer = try #require(await server.peers.wait(count: 1)?.first)
        #expect(await peer.text { $0.contains(#""channel":"private-room","auth":"k:s""#) } != nil)
        #expect(!peer.received.items.contains(.text(#"{"event":"client-typing","data":{"who":"ann"},"channel":"private-room"}"#)))
        peer.sendText(#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-room"}"#)
        #expect(await peer.text { $0 == #"{"event":"client-typing","data":{"who":"ann"},"channel":"private-room"}"# } != nil)
    }

    @Test func presenceMembersFollowTheServer() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) {
            $0.authorizer = { _ in .success(PusherChannelAuthorization(auth: "k:s", channelData: #"{"user_id":"1"}"#)) }
        }
        defer { live.stop() }
        let channel = live.client.subscribeToPresenceChannelNamed("chat")
        live.client.connect()
        let peer = try #require(await server.peers.wait(count: 1)?.first)
        #expect(await peer.text { $0.contains("presence-chat") } != nil)
        peer.sendText(#"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"1\",\"2\"],\"hash\":{\"1\":{},\"2\":{\"name\":\"b\"}},\"count\":2}}","channel":"presence-chat"}"#)
        peer.sendText(#"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"2\"}","channel":"presence-chat"}"#)
        #expect(await live.wait { if case .memberRemoved = $0 { true } else { false } } == .memberRemoved(channel: "presence-chat", member: PusherMember(userID: "2", userInfo: ["name": "b"])))
        #expect(channel.members.map(\.userID) == ["1"])
    }

    @Test func pusherErrorReachesTheApp() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        live.client.connect()
        let peer = try #require(await server.peers.wait(count: 1)?.first)
        peer.sendText(#"{"event":"pusher:error","data":{"code":null,"message":"Existing subscription to channel x"}}"#)
        #expect(await live.wait { if case .errorEvent = $0 { true } else { false } } == .errorEvent(code: nil, message: "Existing subscription to channel x"))
    }
}

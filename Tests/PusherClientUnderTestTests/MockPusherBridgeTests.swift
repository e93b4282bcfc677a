// SPDX-License-Identifier: MIT
import Glibc
import HarnessJSON
import MockPusher
import Synchronization
import Testing
import PusherClientUnderTest

/// The client against the project's own Pusher core (`MockPusher`) behind the scripted WebSocket
/// server: real sockets, the core's socket ids, signature checks, fan-out, presence, client events.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockPusherBridgeTests {
    static let app = PusherApp(id: "3", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")

    /// The scripted server with every peer's traffic fed to a `PusherCore`, and its actions carried out.
    final class Bridge: Sendable {
        let core: PusherCore
        private let peers: PeerTable
        let server: ScriptedWebSocketServer

        init() throws {
            let core = PusherCore(apps: [MockPusherBridgeTests.app], socketIDs: PusherSocketIDGenerator(seed: 7))
            let peers = PeerTable()
            let perform: @Sendable ([MockPusher.PusherAction]) -> Void = { actions in
                for action in actions {
                    switch action {
                    case .send(let id, let text): peers[id.rawValue]?.sendText(text)
                    case .close(let id, let code, let reason): peers[id.rawValue]?.sendClose(code: Int(code), reason: reason)
                    case .webSocketPing(let id): peers[id.rawValue]?.sendPing()
                    case .webhook: break
                    }
                }
            }
            server = try ScriptedWebSocketServer(onOpen: { peer in
                peers.add(peer)
                let path = String(peer.target.split(separator: "?")[0])
                let key = PusherPath.appKey(fromPath: path) ?? ""
                perform(core.handle(.connected(PusherConnectionID(UInt64(peer.index)), appKey: key,
                                               query: peer.query.map { PusherQueryItem($0.0, $0.1) }, now: Bridge.now())))
            }, onReceive: { peer, item in
                let id = PusherConnectionID(UInt64(peer.index))
                switch item {
                case .text(let text): perform(core.handle(.text(id, text, now: Bridge.now())))
                case .ping: perform(core.handle(.ping(id, now: Bridge.now())))
                case .pong: perform(core.handle(.pong(id, now: Bridge.now())))
                case .close, .ended: perform(core.handle(.closed(id, now: Bridge.now())))
                }
            })
            self.core = core
            self.peers = peers
        }

        static func now() -> PusherInstant {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return PusherInstant(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
        }

        func peer(_ index: Int) -> ScriptedWebSocketPeer? { peers[UInt64(index)] }
        /// Stops the server and lets go of its peers (each peer's callbacks hold this table).
        func stop() {
            server.stop()
            peers.removeAll()
        }
    }

    /// The bridge's peers by connection number.
    final class PeerTable: Sendable {
        private let peers = Mutex<[UInt64: ScriptedWebSocketPeer]>([:])
        func add(_ peer: ScriptedWebSocketPeer) { peers.withLock { $0[UInt64(peer.index)] = peer } }
        subscript(id: UInt64) -> ScriptedWebSocketPeer? { peers.withLock { $0[id] } }
        func removeAll() { peers.withLock { $0.removeAll() } }
    }

    /// Signs like an app server, with the app's secret.
    static func signer(userID: String) -> PusherAuthorizer {
        { request in
            let data = request.channelName.hasPrefix("presence-") ? #"{"user_id":"\#(userID)","user_info":{"name":"\#(userID)"}}"# : nil
            return .success(PusherChannelAuthorization(
                auth: PusherSignatures.channelAuth(app: app, socketID: request.socketID, channel: request.channelName, channelData: data),
                channelData: data))
        }
    }

    private func client(_ bridge: Bridge, user: String, key: String = app.key) throws -> LiveClient {
        try LiveClient(port: bridge.server.port, key: key) {
            $0.protocolVersion = 7
            $0.authorizer = Self.signer(userID: user)
        }
    }

    @Test func subscribePresenceClientEventsAndTriggerThroughTheCore() async throws {
        let bridge = try Bridge()
        defer { bridge.stop() }
        let ann = try client(bridge, user: "ann")
        defer { ann.stop() }
        let bob = try client(bridge, user: "bob")
        defer { bob.stop() }
        for live in [ann, bob] {
            live.client.subscribeToPrivateChannelNamed("room")
            live.client.subscribeToPresenceChannelNamed("chat")
        }
        ann.client.connect()
        #expect(await ann.wait { $0 == .subscribed(channel: "presence-chat") } != nil)
        bob.client.connect()
        #expect(await bob.wait { $0 == .subscribed(channel: "presence-chat") } != nil)
        #expect(await bob.wait { $0 == .subscribed(channel: "private-room") } != nil)
        #expect(await ann.wait { $0 == .memberAdded(channel: "presence-chat", member: PusherMember(userID: "bob", userInfo: ["name": "bob"])) } != nil)
        #expect(Set(bob.client.members(of: "presence-chat").map(\.userID)) == ["ann", "bob"])

        // A client event reaches the other member, with the sender's user_id on presence, and is not echoed.
        try ann.client.trigger(event: "typing", data: ["n": 1], on: "presence-chat")
        let typing = await bob.wait { if case .event(let m) = $0 { m.name == "client-typing" } else { false } }
        guard case .event(let message)? = typing else { Issue.record("no client event"); return }
        #expect(message.channel == "presence-chat")
        #expect(message.data == ["n": 1])
        #expect(message.userID == "ann")

        // A trigger from the HTTP side fans out to both, data double-encoded and parsed back.
        let actions = try bridge.core.trigger(appID: Self.app.id, event: "news", data: #"{"headline":"hi"}"#, channels: ["private-room"], now: Bridge.now())
        for action in actions {
            if case .send(let id, let text) = action { bridge.peer(Int(id.rawValue))?.sendText(text) }
        }
        for live in [ann, bob] {
            let news = await live.wait { if case .event(let m) = $0 { m.name == "news" } else { false } }
            #expect(news == .event(PusherEventMessage(name: "news", channel: "private-room", data: ["headline": "hi"], rawData: #"{"headline":"hi"}"#)))
        }
        #expect(!ann.events.items.contains { if case .event(let m) = $0 { m.name == "client-typing" } else { false } })
    }

    @Test func afterA4200TheCoreAcceptsTheReauthorizationWithTheNewSocketID() async throws {
        let bridge = try Bridge()
        defer { bridge.stop() }
        let ann = try client(bridge, user: "ann")
        defer { ann.stop() }
        ann.client.subscribeToPrivateChannelNamed("room")
        ann.client.connect()
        #expect(await ann.wait { $0 == .subscribed(channel: "private-room") } != nil)
        let firstID = try #require(ann.client.socketID)
        #expect(firstID == bridge.core.socketID(of: PusherConnectionID(1)))
        bridge.peer(1)?.sendClose(code: 4200, reason: "reconnect")
        let second = await ann.events.wait { $0.filter { $0 == .subscribed(channel: "private-room") }.count >= 2 }
        #expect(second != nil)
        let secondID = try #require(ann.client.socketID)
        #expect(secondID != firstID)
        #expect(secondID == bridge.core.socketID(of: PusherConnectionID(2)))
        #expect(!ann.callbacks.contains { if case .errorEvent = $0 { true } else { false } })
    }

    @Test func anUnknownKeyIsClosed4001AndNotRetried() async throws {
        let bridge = try Bridge()
        defer { bridge.stop() }
        let stranger = try client(bridge, user: "x", key: "no-such-key")
        defer { stranger.stop() }
        stranger.client.connect()
        let event = await stranger.wait { $0.isDisconnected }
        guard case .disconnected(.closed(4001, _, true)?, false)? = event else { Issue.record("got \(String(describing: event))"); return }
        #expect(stranger.client.connectionState == .disconnected)
    }
}

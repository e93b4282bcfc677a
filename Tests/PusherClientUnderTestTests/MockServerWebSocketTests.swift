// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket
import MockPubNubServer
import MockPusher
import Synchronization
import Testing
import PusherClientUnderTest

/// The client through the whole server stack: the mock server's own WebSocket transport (epoll
/// loops, plain and TLS listeners) with the `MockPusher` core behind a test extension.
@Suite(.timeLimit(.minutes(1))) struct MockServerWebSocketTests {
    /// Serves `/app/KEY` upgrades with a `PusherCore` (a minimal wiring, for these tests only).
    final class PusherTestExtension: ServerExtension {
        let core = PusherCore(apps: [MockPusherBridgeTests.app], socketIDs: PusherSocketIDGenerator(seed: 11))
        private let handles = Mutex<[UInt64: WebSocketHandle]>([:])

        func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
            guard let key = PusherPath.appKey(fromPath: request.rawPath) else { return .notMine }
            let query = (request.queryItems ?? []).map { PusherQueryItem($0.name, $0.value) }
            return .accept(Handler(owner: self, key: key, query: query))
        }

        func perform(_ actions: [MockPusher.PusherAction]) {
            for action in actions {
                switch action {
                case .send(let id, let text): handle(id)?.send(text: text)
                case .close(let id, let code, let reason): handle(id)?.close(code: WebSocketCloseCode(code), reason: reason)
                case .webSocketPing(let id): handle(id)?.ping()
                case .webhook: break
                }
            }
        }

        func handle(_ id: PusherConnectionID) -> WebSocketHandle? { handles.withLock { $0[id.rawValue] } }
        func register(_ handle: WebSocketHandle) { handles.withLock { $0[handle.id] = handle } }

        struct Handler: WebSocketHandler {
            let owner: PusherTestExtension
            let key: String
            let query: [PusherQueryItem]
            var acceptsBinaryMessages: Bool { true }

            func webSocketDidOpen(_ connection: WebSocketHandle) {
                owner.register(connection)
                owner.perform(owner.core.handle(.connected(PusherConnectionID(connection.id), appKey: key, query: query, now: MockPusherBridgeTests.Bridge.now())))
            }

            func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) {
                owner.perform(owner.core.handle(.text(PusherConnectionID(connection.id), text, now: MockPusherBridgeTests.Bridge.now())))
            }

            func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {
                owner.perform(owner.core.handle(.closed(PusherConnectionID(connection.id), now: MockPusherBridgeTests.Bridge.now())))
            }
        }
    }

    private func start() throws -> (MockServer, PusherTestExtension, plainPort: Int) {
        let pusher = PusherTestExtension()
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.extensions = [pusher]
        configuration.eventLoopCount = 1
        let server = try MockServer(configuration: configuration)
        return (server, pusher, try server.start().port)
    }

    @Test func connectSubscribeAndReceiveOverThePlainListener() async throws {
        let (server, pusher, port) = try start()
        defer { server.stop() }
        let live = try LiveClient(port: port, key: MockPusherBridgeTests.app.key) {
            $0.authorizer = MockPusherBridgeTests.signer(userID: "ann")
        }
        defer { live.stop() }
        live.client.subscribeToPresenceChannelNamed("chat")
        live.client.connect()
        #expect(await live.wait { $0 == .subscribed(channel: "presence-chat") } != nil)
        #expect(live.client.members(of: "presence-chat").map(\.userID) == ["ann"])
        let socketID = try #require(live.client.socketID)
        #expect(socketID.wholeMatch(of: /\d+\.\d+/) != nil)
        pusher.perform(try pusher.core.trigger(appID: MockPusherBridgeTests.app.id, event: "news", data: "plain text",
                                               channels: ["presence-chat"], now: MockPusherBridgeTests.Bridge.now()))
        let news = await live.wait { if case .event(let m) = $0 { m.name == "news" } else { false } }
        #expect(news == .event(PusherEventMessage(name: "news", channel: "presence-chat", data: "plain text", rawData: "plain text")))
    }

    @Test func wssWithTheServersCAAndAServerClose4200() async throws {
        let (server, pusher, _) = try start()
        defer { server.stop() }
        let tlsPort = try server.openListener(fault: .tlsTrusted).port
        let live = try LiveClient(port: tlsPort, key: MockPusherBridgeTests.app.key) {
            $0.useTLS = true
            $0.trustedCA = .pem(server.certificateAuthorityPEM)
            $0.authorizer = MockPusherBridgeTests.signer(userID: "ann")
        }
        defer { live.stop() }
        live.client.subscribeToPrivateChannelNamed("room")
        live.client.connect()
        #expect(await live.wait { $0 == .subscribed(channel: "private-room") } != nil)
        let first = try #require(live.client.socketID)
        let handle = try #require(pusher.handle(PusherConnectionID(1)))
        #expect(handle.isTLS)
        handle.close(code: WebSocketCloseCode(4200), reason: "Generic reconnect")
        let again = await live.events.wait { $0.filter { $0 == .subscribed(channel: "private-room") }.count >= 2 }
        #expect(again != nil)
        #expect(live.client.socketID != first)
        #expect(live.callbacks.contains(.disconnected(error: .closed(code: 4200, reason: "Generic reconnect", isFatalDomain: false), willAttemptReconnect: true)))
    }
}

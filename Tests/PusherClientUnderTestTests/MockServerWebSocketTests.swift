// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket
import MockPubNubServer
import MockPusher
import PusherServer
import Testing
import PusherClientUnderTest

/// The client through the whole server stack: the mock server's WebSocket transport (plain and TLS
/// listeners) serving Pusher through `PusherService` and the `MockPusher` core.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerWebSocketTests {
    private struct Running {
        let server: MockServer
        let service: PusherService
        var port: Int { server.address!.port }
        var tlsPort: Int { server.tlsAddress!.port }
    }

    private func start() throws -> Running {
        let service = PusherService(apps: [MockPusherBridgeTests.app], options: PusherServiceOptions(socketIDs: PusherSocketIDGenerator(seed: 11)))
        var configuration = MockServerConfiguration.loopback(tls: true)
        configuration.eventLoopCount = 1
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        service.attach(to: server)
        try server.start()
        return Running(server: server, service: service)
    }

    @Test func presenceAndATriggerOverThePlainListener() async throws {
        let running = try start()
        defer { running.server.stop() }
        let live = try LiveClient(port: running.port, key: MockPusherBridgeTests.app.key) {
            $0.authorizer = MockPusherBridgeTests.signer(userID: "ann")
        }
        defer { live.stop() }
        live.client.subscribeToPresenceChannelNamed("chat")
        live.client.connect()
        #expect(await live.wait { $0 == .subscribed(channel: "presence-chat") } != nil)
        #expect(live.client.members(of: "presence-chat").map(\.userID) == ["ann"])
        #expect(try #require(live.client.socketID).wholeMatch(of: /\d+\.\d+/) != nil)
        try running.service.trigger(appID: MockPusherBridgeTests.app.id, event: "news", data: "plain text", channels: ["presence-chat"])
        let news = await live.wait { if case .event(let m) = $0 { m.name == "news" } else { false } }
        #expect(news == .event(PusherEventMessage(name: "news", channel: "presence-chat", data: "plain text", rawData: "plain text")))
    }

    @Test func wssWithTheServersCA() async throws {
        let running = try start()
        defer { running.server.stop() }
        let live = try LiveClient(port: running.tlsPort, key: MockPusherBridgeTests.app.key) {
            $0.useTLS = true
            $0.trustedCA = .pem(running.server.certificateAuthorityPEM)
            $0.authorizer = MockPusherBridgeTests.signer(userID: "ann")
        }
        defer { live.stop() }
        live.client.subscribeToPrivateChannelNamed("room")
        live.client.connect()
        #expect(await live.wait { $0 == .subscribed(channel: "private-room") } != nil)
        try running.service.trigger(appID: MockPusherBridgeTests.app.id, event: "e", data: #"{"a":1}"#, channels: ["private-room"])
        let event = await live.wait { if case .event(let m) = $0 { m.name == "e" } else { false } }
        #expect(event == .event(PusherEventMessage(name: "e", channel: "private-room", data: ["a": 1], rawData: #"{"a":1}"#)))
    }

    @Test func anUnknownKeyIsClosed4001AndNotRetried() async throws {
        let running = try start()
        defer { running.server.stop() }
        let live = try LiveClient(port: running.port, key: "no-such-key")
        defer { live.stop() }
        live.client.connect()
        let event = await live.wait { $0.isDisconnected }
        guard case .disconnected(.closed(4001, _, true)?, false)? = event else { Issue.record("got \(String(describing: event))"); return }
        #expect(live.client.connectionState == .disconnected)
    }
}

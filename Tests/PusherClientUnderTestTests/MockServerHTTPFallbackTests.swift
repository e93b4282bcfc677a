// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPubNubServer
import MockPusher
import PusherServer
import Testing
import PusherClientUnderTest

/// The client's fallback through the whole server stack: the WebSocket upgrade refused by a
/// fault, the client connects over `xhr_streaming` (or, the stream refused too, `xhr_polling`),
/// subscribes, receives a trigger and sends a client event.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(1)))) struct MockServerHTTPFallbackTests {
    private struct Running {
        let server: MockServer
        let service: PusherService
        var port: Int { server.address!.port }
    }

    private func start(refusing transports: [PusherRefusedTransport]) throws -> Running {
        let service = PusherService(apps: [MockPusherBridgeTests.app], options: PusherServiceOptions(socketIDs: PusherSocketIDGenerator(seed: 11)))
        service.faults.install(PusherFaultPlan(rules: transports.map { PusherFaultRule(fault: .refuseTransport($0, status: 403)) }), for: MockPusherBridgeTests.app.key)
        var configuration = MockServerConfiguration.loopback()
        configuration.eventLoopCount = 1
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        try server.start()
        return Running(server: server, service: service)
    }

    @Test(arguments: [
        ([PusherRefusedTransport.websocket], "xhr_streaming"),
        ([PusherRefusedTransport.websocket, .streaming], "xhr_polling"),
    ])
    func fallsBackAndWorks(refused: [PusherRefusedTransport], transport: String) async throws {
        let running = try start(refusing: refused)
        defer { running.server.stop() }
        let live = try LiveClient(port: running.port, key: MockPusherBridgeTests.app.key) {
            $0.authorizer = MockPusherBridgeTests.signer(userID: "ann")
        }
        defer { live.stop() }
        _ = live.client.subscribe(to: "news")
        let room = live.client.subscribeToPrivateChannelNamed("room")
        live.client.connect()
        #expect(await live.wait { $0 == .subscribed(channel: "private-room") } != nil)
        #expect(await live.wait { $0 == .subscribed(channel: "news") } != nil)
        let kinds = running.service.journal.entries(for: MockPusherBridgeTests.app.key).map(\.kind)
        #expect(kinds.contains(.transport(transport)))

        try running.service.trigger(appID: MockPusherBridgeTests.app.id, event: "headline", data: #"{"n":1}"#, channels: ["news"])
        let event = await live.wait { if case .event(let m) = $0 { m.name == "headline" } else { false } }
        #expect(event == .event(PusherEventMessage(name: "headline", channel: "news", data: ["n": 1], rawData: #"{"n":1}"#)))

        try room.trigger(event: "client-typing", data: ["n": 2])
        let sent = #"{"event":"client-typing","data":{"n":2},"channel":"private-room"}"#
        #expect(await waitUntil { running.service.journal.entries(for: MockPusherBridgeTests.app.key).map(\.kind).contains(.text(sent)) })
    }

    /// Polls `condition` (state another thread settles) for up to 5 s.
    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

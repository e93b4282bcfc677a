// SPDX-License-Identifier: MIT
import HarnessJSON
import PusherClientUnderTest
import Testing

/// A client under test with every event it reports collected in order.
final class LiveClient: Sendable {
    let client: PusherClient
    let events = Waitable<PusherClientEvent>()
    private let task: Task<Void, Never>

    /// A client for `ws://127.0.0.1:port` (not connected yet unless `connectAutomatically` is set).
    init(port: Int, key: String = "app-key", configure: (inout PusherClientOptions) -> Void = { _ in }) throws {
        var options = PusherClientOptions(host: "127.0.0.1", port: port, useTLS: false)
        options.connectAutomatically = false
        configure(&options)
        client = try PusherClient(key: key, options: options)
        let stream = client.events()
        let events = self.events
        task = Task { for await event in stream { events.append(event) } }
    }

    deinit {
        task.cancel()
    }

    /// Waits for an event matching `predicate`; returns it.
    func wait(timeout: Double = 5, for predicate: @escaping @Sendable (PusherClientEvent) -> Bool) async -> PusherClientEvent? {
        await events.wait(timeout: timeout) { $0.contains(where: predicate) }?.first(where: predicate)
    }

    /// The callbacks so far, without the `.event` copies.
    var callbacks: [PusherClientEvent] {
        events.items.filter { if case .event = $0 { false } else { true } }
    }

    /// Connects, waits until connected, and returns the server's first peer (the test fails if
    /// either does not happen).
    func connectedPeer(of server: ScriptedWebSocketServer, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ScriptedWebSocketPeer {
        client.connect()
        try #require(await wait { $0.isConnected } != nil, sourceLocation: sourceLocation)
        return try #require(server.peers.items.first, sourceLocation: sourceLocation)
    }

    /// Connects and waits for the connect to fail; the transport error it failed with (nil: it did
    /// not fail that way, recorded as an issue with what came instead).
    func connectFailure(sourceLocation: SourceLocation = #_sourceLocation) async -> PusherTransportError? {
        client.connect()
        let event = await wait { if case .failed = $0 { true } else { false } }
        guard case .failed(.transport(let error))? = event else {
            Issue.record("got \(String(describing: event))", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    func stop() {
        client.disconnect()
        task.cancel()
    }
}

extension PusherClientEvent {
    var isConnected: Bool { if case .connected = self { true } else { false } }
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
}

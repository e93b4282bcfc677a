// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket
import MockPubNubServer
import Testing
@testable import PusherClientUnderTest

/// The client over real sockets against a scripted WebSocket server on 127.0.0.1: the upgrade,
/// `connection_established`, close codes, reconnection, pings, TLS with the harness CA.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct LiveConnectionTests {
    /// A server that greets every connection with socket id `N.N` (N = connection number).
    private func greetingServer(tls: TLSMaterial? = nil, activityTimeout: Int = 120) throws -> ScriptedWebSocketServer {
        try ScriptedWebSocketServer(tls: tls) { peer in
            peer.sendEstablished(socketID: "\(peer.index).\(peer.index)", activityTimeout: activityTimeout)
        }
    }

    @Test func upgradeRequestAndConnectionEstablished() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port, key: "278d425bdf160c739803")
        defer { live.stop() }
        live.client.connect()
        let connected = await live.wait { $0.isConnected }
        #expect(connected == .connected(socketID: "1.1"))
        #expect(live.client.socketID == "1.1")
        let peer = try #require(server.peers.items.first)
        #expect(peer.target.hasPrefix("/app/278d425bdf160c739803?"))
        #expect(peer.query.map(\.0) == ["client", "version", "protocol"])
        #expect(peer.query.last?.1 == "6")
        #expect(peer.headerValues("sec-websocket-version") == ["13"])
        #expect(peer.headerValues("host") == ["127.0.0.1:\(server.port)"])
        // The generic event carries the parsed double-encoded data.
        let established = await live.wait { if case .event(let m) = $0 { m.name == "pusher:connection_established" } else { false } }
        guard case .event(let message)? = established else { Issue.record("no event"); return }
        #expect(message.data?["activity_timeout"] == 120)
    }

    @Test(arguments: [4, 7])
    func protocolVersionIsConfigurable(version: Int) async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port) { $0.protocolVersion = version }
        defer { live.stop() }
        live.client.connect()
        #expect(await live.wait { $0.isConnected } != nil)
        #expect(server.peers.items.first?.query.last?.1 == String(version))
    }

    @Test func protocolVersionOutsideFourToSevenIsRefused() {
        var options = PusherClientOptions()
        options.protocolVersion = 8
        #expect(throws: PusherConfigurationError.self) { try PusherClient(key: "k", options: options) }
    }

    @Test func close4200ReconnectsAtOnceWithANewSocketID() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        live.client.connect()
        #expect(await live.wait { $0 == .connected(socketID: "1.1") } != nil)
        try #require(server.peers.items.first).sendClose(code: 4200, reason: "Generic reconnect")
        #expect(await live.wait { $0 == .connected(socketID: "2.2") } != nil)
        let expected: [PusherClientEvent] = [
            .connected(socketID: "1.1"),
            .disconnected(error: .closed(code: 4200, reason: "Generic reconnect", isFatalDomain: false), willAttemptReconnect: true),
            .willAutomaticallyReconnect(afterDelay: 0),
            .connected(socketID: "2.2"),
        ]
        #expect(live.callbacks == expected)
    }

    @Test func close4001DoesNotReconnect() async throws {
        let server = try ScriptedWebSocketServer { peer in peer.sendClose(code: 4001, reason: "Could not find app by key") }
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        live.client.connect()
        let event = await live.wait { $0.isDisconnected }
        #expect(event == .disconnected(error: .closed(code: 4001, reason: "Could not find app by key", isFatalDomain: true), willAttemptReconnect: false))
        // Nothing is scheduled: the machine is at rest, so no second connection can follow.
        #expect(live.client.connectionState == .disconnected)
        #expect(server.peers.items.count == 1)
        #expect(!live.callbacks.contains { if case .willAutomaticallyReconnect = $0 { true } else { false } })
    }

    /// An initial connect that cannot succeed, and the kind of transport error it must report.
    enum InitialConnectFailure: String, Sendable, CaseIterable {
        /// Nothing listens on the port.
        case refused
        /// TLS to a server whose certificate the system trust store does not know.
        case untrustedCertificate
    }

    @Test(arguments: InitialConnectFailure.allCases)
    func aFailedInitialConnectIsReportedAndNotRetried(_ failure: InitialConnectFailure) async throws {
        let refusing = RefusingPort()
        let server = try failure == .untrustedCertificate ? greetingServer(tls: TLSMaterial.generate()) : nil
        defer { server?.stop() }
        let live = try LiveClient(port: server?.port ?? refusing.port) {
            $0.useTLS = failure == .untrustedCertificate
            $0.trustedCA = .system
        }
        defer { live.stop() }
        let error = try #require(await live.connectFailure())
        #expect(error.kind == (failure == .refused ? .connect : .tls))
        #expect(live.client.connectionState == .disconnected)
        #expect(!live.callbacks.contains { if case .willAutomaticallyReconnect = $0 { true } else { false } })
    }

    @Test func disconnectSendsClose1000AndReportsNoError() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        live.client.connect()
        #expect(await live.wait { $0.isConnected } != nil)
        live.client.disconnect()
        #expect(await live.wait { $0.isDisconnected } == .disconnected(error: nil, willAttemptReconnect: false))
        let peer = try #require(server.peers.items.first)
        #expect(await peer.received.wait { $0.contains(.close(code: 1000)) } != nil)
    }

    @Test func pingsAreAnswered() async throws {
        let server = try greetingServer()
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        let peer = try await live.connectedPeer(of: server)
        peer.sendPing([1, 2, 3])
        #expect(await peer.received.wait { $0.contains(.pong) } != nil)
        peer.sendText(#"{"event":"pusher:ping","data":"{}"}"#)
        #expect(await peer.text { $0 == #"{"event":"pusher:pong","data":{}}"# } != nil)
    }

    @Test func silenceSendsPusherPingAndAMissingPongReconnects() async throws {
        let server = try greetingServer(activityTimeout: 1)
        defer { server.stop() }
        let live = try LiveClient(port: server.port) { $0.connection.pongTimeout = 0.5 }
        defer { live.stop() }
        let peer = try await live.connectedPeer(of: server)
        #expect(await peer.text { $0 == #"{"event":"pusher:ping"}"# } != nil)
        let lost = await live.wait { $0.isDisconnected }
        guard case .disconnected(.transport(let error)?, true)? = lost else { Issue.record("got \(String(describing: lost))"); return }
        #expect(error.kind == .pongTimeout)
        #expect(await live.wait { $0 == .connected(socketID: "2.2") } != nil)
    }

    @Test func tlsWithTheHarnessCA() async throws {
        let material = try TLSMaterial.generate()
        let server = try greetingServer(tls: material)
        defer { server.stop() }
        let live = try LiveClient(port: server.port) {
            $0.useTLS = true
            $0.trustedCA = .pem(material.certificateAuthorityPEM)
        }
        defer { live.stop() }
        live.client.subscribe(to: "news")
        let peer = try await live.connectedPeer(of: server)
        #expect(await peer.text { $0 == #"{"event":"pusher:subscribe","data":{"channel":"news"}}"# } != nil)
        peer.sendText(#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"news"}"#)
        #expect(await live.wait { $0 == .subscribed(channel: "news") } != nil)
    }
}

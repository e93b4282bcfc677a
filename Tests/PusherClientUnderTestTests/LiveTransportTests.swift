// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket
import Synchronization
import Testing
@testable import PusherClientUnderTest

/// The WebSocket layer under the client: upgrade verification, fragmented and interleaved frames,
/// a masked frame from the server, the delegate, automatic connect, and the thread ending with the client.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct LiveTransportTests {
    /// A 101 answer the client must refuse, and what its handshake error names.
    struct RefusedUpgrade: Sendable, CustomTestStringConvertible {
        let name: String
        let responseHead: String
        let messageFragment: String
        var testDescription: String { name }

        static let all = [
            RefusedUpgrade(
                name: "wrong Sec-WebSocket-Accept",
                responseHead: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
                messageFragment: "wrongAcceptValue"),
            RefusedUpgrade(name: "404 instead of 101", responseHead: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", messageFragment: "404"),
        ]
    }

    @Test(arguments: RefusedUpgrade.all)
    func aRefusedUpgradeFailsTheConnect(_ refusal: RefusedUpgrade) async throws {
        let server = try ScriptedWebSocketServer(responseHead: { _ in Array(refusal.responseHead.utf8) })
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        let error = try #require(await live.connectFailure())
        #expect(error.kind == .handshake)
        #expect(error.message.contains(refusal.messageFragment))
        #expect(live.client.connectionState == .disconnected)
    }

    @Test func fragmentedMessagesWithAPingBetweenAreReassembled() async throws {
        let server = try ScriptedWebSocketServer { peer in peer.sendEstablished(socketID: "1.1") }
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        let peer = try await live.connectedPeer(of: server)
        let text = #"{"event":"split","data":"{\"n\":1}","channel":"c"}"#
        var encoder = WebSocketFrameEncoder.server
        let payload = Array(text.utf8)
        var bytes = encoder.encodeFrame(fin: false, opcode: .text, payload: Array(payload[0..<10]))
        bytes += encoder.encodePing([9])
        bytes += encoder.encodeFrame(fin: true, opcode: .continuation, payload: Array(payload[10...]))
        peer.sendRaw(bytes)
        peer.sendText(#"{"event":"three","data":"x","channel":"c"}"#, fragments: 3)
        let names = await live.events.wait { items in
            items.contains { if case .event(let m) = $0 { m.name == "three" } else { false } }
        }?.compactMap { if case .event(let m) = $0 { m.name } else { nil } }
        #expect(names == ["pusher:connection_established", "split", "three"])
        #expect(await peer.received.wait { $0.contains(.pong) } != nil)
    }

    @Test func aMaskedFrameFromTheServerIsAProtocolErrorAndReconnects() async throws {
        let server = try ScriptedWebSocketServer { peer in peer.sendEstablished(socketID: "\(peer.index).\(peer.index)") }
        defer { server.stop() }
        let live = try LiveClient(port: server.port)
        defer { live.stop() }
        live.client.connect()
        #expect(await live.wait { $0.isConnected } != nil)
        var clientEncoder = WebSocketFrameEncoder.client()
        try #require(server.peers.items.first).sendRaw(clientEncoder.encodeText("{}"))
        let lost = await live.wait { $0.isDisconnected }
        guard case .disconnected(.transport(let error)?, true)? = lost else { Issue.record("got \(String(describing: lost))"); return }
        #expect(error.kind == .io)
        // The client closes with 1002 and reconnects at once (a socket error while connected).
        #expect(await server.peers.items.first?.received.wait { $0.contains(.close(code: 1002)) } != nil)
        #expect(await live.wait { $0 == .connected(socketID: "2.2") } != nil)
    }

    @Test func theDelegateGetsLibPusherCallbacks() async throws {
        let server = try ScriptedWebSocketServer { peer in
            peer.sendEstablished(socketID: "1.1")
            peer.sendText(#"{"event":"pusher:error","data":{"code":4301,"message":"Client event rejected due to rate limit"}}"#)
            peer.sendClose(code: 4001)
        }
        defer { server.stop() }
        let recorder = DelegateRecorder()
        var options = PusherClientOptions(host: "127.0.0.1", port: server.port, useTLS: false)
        options.connectAutomatically = false
        let client = try PusherClient(key: "k", options: options, delegate: recorder)
        defer { client.disconnect() }
        client.connect()
        let calls = await recorder.calls.wait { $0.contains { $0.hasPrefix("didDisconnect") } }
        #expect(calls?.filter { !$0.hasPrefix("didReceive ") } == [
            "didConnect 1.1",
            "didReceiveErrorEvent 4301 Client event rejected due to rate limit",
            "didDisconnect 4001 false",
        ])
        #expect(calls?.contains("didReceive pusher:connection_established") == true)
    }

    @Test func connectAutomaticallyConnectsWithoutACall() async throws {
        let server = try ScriptedWebSocketServer { peer in peer.sendEstablished(socketID: "1.1") }
        defer { server.stop() }
        let recorder = DelegateRecorder()
        let client = try PusherClient(key: "k", options: PusherClientOptions(host: "127.0.0.1", port: server.port, useTLS: false), delegate: recorder)
        defer { client.disconnect() }
        #expect(await recorder.calls.wait { $0.contains("didConnect 1.1") } != nil)
    }

    @Test func releasingTheClientClosesItsSocket() async throws {
        let server = try ScriptedWebSocketServer { peer in peer.sendEstablished(socketID: "1.1") }
        defer { server.stop() }
        let recorder = DelegateRecorder()
        do {
            let client = try PusherClient(key: "k", options: PusherClientOptions(host: "127.0.0.1", port: server.port, useTLS: false), delegate: recorder)
            #expect(await recorder.calls.wait { $0.contains("didConnect 1.1") } != nil)
            _ = client
        }
        let peer = try #require(server.peers.items.first)
        let seen = await peer.received.wait { $0.contains { if case .ended = $0 { true } else { false } } }
        #expect(seen?.first == .close(code: 1000))
    }
}

/// A delegate that records its calls as short lines.
final class DelegateRecorder: PusherClientDelegate {
    let calls = Waitable<String>()

    func pusherDidConnect(_ client: PusherClient, socketID: String) { calls.append("didConnect \(socketID)") }
    func pusher(_ client: PusherClient, didDisconnectWithError error: PusherConnectionError?, willAttemptReconnect: Bool) {
        let code: String = if case .closed(let code, _, _)? = error { String(code) } else { String(describing: error) }
        calls.append("didDisconnect \(code) \(willAttemptReconnect)")
    }
    func pusher(_ client: PusherClient, failedWithError error: PusherConnectionError) { calls.append("failed \(error)") }
    func pusher(_ client: PusherClient, willAutomaticallyReconnectAfterDelay delay: Double) { calls.append("willReconnect \(delay)") }
    func pusher(_ client: PusherClient, didSubscribeTo channel: String) { calls.append("didSubscribe \(channel)") }
    func pusher(_ client: PusherClient, didReceiveErrorEvent code: Int?, message: String) {
        calls.append("didReceiveErrorEvent \(code.map(String.init) ?? "null") \(message)")
    }
    func pusher(_ client: PusherClient, didReceive event: PusherEventMessage) { calls.append("didReceive \(event.name)") }
}

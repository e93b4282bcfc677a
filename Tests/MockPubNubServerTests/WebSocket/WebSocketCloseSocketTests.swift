// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Close handshakes, their timeout, aborts, backpressure and watchdogs on real sockets.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct WebSocketCloseSocketTests {
    @Test func clientCloseIsAnsweredThenTCPCloses() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            client.sendClose(WebSocketClosePayload(code: .normalClosure, reason: "done"))
            let (frames, end) = client.readFramesToEnd()
            #expect(frames == [WebSocketFrame(opcode: .close, payload: [0x03, 0xE8])])
            #expect(end == .eof)
            #expect(log.waitForClose() == .closed(code: 1000, reason: "done", clean: true))
            #expect(eventually { server.openWebSocketCount == 0 && server.openConnectionCount == 0 })
        }
    }

    @Test func serverCloseHandshake() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            client.send(text: "close-me")
            let close = try client.readFrame().get()
            #expect(close == WebSocketFrame(opcode: .close, payload: [0x0F, 0xA0] + Array("bye".utf8)))
            // Data after the server's close frame is dropped, not echoed.
            client.send(text: "late")
            client.sendClose(WebSocketClosePayload(code: WebSocketCloseCode(4000)))
            let (frames, end) = client.readFramesToEnd()
            #expect(frames.isEmpty)
            #expect(end == .eof)
            #expect(log.waitForClose() == .closed(code: 4000, reason: "", clean: true))
            #expect(!log.all.contains(.text("late")))
        }
    }

    @Test func serverCloseTimesOutWhenThePeerNeverAnswers() throws {
        try withWebSocketServer(configure: { $0.webSocket.closeTimeout = .milliseconds(200) }) { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            client.send(text: "close-me")
            #expect(try client.readFrame().get().opcode == .close)
            let (frames, end) = client.readFramesToEnd(timeoutMs: 5000)
            #expect(frames.isEmpty)
            #expect(end == .eof)
            #expect(log.waitForClose() == .closed(code: 4000, reason: "bye", clean: false))
        }
    }

    @Test func peerDisappearingIsReportedAs1006() throws {
        try withWebSocketServer { server, log in
            do {
                let client = try WebSocketTestClient(port: server.address!.port)
                _ = try client.handshake(target: "/ws")
                #expect(log.wait { !$0.isEmpty } != nil)
            }
            #expect(log.waitForClose() == .closed(code: 1006, reason: "", clean: false))
            #expect(eventually { server.openConnectionCount == 0 })
        }
    }

    @Test func abortResetsTheConnection() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            let handle = try #require(log.wait { !$0.isEmpty } != nil ? log.lastHandle : nil)
            handle.abort()
            let (_, end) = client.readFramesToEnd()
            #expect(end == .error(104))  // ECONNRESET
            #expect(log.waitForClose() == .closed(code: 1006, reason: "aborted", clean: false))
        }
    }

    @Test func aClientThatNeverReadsIsClosedAndTheServerStaysUp() throws {
        try withWebSocketServer(configure: { $0.webSocket.maxOutboundBytes = 256 * 1024 }) { server, log in
            let port = server.address!.port
            let stuck = try WebSocketTestClient(port: port)
            _ = try stuck.handshake(target: "/ws")
            stuck.send(text: "flood")  // the server writes 128 MiB; this client reads none of it
            #expect(log.waitForClose(seconds: 10) == .closed(code: 1008, reason: "outbound buffer limit exceeded", clean: false))
            #expect(server.webSocketOverflowCount == 1)
            let fresh = try WebSocketTestClient(port: port)
            _ = try fresh.handshake(target: "/ws")
            fresh.send(text: "alive")
            #expect(try fresh.readFrame().get().payload == Array("alive".utf8))
        }
    }

    @Test func aFailedConnectionWhosePeerDoesNotReadIsClosedAfterTheCloseTimeout() throws {
        try withWebSocketServer(configure: {
            $0.webSocket.maxOutboundBytes = 64 << 20
            $0.webSocket.closeTimeout = .milliseconds(200)
        }) { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            client.send(text: "fill")  // 16 MiB queued; this client reads none of it
            #expect(log.wait { $0.contains(.text("fill")) } != nil)
            client.send([0x81, 0x01, 0x41])  // unmasked: the close frame waits behind the 16 MiB
            #expect(log.waitForClose() == .closed(code: 1002, reason: "client frame is not masked", clean: false))
            #expect(eventually { server.openConnectionCount == 0 })
        }
    }

    @Test func httpWatchdogsDoNotCloseAnUpgradedSocket() throws {
        try withWebSocketServer(configure: {
            $0.headerTimeout = .milliseconds(100)
            $0.idleTimeout = .milliseconds(100)
        }) { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            // Several times both timeouts pass in silence; the socket must stay open.
            if case .failure(let error) = client.readFrame(timeoutMs: 600) {
                #expect(error.end == .timedOut)
            } else {
                Issue.record("unexpected frame")
            }
            client.send(text: "later")
            #expect(try client.readFrame().get().payload == Array("later".utf8))
            #expect(server.connectionCloseCounts.idleTimeouts == 0)
            #expect(server.connectionCloseCounts.headerTimeouts == 0)
            #expect(!log.all.contains { if case .closed = $0 { true } else { false } })
        }
    }

    @Test func stoppingTheServerReportsOpenSockets() throws {
        let log = WebSocketEventLog()
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.extensions = [EchoExtension(log: log)]
        let server = try MockServer(configuration: configuration)
        try server.start()
        let client = try WebSocketTestClient(port: server.address!.port)
        _ = try client.handshake(target: "/ws")
        #expect(log.wait { !$0.isEmpty } != nil)
        server.stop()
        #expect(log.waitForClose() == .closed(code: 1006, reason: "server stopped", clean: false))
        #expect(client.readFramesToEnd().end == .eof)
    }
}

// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// Connecting, refusing and sharing the listener, over real sockets (plain and TLS).
@Suite("Pusher bridge: connections", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherBridgeConnectionTests {
    @Test(arguments: [false, true])
    func connectionEstablishedExactBytes(tls: Bool) throws {
        try withPusherServer { server in
            let socket = try server.connect(tls: tls)
            #expect(try socket.nextText() ==
                #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"166477.91849561\",\"activity_timeout\":120}"}"#)
            #expect(server.service.core.connectionCount == 1)
        }
    }

    @Test(arguments: [false, true])
    func unknownKeyUpgradesThenCloses4001WithTheLiveReason(tls: Bool) throws {
        try withPusherServer { server in
            let socket = try server.connect(key: "no-such-key", tls: tls)
            let close = try socket.nextFrame()
            #expect(close == WebSocketFrame(opcode: .close, payload: closePayload(
                4001, "Could not find app by key no-such-key. Perhaps you're connecting to the wrong cluster.")))
            socket.client.sendClose(WebSocketClosePayload(code: WebSocketCloseCode(4001)))
            #expect(socket.client.readFramesToEnd().end == .eof)
            #expect(eventually { server.service.openConnectionCount == 0 })
        }
    }

    @Test func otherPathsAreNotPusher() throws {
        try withPusherServer { server in
            let client = try WebSocketTestClient(port: server.port)
            let (text, head) = try client.handshake(target: "/apps/no-upgrade")
            #expect(head.status != 101, "got \(text)")
        }
    }

    @Test func pubNubEndpointsAreStillServedOnTheSameListener() throws {
        try withPusherServer { server in
            _ = try server.established()
            let client = try BlockingTestClient(port: server.port)
            client.send("GET /time/0 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            var received: [UInt8] = []
            for _ in 0..<100 {
                guard case .success(let bytes) = client.readOnce() else { break }
                received += bytes
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.hasSuffix("]"))
        }
    }

    @Test func aClientCloseUnregistersTheConnection() throws {
        try withPusherServer { server in
            let (socket, _) = try server.established()
            #expect(server.service.openConnectionCount == 1)
            socket.client.sendClose(WebSocketClosePayload(code: .normalClosure))
            #expect(socket.client.readFramesToEnd().end == .eof)
            #expect(eventually { server.service.openConnectionCount == 0 && server.service.core.connectionCount == 0 })
        }
    }

    @Test func wssGetsTheTLSFaultOfItsListener() throws {
        try withPusherServer(configure: { $0.tlsFault = .tlsExpired }) { (server: PusherTestServer) throws in
            #expect(throws: BlockingTestClient.ClientError.self) {
                _ = try WebSocketTestClient(port: server.tlsPort, trustedCAPEM: server.caPEM)
            }
            // The plain listener serves Pusher as usual.
            let (_, socketID) = try server.established()
            #expect(socketID == "166477.91849561")
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// Pings, pongs and the idle killer with short app timeouts, on the service's own timers.
@Suite("Pusher bridge: activity", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherBridgeActivityTests {
    static var shortTimeouts: PusherApp {
        var app = testApp
        app.options.activityTimeout = .seconds(1)
        app.options.pongTimeout = .milliseconds(500)
        return app
    }

    @Test func pusherPingIsAnsweredWithPusherPong() throws {
        try withPusherServer { server in
            let (socket, _) = try server.established()
            socket.send(#"{"event":"pusher:ping","data":{}}"#)
            #expect(try socket.nextText() == #"{"event":"pusher:pong","data":"{}"}"#)
        }
    }

    @Test func answeredWebSocketPingsKeepTheConnectionThenSilenceCloses4201() throws {
        try withPusherServer(apps: [Self.shortTimeouts]) { server in
            let socket = try server.connect()
            #expect(try socket.nextText() ==
                #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"166477.91849561\",\"activity_timeout\":1}"}"#)
            for _ in 0..<2 {
                let ping = try socket.nextFrame(timeoutMs: 3000)
                #expect(ping == WebSocketFrame(opcode: .ping, payload: []))
                socket.client.send(socket.client.encoder.encodePong([]))
            }
            let ping = try socket.nextFrame(timeoutMs: 3000)
            #expect(ping.opcode == .ping)
            let close = try socket.nextFrame(timeoutMs: 3000)
            #expect(close == WebSocketFrame(opcode: .close, payload: closePayload(4201, "Pong reply not received")))
            #expect(server.service.core.connectionCount == 0)
        }
    }

    @Test func pusherEventProbeIsAnsweredWithPusherPong() throws {
        var app = Self.shortTimeouts
        app.options.serverPing = .pusherEvent
        try withPusherServer(apps: [app]) { server in
            let (socket, _) = try server.established()
            #expect(try socket.nextText(timeoutMs: 3000) == #"{"event":"pusher:ping","data":"{}"}"#)
            socket.send(#"{"event":"pusher:pong","data":"{}"}"#)
            #expect(try socket.nextText(timeoutMs: 3000) == #"{"event":"pusher:ping","data":"{}"}"#)
            #expect(server.service.core.connectionCount == 1)
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// Withheld pongs and one-kind server pings.
@Suite("Pusher faults: pings and pongs", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherPingFaultTests {
    @Test func withheldPusherPongsLeaveWebSocketPongs() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"withhold-pongs","which":"pusher"}}]}"#)
            let (socket, _) = try server.established()
            socket.send(#"{"event":"pusher:ping","data":{}}"#)
            socket.client.send(socket.client.encoder.encodePing([7]))
            // The WebSocket pong is the next frame: the pusher:pong before it was swallowed.
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .pong, payload: [7]))
        }
    }

    @Test func withheldWebSocketPongsLeavePusherPongs() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"withhold-pongs","which":"websocket"}}]}"#)
            let (socket, _) = try server.established()
            socket.client.send(socket.client.encoder.encodePing([7]))
            socket.send(#"{"event":"pusher:ping","data":{}}"#)
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .text, payload: Array(#"{"event":"pusher:pong","data":"{}"}"#.utf8)))
            // The ping still counted as activity and is in the journal.
            #expect(server.service.journal.entries(for: testApp.key).contains { $0.kind == .webSocketPing })
        }
    }

    @Test func withholdingBothSendsNoPongAtAll() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"withhold-pongs"}}]}"#)
            let (socket, _) = try server.established()
            socket.client.send(socket.client.encoder.encodePing([7]))
            socket.send(#"{"event":"pusher:ping","data":{}}"#)
            socket.send(#"{"event":"pusher:subscribe","data":{"channel":"marker"}}"#)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"marker"}"#)
        }
    }

    @Test func onlyPusherPingsAlthoughTheAppPrefersWebSocketPings() throws {
        try withPusherServer(apps: [PusherBridgeActivityTests.shortTimeouts]) { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"server-ping-only","ping":"pusher"}}]}"#)
            let (socket, _) = try server.established()
            #expect(try socket.nextFrame(timeoutMs: 3000) == WebSocketFrame(opcode: .text, payload: Array(#"{"event":"pusher:ping","data":"{}"}"#.utf8)))
        }
    }

    @Test func onlyWebSocketPingsAlthoughTheAppPrefersPusherPings() throws {
        var app = PusherBridgeActivityTests.shortTimeouts
        app.options.serverPing = .pusherEvent
        try withPusherServer(apps: [app]) { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"server-ping-only","ping":"websocket"}}]}"#)
            let (socket, _) = try server.established()
            #expect(try socket.nextFrame(timeoutMs: 3000) == WebSocketFrame(opcode: .ping, payload: []))
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// `close` faults at each moment, and a reconnect storm, over real sockets.
@Suite("Pusher faults: close", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherCloseFaultTests {
    static let established = #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"166477.91849561\",\"activity_timeout\":120}"}"#

    @Test func aStormOf4200ClosesBeforeEstablishedThenNormalService() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"id":"storm","times":2,"fault":{"kind":"close","code":4200,"reason":"Reconnect now","at":"before-established"}}]}"#)
            for _ in 0..<2 {
                let socket = try server.connect()
                #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4200, "Reconnect now")))
                socket.client.sendClose(WebSocketClosePayload(code: WebSocketCloseCode(4200)))
                #expect(socket.client.readFramesToEnd().end == .eof)
            }
            let socket = try server.connect()
            // The faulted connections drew the first two socket ids.
            #expect(try socket.nextText() == #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"915263.77543320\",\"activity_timeout\":120}"}"#)
            #expect(server.service.faults.faultedCounts(for: testApp.key) == [2])
            #expect(eventually { server.service.core.connectionCount == 1 })
        }
    }

    @Test func aStormOf4100ClosesIsReplayedAfterReinstalling() throws {
        try withPusherServer { server in
            let plan = #"{"rules":[{"times":1,"fault":{"kind":"close","code":4100,"reason":"Over capacity"}}]}"#
            for _ in 0..<2 {
                try server.installPlan(plan)
                let socket = try server.connect()
                #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4100, "Over capacity")))
            }
        }
    }

    /// A close the server starts is journaled with the moment its frame went out (`closingAt`, from
    /// which a client's backoff runs), before the end the client's answer makes; a close the client
    /// starts has none.
    @Test func theJournalKeepsWhenTheServerSentItsClose() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"times":1,"fault":{"kind":"close","code":4100,"reason":"Over capacity"}}]}"#)
            let socket = try server.connect()
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4100, "Over capacity")))
            socket.client.sendClose(WebSocketClosePayload(code: WebSocketCloseCode(4100)))
            #expect(socket.client.readFramesToEnd().end == .eof)
            let (other, _) = try server.established()
            other.client.sendClose(WebSocketClosePayload(code: .normalClosure))
            #expect(other.client.readFramesToEnd().end == .eof)
            func closes() -> [PusherJournalEntry] {
                server.service.journal.entries(for: testApp.key).filter { if case .closed = $0.kind { true } else { false } }
            }
            #expect(eventually { closes().count == 2 })
            let entries = closes()
            guard entries.count == 2, case let .closed(code, _, _, closingAt) = entries[0].kind, case let .closed(_, _, _, none) = entries[1].kind else {
                Issue.record("closed entries: \(entries)")
                return
            }
            #expect(code == 4100)
            #expect(closingAt.map { $0 <= entries[0].at } == true)
            #expect(entries[0].json["closingAtMs"]?.intValue == closingAt.map { Int($0.milliseconds) })
            #expect(none == nil)
            #expect(entries[1].json["closingAtMs"] == nil)
        }
    }

    @Test func closeRightAfterEstablished() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"close","code":4201,"reason":"Pong reply not received","at":"after-established"}}]}"#)
            let socket = try server.connect()
            #expect(try socket.nextText() == Self.established)
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4201, "Pong reply not received")))
        }
    }

    @Test func closeAfterSubscribingToAChannel() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"close","code":4009,"reason":"gone","at":"after-subscribed","channel":"news"}}]}"#)
            let (socket, _) = try server.established()
            #expect(try socket.subscribe("other") == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"other"}"#)
            #expect(try socket.subscribe("news") == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"news"}"#)
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4009, "gone")))
        }
    }

    @Test func closeAfterTheNthMessage() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"close","code":1001,"reason":"","at":"after-messages","count":2}}]}"#)
            let (socket, _) = try server.established()
            _ = try socket.subscribe("news")
            try server.service.trigger(appID: testApp.id, event: "one", data: "1", channels: ["news"])
            try server.service.trigger(appID: testApp.id, event: "two", data: "2", channels: ["news"])
            #expect(try socket.nextText() == #"{"event":"one","data":"1","channel":"news"}"#)
            #expect(try socket.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(1001, "")))
        }
    }

    @Test func rulesSelectConnectionsByQueryAndAfter() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"after":1,"match":{"query":{"client":"js"}},"fault":{"kind":"close","code":4200}}]}"#)
            let first = try server.connect()
            #expect(try first.nextText().contains("connection_established"))
            let other = try server.connect(query: "protocol=7&client=swift")
            #expect(try other.nextText().contains("connection_established"))
            let second = try server.connect()
            #expect(try second.nextFrame() == WebSocketFrame(opcode: .close, payload: closePayload(4200, "")))
        }
    }
}

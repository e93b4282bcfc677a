// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

/// The pure transformation of the core's actions by one connection's faults.
@Suite("Pusher connection faults", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherConnectionFaultsTests {
    static let id = PusherConnectionID(1)
    static let established = #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.2\",\"activity_timeout\":120}"}"#
    static func succeeded(_ channel: String) -> String {
        #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"\#(channel)"}"#
    }

    static func faults(_ list: PusherFault...) -> PusherConnectionFaults {
        PusherConnectionFaults(list.enumerated().map { PusherAppliedFault(rule: "r\($0.offset)", fault: $0.element) })
    }

    @Test func withoutFaultsEverythingPassesUnchanged() {
        var faults = PusherConnectionFaults()
        #expect(faults.steps(for: .send(Self.id, Self.established)) == [.text(Self.established)])
        #expect(faults.steps(for: .webSocketPing(Self.id)) == [.ping])
        #expect(faults.steps(for: .close(Self.id, code: 4201, reason: "r")) == [.close(code: 4201, reason: "r")])
        #expect(faults.answersWebSocketPings)
    }

    @Test func afterAFaultCloseNothingElseGoesOut() {
        var faults = Self.faults(.close(code: 4200, reason: "x", at: .afterEstablished))
        #expect(faults.steps(for: .send(Self.id, Self.established)) == [.text(Self.established), .close(code: 4200, reason: "x")])
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("a"))).isEmpty)
        #expect(faults.steps(for: .webSocketPing(Self.id)).isEmpty)
        #expect(faults.steps(for: .close(Self.id, code: 4201, reason: "")).isEmpty)
    }

    @Test func aDelayedSubscriptionDelaysItsFaultCloseToo() {
        var faults = Self.faults(
            .delaySubscriptionSucceeded(channel: "a", milliseconds: 50), .close(code: 4009, reason: "", at: .afterSubscribed(channel: "a")))
        _ = faults.steps(for: .send(Self.id, Self.established))
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("b"))) == [.text(Self.succeeded("b"))])
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("a"))) == [
            .later(milliseconds: 50, .text(Self.succeeded("a"))), .later(milliseconds: 50, .close(code: 4009, reason: "")),
        ])
    }

    @Test func aDroppedSubscriptionNeverTriggersItsClose() {
        var faults = Self.faults(.dropSubscriptionSucceeded(channel: nil), .close(code: 4009, reason: "", at: .afterSubscribed(channel: "a")))
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("a"))).isEmpty)
        #expect(faults.steps(for: .send(Self.id, #"{"event":"e","data":"1","channel":"a"}"#)) == [.text(#"{"event":"e","data":"1","channel":"a"}"#)])
    }

    @Test func messagesAreCountedFromConnectionEstablished() {
        var faults = Self.faults(.close(code: 1001, reason: "", at: .afterMessages(count: 2)))
        #expect(faults.steps(for: .send(Self.id, Self.established)) == [.text(Self.established)])
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("a"))) == [.text(Self.succeeded("a"))])
        #expect(faults.steps(for: .send(Self.id, Self.succeeded("b"))) == [.text(Self.succeeded("b")), .close(code: 1001, reason: "")])
    }

    @Test func pingKindsAreSwapped() {
        var pusherOnly = Self.faults(.serverPingOnly(.pusher))
        #expect(pusherOnly.steps(for: .webSocketPing(Self.id)) == [.text(#"{"event":"pusher:ping","data":"{}"}"#)])
        var webSocketOnly = Self.faults(.serverPingOnly(.websocket))
        #expect(webSocketOnly.steps(for: .send(Self.id, #"{"event":"pusher:ping","data":"{}"}"#)) == [.ping])
    }

    @Test func withheldPongKinds() {
        var pusher = Self.faults(.withholdPongs(.pusher))
        #expect(pusher.steps(for: .send(Self.id, #"{"event":"pusher:pong","data":"{}"}"#)).isEmpty)
        #expect(pusher.answersWebSocketPings)
        var webSocket = Self.faults(.withholdPongs(.websocket))
        #expect(webSocket.steps(for: .send(Self.id, #"{"event":"pusher:pong","data":"{}"}"#)) == [.text(#"{"event":"pusher:pong","data":"{}"}"#)])
        #expect(!webSocket.answersWebSocketPings)
        #expect(!Self.faults(.withholdPongs(.both)).answersWebSocketPings)
    }
}

// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher activity timers", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherActivityTests {
    let one = PusherConnectionID(1)

    @Test func silentConnectionGetsAWebSocketPingAfterTheActivityTimeout() {
        var bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        #expect(bed.core.nextDeadline == start + .seconds(120))
        bed.now = start + .seconds(119)
        #expect(bed.core.handle(.tick(now: bed.now)).isEmpty)
        bed.now = start + .seconds(120)
        #expect(bed.core.handle(.tick(now: bed.now)) == [.webSocketPing(one)])
        #expect(bed.core.nextDeadline == start + .seconds(150))
    }

    @Test func noPongWithinThePongTimeoutCloses4201() {
        var bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        _ = bed.core.handle(.tick(now: start + .seconds(120)))
        #expect(bed.core.handle(.tick(now: start + .seconds(149))).isEmpty)
        bed.now = start + .seconds(150)
        #expect(bed.core.handle(.tick(now: bed.now)) == [.close(one, code: 4201, reason: "Pong reply not received")])
        #expect(bed.core.connectionCount == 0)
        #expect(bed.core.handle(.tick(now: bed.now + .seconds(600))).isEmpty)
    }

    @Test func aPongKeepsTheConnectionAndRestartsTheIdleClock() {
        let bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        _ = bed.core.handle(.tick(now: start + .seconds(120)))
        #expect(bed.core.handle(.pong(one, now: start + .seconds(125))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(150))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(244))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(245))) == [.webSocketPing(one)])
    }

    @Test func aWebSocketPingFromTheClientCountsAsActivity() {
        let bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        #expect(bed.core.handle(.ping(one, now: start + .seconds(60))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(120))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(180))) == [.webSocketPing(one)])
    }

    @Test func clientMessagesPostponeTheProbe() {
        var bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        bed.now = start + .seconds(100)
        bed.send(1, #"{"event":"pusher:ping"}"#)
        #expect(bed.core.handle(.tick(now: start + .seconds(120))).isEmpty)
        #expect(bed.core.nextDeadline == start + .seconds(220))
        #expect(bed.core.handle(.tick(now: start + .seconds(220))) == [.webSocketPing(one)])
    }

    @Test func pusherPingEventModeSendsTheEventAndItsPongAnswers() {
        var app = docApp
        app.options.serverPing = .pusherEvent
        app.options.activityTimeout = .seconds(10)
        app.options.pongTimeout = .seconds(5)
        var bed = PusherTestBed(app: app)
        let start = bed.now
        bed.connect(1)
        #expect(bed.core.handle(.tick(now: start + .seconds(10))) == [.send(one, #"{"event":"pusher:ping","data":"{}"}"#)])
        bed.now = start + .seconds(12)
        #expect(bed.send(1, #"{"event":"pusher:pong","data":"{}"}"#).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(15))).isEmpty)
        #expect(bed.core.connectionCount == 1)
    }

    @Test func manyConnectionsAreProbedInOneTickAndEachOnlyOnce() {
        let bed = PusherTestBed()
        for number in 1...50 { bed.connect(UInt64(number)) }
        let actions = bed.core.handle(.tick(now: bed.now + .seconds(121)))
        #expect(Set(actions) == Set((1...50).map { PusherAction.webSocketPing(PusherConnectionID(UInt64($0))) }))
        #expect(actions.count == 50)
        #expect(bed.core.handle(.tick(now: bed.now + .seconds(122))).isEmpty)
    }

    @Test func aReusedConnectionIDKeepsOnlyItsOwnTimer() {
        let bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        _ = bed.core.handle(.closed(one, now: start + .seconds(60)))
        _ = bed.core.handle(.connected(one, appKey: docApp.key, query: [PusherQueryItem("protocol", "7")], now: start + .seconds(60)))
        #expect(bed.core.handle(.tick(now: start + .seconds(120))).isEmpty)
        #expect(bed.core.handle(.tick(now: start + .seconds(180))) == [.webSocketPing(one)])
    }

    @Test func the4201CloseLeavesPresenceLikeAnyClose() {
        let bed = PusherTestBed()
        let start = bed.now
        bed.connect(1)
        bed.subscribe(1, "presence-p", channelData: #"{"user_id":"gone"}"#)
        bed.connect(2)
        let secondStart = start + .seconds(100)
        _ = bed.core.handle(.text(PusherConnectionID(2), #"{"event":"pusher:subscribe","data":{"channel":"news"}}"#, now: secondStart))
        _ = bed.core.handle(.pong(PusherConnectionID(2), now: secondStart))
        let watcherAuth = PusherSignatures.channelAuth(
            app: docApp, socketID: bed.core.socketID(of: PusherConnectionID(2)) ?? "", channel: "presence-p", channelData: #"{"user_id":"w"}"#)
        _ = bed.core.handle(.text(PusherConnectionID(2), #"{"event":"pusher:subscribe","data":{"channel":"presence-p","auth":"\#(watcherAuth)","channel_data":"{\"user_id\":\"w\"}"}}"#, now: secondStart))
        _ = bed.core.handle(.tick(now: start + .seconds(120)))
        let actions = bed.core.handle(.tick(now: start + .seconds(150)))
        #expect(actions.first == .close(one, code: 4201, reason: "Pong reply not received"))
        #expect(sent(actions, to: 2) == [#"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"gone\"}","channel":"presence-p"}"#])
        #expect(webhooks(actions) == [.memberRemoved(channel: "presence-p", userID: "gone")])
    }
}

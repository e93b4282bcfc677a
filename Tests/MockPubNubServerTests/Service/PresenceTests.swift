// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PresenceTests {
    /// The wall-clock second of the harness clock.
    let second = 1_735_689_600

    /// The harness clock's milliseconds at `second` (its fraction is .1234567 s).
    private func millis(_ second: Int) -> Int { second * 1000 + 123 }

    /// A presence envelope as the live service sends it (recorded 2025): `u` with the `pn_*` keys
    /// sorted, `d` with `precise_timestamp` (state-change, recorded 2020, has neither).
    private func event(
        _ tt: UInt64, _ channel: String, _ action: String, _ uuid: String, occupancy: Int, at second: Int,
        data: String? = nil, via: String? = nil
    ) -> String {
        let precise = action != "state-change"
        let u = "{\"pn_action\":\"\(action)\",\"pn_channel\":\"\(channel)\",\"pn_ispresence\":1,\"pn_occupancy\":\(occupancy)"
            + (precise ? ",\"pn_precise_timestamp\":\(millis(second))" : "") + ",\"pn_timestamp\":\(second),\"pn_uuid\":\"\(uuid)\"}"
        let d = "{\"action\":\"\(action)\",\"uuid\":\"\(uuid)\",\"timestamp\":\(second)"
            + (precise ? ",\"precise_timestamp\":\(millis(second))" : "") + (data.map { ",\"data\":" + $0 } ?? "")
            + ",\"occupancy\":\(occupancy)}"
        return "{\"a\":\"2\",\"f\":0,\"p\":{\"t\":\"\(tt)\",\"r\":12},\"k\":\"demo\",\"c\":\"\(channel)-pnpres\",\"u\":\(u),\"d\":\(d),"
            + "\"b\":\"\(via ?? channel + "-pnpres")\"}"
    }

    @Test func joinStateChangeLeaveSequence() {
        let h = ServiceHarness()
        let (_, handshake) = h.call("/v2/subscribe/demo/ch-pnpres/0?tt=0")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=10&uuid=alice")
            == (200, "{\"message\":\"OK\",\"service\":\"Presence\",\"status\":200}"))
        let state = PercentDecoding.encode("{\"k\": 1}")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/uuid/alice/data?state=\(state)&uuid=alice")
            == (200, "{\"message\":\"OK\",\"payload\":{\"k\": 1},\"service\":\"Presence\",\"status\":200}"))
        #expect(h.call("/v2/presence/sub_key/demo/channel/ch,ch-pnpres/leave?uuid=alice")
            == (200, "{\"action\":\"leave\",\"message\":\"OK\",\"service\":\"Presence\",\"status\":200}"))
        let (_, events) = h.call("/v2/subscribe/demo/ch-pnpres/0?tt=\(ServiceHarness.cursor(handshake))")
        #expect(events == "{\"t\":{\"t\":\"\(serviceFirstTT + 3)\",\"r\":12},\"m\":["
            + event(serviceFirstTT + 1, "ch", "join", "alice", occupancy: 1, at: second) + ","
            + event(serviceFirstTT + 2, "ch", "state-change", "alice", occupancy: 1, at: second, data: "{\"k\": 1}") + ","
            + event(serviceFirstTT + 3, "ch", "leave", "alice", occupancy: 0, at: second, data: "{\"k\": 1}")
            + "]}")
    }

    @Test func subscribeJoinsAndTimeoutFollowsTheClientsHeartbeatValue() {
        let h = ServiceHarness()
        h.call("/v2/subscribe/demo/ch/0?tt=0&heartbeat=10&uuid=bob")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"occupancy\":1,\"service\":\"Presence\",\"status\":200,\"uuids\":[\"bob\"]"))
        h.scheduler.advance(by: .seconds(9))
        h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=10&uuid=bob")
        h.scheduler.advance(by: .seconds(9))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"occupancy\":1"))
        h.time.advance(seconds: 30)
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x")
            == (200, "{\"message\":\"OK\",\"occupancy\":0,\"service\":\"Presence\",\"status\":200,\"uuids\":[]}"))
        #expect(h.scheduler.pending == 0)
        let (_, events) = h.call("/v2/subscribe/demo/ch-pnpres/0?tt=1")
        #expect(events == "{\"t\":{\"t\":\"\(serviceFirstTT + 300_000_000)\",\"r\":12},\"m\":["
            + event(serviceFirstTT + 1, "ch", "join", "bob", occupancy: 1, at: second) + ","
            + event(serviceFirstTT + 300_000_000, "ch", "timeout", "bob", occupancy: 0, at: second + 30)
            + "]}")
    }

    @Test func floorAndDefaultPresenceTimeouts() {
        let h = ServiceHarness(PubNubServiceConfiguration(presenceTimeoutFloor: 20, defaultPresenceTimeout: 300))
        h.call("/v2/presence/sub-key/demo/channel/a/heartbeat?heartbeat=5&uuid=u1")
        h.call("/v2/presence/sub-key/demo/channel/b/heartbeat?uuid=u2")
        h.scheduler.advance(by: .seconds(19))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u1").1.contains("[\"a\"]"))
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u1")
            == (200, "{\"message\":\"OK\",\"payload\":{\"channels\":[]},\"service\":\"Presence\",\"status\":200}"))
        h.scheduler.advance(by: .seconds(279))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u2").1.contains("[\"b\"]"))
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u2").1.contains("[]"))
    }

    @Test func hereNowWhereNowAndStateBodies() {
        let h = ServiceHarness()
        h.call("/v2/presence/sub-key/demo/channel/ch1,ch2/heartbeat?uuid=alice")
        h.call("/v2/presence/sub-key/demo/channel/ch1/heartbeat?uuid=bob&state=\(PercentDecoding.encode("{\"ch1\": {\"k\": 1}}"))")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1?uuid=x")
            == (200, "{\"message\":\"OK\",\"occupancy\":2,\"service\":\"Presence\",\"status\":200,\"uuids\":[\"alice\",\"bob\"]}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1?disable_uuids=1")
            == (200, "{\"message\":\"OK\",\"occupancy\":2,\"service\":\"Presence\",\"status\":200}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1?state=1").1
            == "{\"message\":\"OK\",\"occupancy\":2,\"service\":\"Presence\",\"status\":200,\"uuids\":[{\"uuid\":\"alice\"},{\"state\":{\"k\": 1},\"uuid\":\"bob\"}]}")
        let multi = "{\"message\":\"OK\",\"payload\":{\"channels\":{\"ch1\":{\"occupancy\":2,\"uuids\":[\"alice\",\"bob\"]},"
            + "\"ch2\":{\"occupancy\":1,\"uuids\":[\"alice\"]}},\"total_channels\":2,\"total_occupancy\":3},\"service\":\"Presence\",\"status\":200}"
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1,ch2,empty") == (200, multi))
        #expect(h.call("/v2/presence/sub-key/demo") == (200, multi))
        #expect(h.call("/v2/presence/sub-key/demo?disable_uuids=1") == (200, "{\"message\":\"OK\",\"payload\":{\"channels\":"
            + "{\"ch1\":{\"occupancy\":2},\"ch2\":{\"occupancy\":1}},\"total_channels\":2,\"total_occupancy\":3},\"service\":\"Presence\",\"status\":200}"))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/alice")
            == (200, "{\"message\":\"OK\",\"payload\":{\"channels\":[\"ch1\",\"ch2\"]},\"service\":\"Presence\",\"status\":200}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1/uuid/bob")
            == (200, "{\"status\": 200, \"uuid\": \"bob\", \"service\": \"Presence\", \"message\": \"OK\", \"payload\": {\"k\": 1}, \"channel\": \"ch1\"}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1,ch2/uuid/bob")
            == (200, "{\"status\": 200, \"message\": \"OK\", \"payload\": {\"channels\": {\"ch1\": {\"k\": 1}}}, \"service\": \"Presence\", \"uuid\": \"bob\"}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch1/uuid/alice").1.contains("\"payload\": {}, "))
    }

    @Test func setStateErrors() {
        let h = ServiceHarness()
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/uuid/u/data")
            == (400, "{\"status\": 400, \"error\": 1, \"message\": \"No state specified.\", \"service\": \"Presence\"}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/uuid/u/data?state=%5B1%5D")
            == (400, "{\"status\": 400, \"error\": 1, \"message\": \"Invalid JSON specified.\", \"service\": \"Presence\"}"))
    }

    @Test func groupSubscribersAppearOnMemberChannelsAndGroupPresenceIsDelivered() {
        let h = ServiceHarness()
        h.call("/v1/channel-registration/sub-key/demo/channel-group/g?add=a,b")
        let watcher = h.send("/v2/subscribe/demo/,/0?channel-group=g-pnpres&tt=1")
        #expect(watcher.actions.isEmpty)
        h.call("/v2/subscribe/demo/,/0?channel-group=g&tt=0&uuid=carol")
        // The handshake takes serviceFirstTT; both joins are delivered together, `b` naming the presence group.
        func join(_ tt: UInt64, _ channel: String) -> String {
            event(tt, channel, "join", "carol", occupancy: 1, at: second, via: "g-pnpres")
        }
        #expect(watcher.body == "{\"t\":{\"t\":\"\(serviceFirstTT + 2)\",\"r\":12},\"m\":[" + join(serviceFirstTT + 1, "a") + "," + join(serviceFirstTT + 2, "b") + "]}")
        #expect(h.call("/v2/presence/sub-key/demo/channel/,?channel-group=g").1.contains("\"total_channels\":2"))
    }

    @Test func subscribeStateIsCarriedByTheJoinAndGroupLeaveLeavesMembers() {
        let h = ServiceHarness()
        h.call("/v1/channel-registration/sub-key/demo/channel-group/g?add=a")
        let state = PercentDecoding.encode("{\"g\": {\"mood\": \"ok\"}}")
        h.call("/v2/subscribe/demo/b/0?tt=0&channel-group=g&uuid=dan&state=\(state)")
        #expect(h.call("/v2/presence/sub-key/demo/channel/a/uuid/dan").1.contains("\"payload\": {\"mood\": \"ok\"}, "))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/dan").1.contains("[\"a\",\"b\"]"))
        h.call("/v2/presence/sub-key/demo/channel/,/leave?channel-group=g&uuid=dan")
        #expect(h.call("/v2/presence/sub-key/demo/uuid/dan").1.contains("[\"b\"]"))
        let (_, events) = h.call("/v2/subscribe/demo/a-pnpres/0?tt=1")
        #expect(events == "{\"t\":{\"t\":\"\(serviceFirstTT + 3)\",\"r\":12},\"m\":["
            + event(serviceFirstTT + 2, "a", "join", "dan", occupancy: 1, at: second, data: "{\"mood\": \"ok\"}") + ","
            + event(serviceFirstTT + 3, "a", "leave", "dan", occupancy: 0, at: second, data: "{\"mood\": \"ok\"}")
            + "]}")
    }

    /// Recorded (2020): state set with set-state before the uuid joins is not carried by its join.
    @Test func joinAfterSetStateCarriesNoData() {
        let h = ServiceHarness()
        let state = PercentDecoding.encode("{\"k\": 1}")
        h.call("/v2/presence/sub-key/demo/channel/ch/uuid/eve/data?state=\(state)&uuid=eve")
        h.call("/v2/subscribe/demo/ch,ch-pnpres/0?tt=0&uuid=eve")
        let (_, events) = h.call("/v2/subscribe/demo/ch-pnpres/0?tt=1")
        #expect(events == "{\"t\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"m\":["
            + event(serviceFirstTT + 1, "ch", "join", "eve", occupancy: 1, at: second) + "]}")
    }
}

/// Found by the soak (docs/reliability.md): a uuid on several channels that heartbeats one of them
/// at a time piled up one presence timer per heartbeat, and each expiry copied the whole pile,
/// until the event loops spent minutes under the keyspace lock.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PresenceTimerBoundTests {
    @Test func heartbeatsOnOneOfSeveralChannelsKeepOneDeadlinePerChannel() {
        let h = ServiceHarness()
        h.call("/v2/presence/sub-key/demo/channel/a/heartbeat?heartbeat=60&uuid=u")
        h.call("/v2/presence/sub-key/demo/channel/b/heartbeat?heartbeat=60&uuid=u")
        for index in 0..<500 {
            let channel = index.isMultiple(of: 2) ? "a" : "b"
            h.call("/v2/presence/sub-key/demo/channel/\(channel)/heartbeat?heartbeat=60&uuid=u")
        }
        // One timer serves the key's deadlines, and those no channel was refreshed at are dropped
        // as they pile up (two are live here).
        #expect(h.scheduler.pending == 1)
        #expect(h.service.presenceDeadlineCount(subscribeKey: "demo") <= 64)
        // Presence still times out per channel: b refreshed last, a one heartbeat earlier.
        h.call("/v2/presence/sub-key/demo/channel/b/heartbeat?heartbeat=60&uuid=u")
        h.scheduler.advance(by: .seconds(30))
        h.call("/v2/presence/sub-key/demo/channel/b/heartbeat?heartbeat=60&uuid=u")
        h.scheduler.advance(by: .seconds(30))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u").1.contains("\"channels\":[\"b\"]"))
        h.scheduler.advance(by: .seconds(30))
        #expect(h.call("/v2/presence/sub-key/demo/uuid/u").1.contains("\"channels\":[]"))
        #expect(h.scheduler.pending == 0)
    }

    @Test func aShorterTimeoutAddedLaterIsServedFirstByTheOneTimer() {
        let h = ServiceHarness()
        h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=60&uuid=slow")
        h.scheduler.advance(by: .seconds(1))
        h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=10&uuid=quick")
        #expect(h.scheduler.pending == 1)
        h.scheduler.advance(by: .seconds(9))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"uuids\":[\"quick\",\"slow\"]"))
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"uuids\":[\"slow\"]"))
        #expect(h.scheduler.pending == 1)
        h.scheduler.advance(by: .seconds(48))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"uuids\":[\"slow\"]"))
        h.scheduler.advance(by: .seconds(1))
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch?uuid=x").1.contains("\"uuids\":[]"))
        #expect(h.scheduler.pending == 0)
        #expect(h.service.presenceDeadlineCount(subscribeKey: "demo") == 0)
    }
}

/// The heap of presence deadlines on its own: order, the sweep it asks for, compaction.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PresenceDeadlinesTests {
    private final class Probe: ScheduledWork {
        func cancel() {}
    }

    @Test func deadlinesPopInOrderAndAnEarlierOneReplacesTheArmedSweep() throws {
        var deadlines = PresenceDeadlines()
        deadlines.add(.init(deadline: 50, generation: 1, uuid: "a")) { _ in true }
        let firstArm = deadlines.sweepToArm()
        let first = try #require(firstArm)
        #expect(first.deadline == 50 && first.replaced == nil)
        let probe = Probe()
        deadlines.setSweep(probe, token: first.token)
        deadlines.add(.init(deadline: 70, generation: 2, uuid: "b")) { _ in true }
        let notEarlier = deadlines.sweepToArm()
        #expect(notEarlier == nil)
        deadlines.add(.init(deadline: 20, generation: 3, uuid: "c")) { _ in true }
        let secondArm = deadlines.sweepToArm()
        let second = try #require(secondArm)
        #expect(second.deadline == 20 && second.replaced as? Probe === probe)
        let replacedFired = deadlines.fired(token: first.token)
        let armedFired = deadlines.fired(token: second.token)
        #expect(!replacedFired && armedFired)
        let popped = [deadlines.popDue(now: 60), deadlines.popDue(now: 60), deadlines.popDue(now: 60)]
        #expect(popped.map { $0?.uuid } == ["c", "a", nil])
        #expect(deadlines.count == 1)
    }

    @Test func staleDeadlinesAreDroppedOnceTheyPileUp() {
        var deadlines = PresenceDeadlines()
        // Only even generations stay live; the heap never holds more than twice the live ones plus 64.
        for generation in 0..<1_000 {
            deadlines.add(.init(deadline: UInt64(generation), generation: UInt64(generation), uuid: "u")) {
                $0.generation >= 900 || $0.generation.isMultiple(of: 100)
            }
        }
        #expect(deadlines.count <= 2 * 109 + 64)
        var popped: [UInt64] = []
        while let next = deadlines.popDue(now: .max) { popped.append(next.generation) }
        #expect(popped == popped.sorted())
        #expect(popped.suffix(100) == Array(900..<1_000).map(UInt64.init).suffix(100))
    }
}

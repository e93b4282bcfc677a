// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The parked long-poll table: ids, shared subscriptions, the index and partial answers.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct WaiterTableTests {
    private static func parked(_ cursor: UInt64, _ format: SubscribeFormat = .v2) -> WaiterTable.Parked {
        WaiterTable.Parked(responder: Responder { _ in }, cursor: cursor, format: format)
    }

    private static func reading(_ channels: [String], groups: [String] = []) -> SubscriptionSet {
        SubscriptionSet(channels: channels, groups: groups)
    }

    @Test func waitersOfOneSubscriptionShareItAndLeaveByIdOnce() {
        var table = WaiterTable()
        let a = table.park(Self.parked(1), subscription: Self.reading(["ch"]))
        let b = table.park(Self.parked(2), subscription: Self.reading(["ch"]))
        let c = table.park(Self.parked(3), subscription: Self.reading(["ch", "other"]))
        #expect(table.count == 3)
        let groups = table.subscriptions(reading: ["ch"]) { _ in nil }
        #expect(groups.count == 2)
        #expect(groups.map { table.subscription($0).slots.count }.sorted() == [1, 2])
        let r1 = table.unpark(a)
        #expect(r1?.cursor == 1)
        let r2 = table.unpark(a)
        #expect(r2 == nil)
        #expect(table.contains(b) && table.contains(c) && !table.contains(a))
        let r3 = table.unpark(b)
        #expect(r3?.cursor == 2)
        // The subscription of the last waiter that read it leaves the index with it.
        #expect(table.subscriptions(reading: ["ch"]) { _ in nil }.count == 1)
        #expect(table.subscriptions(reading: ["other"]) { _ in nil }.count == 1)
        let r4 = table.unpark(c)
        #expect(r4?.cursor == 3)
        #expect(table.isEmpty)
        #expect(table.subscriptions(reading: ["ch", "other"]) { _ in nil }.isEmpty)
    }

    @Test func aReusedSlotDoesNotAnswerToTheIdOfItsFormerWaiter() {
        var table = WaiterTable()
        let first = table.park(Self.parked(1), subscription: Self.reading(["ch"]))
        let r5 = table.unpark(first)
        #expect(r5 != nil)
        let second = table.park(Self.parked(2), subscription: Self.reading(["ch"]))
        #expect(second != first)
        let r6 = table.unpark(first)
        #expect(r6 == nil)
        #expect(table.contains(second))
        let r9 = table.unpark(second)
        #expect(r9?.cursor == 2)
        let r10 = table.unpark(-1)
        #expect(r10 == nil)
        let r11 = table.unpark(Int.max)
        #expect(r11 == nil)
    }

    @Test func removingFromTheMiddleKeepsEveryOtherWaiterReachable() {
        var table = WaiterTable()
        let ids = (0..<6).map { table.park(Self.parked(UInt64($0)), subscription: Self.reading(["ch"])) }
        let r12 = table.unpark(ids[1])
        #expect(r12?.cursor == 1)
        let r13 = table.unpark(ids[4])
        #expect(r13?.cursor == 4)
        for (index, id) in ids.enumerated() where index != 1 && index != 4 {
            let r14 = table.unpark(id)
            #expect(r14?.cursor == UInt64(index))
        }
        #expect(table.isEmpty)
    }

    @Test func answerTakesOnlyTheWaitersWithAResponseAndKeepsTheRestParked() {
        var table = WaiterTable()
        let ids = (0..<5).map { table.park(Self.parked(UInt64($0 % 2)), subscription: Self.reading(["ch"])) }
        let group = table.subscriptions(reading: ["ch"]) { _ in nil }.first!
        var asked: [UInt64] = []
        var taken: [UInt64] = []
        table.answer(group, { cursor in
            asked.append(cursor)
            return cursor == 0 ? .pubNub(200, "x") : nil
        }, { parked, _ in taken.append(parked.cursor) })
        #expect(asked == [0, 1, 0, 1, 0])
        #expect(taken == [0, 0, 0])
        #expect(table.count == 2)
        let r15 = table.unpark(ids[0])
        #expect(r15 == nil)
        let r16 = table.unpark(ids[3])
        #expect(r16?.cursor == 1)
        let r17 = table.unpark(ids[1])
        #expect(r17?.cursor == 1)
        #expect(table.isEmpty)
    }

    @Test func groupsAndWildcardsAreFoundThroughTheChannel() {
        var table = WaiterTable()
        _ = table.park(Self.parked(1), subscription: Self.reading([], groups: ["g"]))
        _ = table.park(Self.parked(1), subscription: Self.reading([], groups: ["g-pnpres"]))
        var wildcard = Self.reading(["a.*"])
        wildcard.wildcards = [try! WildcardPattern.parse("a.*")!.get()]
        _ = table.park(Self.parked(1), subscription: wildcard)
        #expect(table.wildcardSubscriptions == 1)
        let groupsOf: (String) -> Set<String>? = { $0 == "ch" ? ["g"] : nil }
        #expect(table.subscriptions(reading: ["ch"], groupsOf: groupsOf).count == 1)
        #expect(table.subscriptions(reading: ["ch-pnpres"], groupsOf: groupsOf).count == 1)
        #expect(table.subscriptions(reading: ["a.b"], groupsOf: groupsOf).count == 1)
        #expect(table.subscriptions(reading: ["b.c"], groupsOf: groupsOf).isEmpty)
        let r18 = table.removeAll()
        #expect(r18.waiters.count == 3)
        #expect(table.isEmpty && table.wildcardSubscriptions == 0)
    }

    @Test func idleDeadlinesExpireInParkOrderAndOneSweepServesThem() throws {
        var table = WaiterTable()
        let a = table.park(Self.parked(1), subscription: Self.reading(["ch"]), idleDeadline: 100)
        let b = table.park(Self.parked(2), subscription: Self.reading(["ch"]), idleDeadline: 200)
        let c = table.park(Self.parked(3), subscription: Self.reading(["x"]), idleDeadline: 300)
        let firstSweep = table.sweepToArm()
        let armed = try #require(firstSweep)
        #expect(armed.deadline == 100)
        #expect(table.sweepToArm() == nil)
        let probe = SweepProbe()
        table.setSweep(probe, token: armed.token)
        // A waiter answered by a publish leaves its deadline behind; the sweep skips it.
        _ = table.unpark(a)
        #expect(table.expire(now: 250, token: armed.token)?.map(\.cursor) == [2])
        #expect(!table.contains(b) && table.contains(c))
        // A sweep that fires again, or late, finds nothing.
        #expect(table.expire(now: 1_000, token: armed.token) == nil)
        #expect(table.contains(c))
        let nextSweep = table.sweepToArm()
        let next = try #require(nextSweep)
        #expect(next.deadline == 300 && next.token != armed.token)
        table.setSweep(probe, token: next.token)
        #expect(table.sweepToCancel() == nil)
        _ = table.unpark(c)
        // Nothing parked: the armed sweep comes back to be cancelled, and none is armed after it.
        #expect(table.sweepToCancel() as? SweepProbe === probe)
        #expect(table.sweepToCancel() == nil)
        #expect(table.sweepToArm() == nil)
        #expect(table.expire(now: 1_000, token: next.token) == nil)
    }

    @Test func deadlinesOfWaitersGoneAreDroppedAndTheLiveOnesKeepTheirOrder() throws {
        var table = WaiterTable()
        var kept: [Int] = []
        // 3,000 parks, two of every three answered at once: more stale entries than the table keeps.
        for index in 0..<3_000 {
            let id = table.park(Self.parked(UInt64(index)), subscription: Self.reading(["ch"]), idleDeadline: UInt64(index))
            if index % 3 == 0 { kept.append(index) } else { _ = table.unpark(id) }
        }
        #expect(table.count == 1_000)
        let firstSweep = table.sweepToArm()
        let armed = try #require(firstSweep)
        #expect(armed.deadline == 0)
        let expiredFirst = table.expire(now: 1_500, token: armed.token)
        let expired = try #require(expiredFirst)
        #expect(expired.map { Int($0.cursor) } == kept.filter { $0 <= 1_500 })
        let nextSweep = table.sweepToArm()
        let next = try #require(nextSweep)
        #expect(next.deadline == 1_503)
        #expect(table.expire(now: 3_000, token: next.token)?.map { Int($0.cursor) } == kept.filter { $0 > 1_500 })
        #expect(table.isEmpty)
    }

    @Test func oneSubscriptionInTwoFormatsIsTwoEntries() {
        var table = WaiterTable()
        _ = table.park(Self.parked(1), subscription: Self.reading(["ch"]))
        _ = table.park(Self.parked(1, .v1(callback: nil, shape: .singleChannel)), subscription: Self.reading(["ch"]))
        #expect(table.subscriptions(reading: ["ch"]) { _ in nil }.count == 2)
    }
}

/// A handle whose cancel does nothing (the table only stores it).
private struct ImmediateWork: ScheduledWork {
    func cancel() {}
}

/// Waking through the service: one subscription, cursors that see the message and one that does not.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ParkedWakeTests {
    @Test func aPublishAnswersTheWaitersItReachesAndLeavesTheOthersToTheirTimers() {
        let h = ServiceHarness(PubNubServiceConfiguration(longPollIdleTimeout: .seconds(5)))
        let early = (0..<3).map { _ in h.send("/v2/subscribe/demo/ch/0?tt=1") }
        let future = h.send("/v2/subscribe/demo/ch/0?tt=99999999999999999")
        let other = h.send("/v2/subscribe/demo/ch,x/0?tt=1")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 5)
        let tt = h.publish("ch", "\"m\"")
        let expected = "{\"t\":{\"t\":\"\(tt)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,"
            + "\"p\":{\"t\":\"\(tt)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":\"m\"}]}"
        for poll in early + [other] {
            #expect(poll.actions.count == 1)
            #expect(poll.body == expected)
        }
        #expect(future.actions.isEmpty)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        #expect(h.scheduler.pending == 1)
        h.scheduler.advance(by: .seconds(5))
        #expect(future.body == "{\"t\":{\"t\":\"99999999999999999\",\"r\":12},\"m\":[]}")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
    }

    @Test func eachIdleWaiterIsAnsweredAtItsOwnDeadlineByOneTimer() {
        let h = ServiceHarness(PubNubServiceConfiguration(longPollIdleTimeout: .seconds(5)))
        let first = h.send("/v2/subscribe/demo/ch/0?tt=7")
        h.scheduler.advance(by: .seconds(3))
        let second = h.send("/v2/subscribe/demo/other/0?tt=8")
        #expect(h.scheduler.pending == 1)
        h.scheduler.advance(by: .seconds(1))
        #expect(first.actions.isEmpty && second.actions.isEmpty)
        h.scheduler.advance(by: .seconds(1))
        #expect(first.body == "{\"t\":{\"t\":\"7\",\"r\":12},\"m\":[]}")
        #expect(second.actions.isEmpty)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        #expect(h.scheduler.pending == 1)
        h.scheduler.advance(by: .milliseconds(2_999))
        #expect(second.actions.isEmpty)
        h.scheduler.advance(by: .milliseconds(1))
        #expect(second.body == "{\"t\":{\"t\":\"8\",\"r\":12},\"m\":[]}")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
        #expect(h.scheduler.pending == 0)
    }

    @Test func aWaiterCancelledBeforeThePublishIsNotAnswered() {
        let h = ServiceHarness()
        let gone = h.send("/v2/subscribe/demo/ch/0?tt=1")
        let kept = h.send("/v2/subscribe/demo/ch/0?tt=1")
        gone.responder.cancel()
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        #expect(h.scheduler.pending == 1)
        h.publish("ch", "1")
        #expect(gone.actions.isEmpty)
        #expect(kept.status == 200)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
        #expect(h.scheduler.pending == 0)
    }
}

extension WaiterTable {
    /// Parks with no idle deadline of interest (the tests above are about ids and the index).
    fileprivate mutating func park(_ waiter: Parked, subscription: SubscriptionSet) -> Int {
        park(waiter, subscription: subscription, idleDeadline: 0)
    }
}

/// A sweep timer that only reports who it is.
private final class SweepProbe: ScheduledWork {
    func cancel() {}
}

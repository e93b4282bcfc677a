// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The parked long-poll table: ids, shared subscriptions, the index and partial answers.
@Suite struct WaiterTableTests {
    private static func parked(_ cursor: UInt64, _ format: SubscribeFormat = .v2) -> WaiterTable.Parked {
        WaiterTable.Parked(responder: Responder { _ in }, cursor: cursor, timer: nil, format: format)
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
        let storedForStale = table.setTimer(ImmediateWork(), for: first)
        #expect(!storedForStale)
        let storedForLive = table.setTimer(ImmediateWork(), for: second)
        #expect(storedForLive)
        let r9 = table.unpark(second)
        #expect(r9?.timer != nil)
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
        #expect(r18.count == 3)
        #expect(table.isEmpty && table.wildcardSubscriptions == 0)
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
@Suite struct ParkedWakeTests {
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

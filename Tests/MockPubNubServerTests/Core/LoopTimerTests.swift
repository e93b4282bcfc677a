// SPDX-License-Identifier: MIT
import CPosix
import Synchronization
import Testing
@testable import HarnessServerCore

/// The loop's timers, stepped by hand (a loop without a thread): the earliest deadline kept
/// beside the heap must follow every insertion, pop and purge.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct LoopTimerTests {
    private final class Fired: @unchecked Sendable {
        // @unchecked Sendable: touched only on the test's thread, which steps the loop.
        var names: [String] = []
    }

    @Test func timersFireInDeadlineOrderAndOnlyWhenDue() throws {
        let loop = try EventLoop(index: 0)
        let fired = Fired()
        let start = cposix_monotonic_nanos()
        loop.schedule(afterNanos: 2_000_000_000) { fired.names.append("late") }
        loop.schedule(afterNanos: 1_000_000_000) { fired.names.append("early") }
        loop.step(now: start)
        #expect(fired.names.isEmpty)
        loop.step(now: start &+ 1_500_000_000)
        #expect(fired.names == ["early"])
        #expect(loop.timerCounts.pending == 1)
        loop.step(now: start &+ 2_500_000_000)
        #expect(fired.names == ["early", "late"])
        #expect(loop.timerCounts.pending == 0)
        // An empty heap, then a new timer earlier than any before: it fires when due.
        loop.schedule(afterNanos: 0) { fired.names.append("next") }
        loop.step(now: cposix_monotonic_nanos() &+ 1)
        #expect(fired.names == ["early", "late", "next"])
        loop.finalDrain()
    }

    @Test func aTimerScheduledByADueTimerFiresInItsTurn() throws {
        let loop = try EventLoop(index: 0)
        let fired = Fired()
        let start = cposix_monotonic_nanos()
        loop.schedule(afterNanos: 1_000_000) {
            fired.names.append("first")
            loop.schedule(afterNanos: 0) { fired.names.append("soon") }
            loop.schedule(afterNanos: 60_000_000_000) { fired.names.append("much later") }
        }
        loop.step(now: start &+ 1_000_000_000)
        #expect(fired.names == ["first", "soon"])
        #expect(loop.timerCounts.pending == 1)
        loop.step(now: start &+ 2_000_000_000)
        #expect(fired.names == ["first", "soon"])
        loop.step(now: start &+ 120_000_000_000)
        #expect(fired.names == ["first", "soon", "much later"])
        loop.finalDrain()
    }

    @Test func cancelledTimersArePurgedOnceTheyAreMoreThanHalfOfOver1024() throws {
        let loop = try EventLoop(index: 0)
        let fired = Fired()
        let handles = (0..<1_100).map { index in
            loop.schedule(afterNanos: 60_000_000_000 + UInt64(index)) { fired.names.append("timer") }
        }
        loop.schedule(afterNanos: 1_000) { fired.names.append("due") }
        for handle in handles.prefix(500) { handle.cancel() }
        loop.step(now: cposix_monotonic_nanos() &+ 1_000_000)
        // 500 of 1,100 cancelled: kept (the due one fired and left the heap).
        #expect(fired.names == ["due"])
        #expect(loop.timerCounts.pending == 1_100)
        for handle in handles.dropFirst(500).prefix(100) { handle.cancel() }
        loop.step(now: cposix_monotonic_nanos() &+ 1_000_000)
        // 600 of 1,100: purged without any timer falling due.
        #expect(loop.timerCounts.pending == 500)
        #expect(loop.timerCounts.cancelled == 0)
        loop.step(now: cposix_monotonic_nanos() &+ 120_000_000_000)
        #expect(fired.names.count == 501)
        #expect(loop.timerCounts.pending == 0)
        loop.finalDrain()
    }
}

// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TimerHeapTests {
    @Test func popsInDeadlineThenInsertionOrderAndDropsCancelled() {
        var heap = TimerHeap()
        let counter = CancelledTimerCounter()
        var handles: [TimerHandle] = []
        var fired: [Int] = []
        // Deadlines 0..<40 scrambled, plus a tie at 7 inserted later.
        let deadlines = (0..<40).map { ($0 * 17) % 40 }
        for deadline in deadlines {
            let handle = TimerHandle(counter: counter)
            handles.append(handle)
            heap.insert(deadline: UInt64(deadline), work: .closure(handle, {}))
        }
        let tie = TimerHandle(counter: counter)
        heap.insert(deadline: 7, work: .closure(tie, {}))
        for (index, handle) in handles.enumerated() where deadlines[index] % 3 == 0 { handle.cancel() }
        handles[0].cancel()  // a second cancel is not counted twice
        #expect(counter.count.load(ordering: .relaxed) == 14)
        #expect(heap.removeCancelled() == 14)
        #expect(heap.popDue(now: 0) == nil)  // deadline 0 was cancelled and removed
        var order: [UInt64] = []
        while let entry = heap.popDue(now: 100) {
            order.append(entry.deadline)
            if case .closure(let handle, _) = entry.work, handle === tie { fired.append(order.count - 1) }
        }
        let expected: [UInt64] = [1, 2, 4, 5, 7, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20, 22, 23, 25, 26, 28, 29, 31, 32, 34, 35, 37, 38]
        #expect(order == expected)
        #expect(fired == [5])  // the later-inserted deadline 7 comes after the earlier one
        #expect(heap.isEmpty)
    }

    @Test func watchdogEntriesArePurgedOnlyWhenStaleAndKeepTheirPlace() {
        var heap = TimerHeap()
        let counter = CancelledTimerCounter()
        let cancelled = TimerHandle(counter: counter)
        heap.insert(deadline: 5, work: .closure(cancelled, {}))
        heap.insert(deadline: 3, work: .watchdog(id: 42, generation: 7))
        heap.insert(deadline: 9, work: .watchdog(id: 43, generation: 1))
        heap.insert(deadline: 4, work: .watchdog(id: 44, generation: 2))
        cancelled.cancel()
        #expect(heap.removeCancelled() == 1)  // watchdogs are live unless named stale
        // The connection of id 44 moved past generation 2: that entry goes, the others stay.
        #expect(heap.removeCancelled { id, generation in id == 44 && generation == 2 } == 1)
        var due: [String] = []
        while let entry = heap.popDue(now: 10) {
            if case .watchdog(let id, let generation) = entry.work { due.append("\(entry.deadline):\(id)/\(generation)") }
        }
        #expect(due == ["3:42/7", "9:43/1"])
    }
}

// SPDX-License-Identifier: MIT
import Synchronization

/// A cancellable handle on work scheduled on an event loop.
final class TimerHandle: ScheduledWork {
    private let cancelled = Atomic<Bool>(false)
    private let counter: CancelledTimerCounter?

    init(counter: CancelledTimerCounter? = nil) {
        self.counter = counter
    }

    func cancel() {
        if !cancelled.exchange(true, ordering: .relaxed) { counter?.count.add(1, ordering: .relaxed) }
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// How many timers of a loop were cancelled but are still in its heap (approximate, any thread).
final class CancelledTimerCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// What a due timer runs.
enum TimerWork {
    /// A closure, unless its handle was cancelled.
    case closure(TimerHandle, () -> Void)
    /// The watchdog of the connection registered as `id`: no handle and no closure (one per
    /// connection, most of them parked); the connection ignores a `generation` it has moved past.
    /// Such a stale entry counts as cancelled (the connection counts it when it moves on).
    case watchdog(id: UInt64, generation: UInt32)
}

/// A binary min-heap of timers ordered by deadline, then by insertion order (loop-thread only).
struct TimerHeap {
    struct Entry: Comparable {
        var deadline: UInt64
        var sequence: UInt64
        var work: TimerWork

        /// By deadline, then by insertion order.
        static func < (a: Entry, b: Entry) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
        }

        /// Entries are distinct by their sequence (equality as the ordering needs it).
        static func == (a: Entry, b: Entry) -> Bool { a.deadline == b.deadline && a.sequence == b.sequence }
    }

    private var entries = MinHeap<Entry>()
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, in monotonic nanoseconds.
    var nextDeadline: UInt64? { entries.min?.deadline }

    mutating func insert(deadline: UInt64, work: TimerWork) {
        entries.insert(Entry(deadline: deadline, sequence: nextSequence, work: work))
        nextSequence &+= 1
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        entries.popMin { $0.deadline <= now }
    }

    mutating func removeAll() { entries.removeAll() }

    /// Drops cancelled entries (closures whose handle was cancelled, watchdogs `isStale` names)
    /// and rebuilds the heap; returns how many were dropped.
    mutating func removeCancelled(isStale: (_ id: UInt64, _ generation: UInt32) -> Bool = { _, _ in false }) -> Int {
        entries.removeAll { entry in
            switch entry.work {
            case .closure(let handle, _): handle.isCancelled
            case .watchdog(let id, let generation): isStale(id, generation)
            }
        }
    }
}

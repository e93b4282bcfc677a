// SPDX-License-Identifier: MIT
import HarnessServerCore

/// The presence timeouts of one keyspace: every heartbeat's deadline (uuid, generation) in a
/// min-heap, and one timer (the presence sweep) at the earliest, instead of a timer and a closure
/// per present uuid.
///
/// A deadline whose generation was refreshed since stays in the heap and expires nothing when it
/// passes (the ledger's `expire` only times out channels last refreshed at or before it); such
/// entries are dropped in bulk once they could outnumber the live ones.
struct PresenceDeadlines {
    /// One heartbeat's timeout: at `deadline` (the scheduler's clock), `uuid`'s channels last
    /// refreshed at or before `generation` time out.
    struct Deadline: Comparable {
        var deadline: UInt64
        var generation: UInt64
        var uuid: String

        /// By deadline, then by generation.
        static func < (a: Deadline, b: Deadline) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.generation < b.generation
        }
    }

    private var heap = MinHeap<Deadline>()
    /// The armed sweep: its token (a sweep that fires with another finds nothing), deadline and timer.
    private var sweep: (token: UInt64, deadline: UInt64, work: (any ScheduledWork)?)?
    private var sweepTokens: UInt64 = 0
    /// The size at which the heap is next checked for stale entries.
    private var compactAt = 64

    /// The number of deadlines held (live and stale).
    var count: Int { heap.count }

    /// Adds a deadline; `isLive` tells the entries worth keeping when the heap is compacted.
    mutating func add(_ entry: Deadline, isLive: (Deadline) -> Bool) {
        if heap.count >= compactAt {
            heap.removeAll { !isLive($0) }
            compactAt = max(64, 2 * heap.count)
        }
        heap.insert(entry)
    }

    /// Removes and returns the earliest deadline if it has passed at `now`.
    mutating func popDue(now: UInt64) -> Deadline? {
        heap.popMin { $0.deadline <= now }
    }

    /// A sweep to arm (its token and deadline) when deadlines are held and none is armed, or the
    /// armed one is later than the earliest deadline; `replaced` is that later sweep's timer (to cancel).
    mutating func sweepToArm() -> (token: UInt64, deadline: UInt64, replaced: (any ScheduledWork)?)? {
        guard let first = heap.min?.deadline else { return nil }
        if let armed = sweep, armed.deadline <= first { return nil }
        let replaced = sweep?.work
        sweepTokens &+= 1
        sweep = (sweepTokens, first, nil)
        return (sweepTokens, first, replaced)
    }

    /// Stores the timer of the sweep `token` (ignored when that sweep is no longer armed).
    mutating func setSweep(_ work: any ScheduledWork, token: UInt64) {
        guard sweep?.token == token else { return }
        sweep?.work = work
    }

    /// The sweep `token` fired: disarms it; false when it is not the armed sweep.
    mutating func fired(token: UInt64) -> Bool {
        guard sweep?.token == token else { return false }
        sweep = nil
        return true
    }

    /// Forgets every deadline (no uuid is present); returns the armed sweep's timer, to cancel.
    mutating func removeAll() -> (any ScheduledWork)? {
        let work = sweep?.work
        self = PresenceDeadlines()
        return work
    }
}

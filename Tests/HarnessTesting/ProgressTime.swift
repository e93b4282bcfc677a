// SPDX-License-Identifier: MIT

/// Budgets counted in time the test could have used, not in wall-clock time.
///
/// `swift test` starts every test at once on Swift's cooperative pool, whose few threads (one per
/// core) run jobs in the order they were queued and never preempt one. Early in a run, or beside
/// CPU-heavy tests, a job can wait seconds for a thread. A test that needs many such hops in a row
/// (a client's reconnection: sleep, request, answer, handshake, long-poll) then needs that wait
/// many times, while a plain `Task.sleep` budget needs it only once: the budget ran out although
/// the client was never late, only never scheduled.
///
/// ``sleep(for:)`` sleeps in short slices and counts each slice at most at its nominal length plus
/// a small tolerance, so time in which the pool ran other tests' queued work does not use up the
/// budget. On an idle pool it lasts the budget (within one slice). It never lasts longer than
/// ``wallClockCap`` times the budget of wall-clock time, so a wait that fails still ends.
package enum ProgressTime {
    /// The length of one slice.
    package static let slice: Duration = .milliseconds(100)
    /// What one slice may count at most: its length plus this much scheduling latency.
    package static let tolerance: Duration = .milliseconds(50)
    /// The longest a budget may last in wall-clock time, as a multiple of the budget.
    package static let wallClockCap = 8

    /// How much of a slice that took `elapsed` counts towards the budget (pure).
    package static func credit(forSliceThatTook elapsed: Duration) -> Duration {
        min(elapsed, slice + tolerance)
    }

    /// Sleeps until `budget` of progress time has passed (see the type's comment); returns early,
    /// without throwing, when the task is cancelled or, checked after each slice, when `settled`
    /// says the wait is over.
    package static func sleep(for budget: Duration, settled: () -> Bool = { false }) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: budget * wallClockCap)
        var counted: Duration = .zero
        while counted < budget, clock.now < deadline, !Task.isCancelled, !settled() {
            let start = clock.now
            do {
                try await Task.sleep(for: min(slice, budget - counted))
            } catch {
                return
            }
            counted += credit(forSliceThatTook: clock.now - start)
        }
    }

    /// Waits, at most `limit`, until the pool runs a short sleep's continuation promptly `streak`
    /// times in a row: for a test whose budgets are the product's own wall-clock ones (an
    /// in-process conformance run), started while the pool is still working through the run's
    /// first burst of queued tests.
    package static func settle(limit: Duration = .seconds(60), streak: Int = 3) async {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: limit)
        var prompt = 0
        while prompt < streak, clock.now < end, !Task.isCancelled {
            let start = clock.now
            try? await Task.sleep(for: .milliseconds(10))
            prompt = clock.now - start < .milliseconds(60) ? prompt + 1 : 0
        }
    }
}

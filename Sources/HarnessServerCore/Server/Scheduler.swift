// SPDX-License-Identifier: MIT
import CPosix

/// Runs work later without blocking: the event loop's timers, or a manual clock in tests.
///
/// The PubNub service uses it for long-poll idle timeouts and presence timeouts; the fault layer
/// for delays. Work runs on a loop thread and must not block.
package protocol Scheduler: Sendable {
    /// Runs `work` once after `delay`; the returned handle cancels it if it has not run yet.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork

    /// The scheduler's clock in monotonic nanoseconds: `schedule(after: d)` at `t` runs the work
    /// once this reads `t + d` or more. Lets a caller keep deadlines of its own and arm one timer
    /// for many of them.
    var uptimeNanoseconds: UInt64 { get }
}

extension Scheduler {
    /// The system's monotonic clock (the event loops' timers run on it); a scheduler with a
    /// clock of its own (a test's manual clock) provides that instead.
    package var uptimeNanoseconds: UInt64 { cposix_monotonic_nanos() }
}

/// A handle on scheduled work.
package protocol ScheduledWork: Sendable {
    /// Cancels the work if it has not started; harmless afterwards.
    func cancel()
}

/// A server whose event loops run timers for its modules (``ServerHost``, the mock's façade).
package protocol SchedulerProviding: Sendable {
    /// Timers on the server's event loops.
    var scheduler: any Scheduler { get }
}

extension ServerHost: SchedulerProviding {}

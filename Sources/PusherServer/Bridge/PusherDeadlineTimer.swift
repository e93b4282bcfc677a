// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher
import Synchronization

/// Keeps one timer armed for the core's `nextDeadline`: after every input the service calls
/// `rearm`, which schedules a `tick` when the deadline is earlier than the armed one (or none is
/// armed). The timer runs on an event loop (the attached server's scheduler, else the loop of the
/// connection whose input armed it); when it fires it ticks the core and re-arms.
final class PusherDeadlineTimer: Sendable {
    private struct Armed {
        var deadline: PusherInstant
        var work: any ScheduledWork
    }

    private let armed = Mutex<Armed?>(nil)
    private let scheduler = Mutex<(any Scheduler)?>(nil)

    /// Timers from now on run on `scheduler` (the server's loops).
    func attach(_ scheduler: any Scheduler) { self.scheduler.withLock { $0 = scheduler } }

    /// Arms a timer for `deadline` unless one at or before it is armed. `fallback` schedules when no
    /// scheduler is attached; without either nothing is armed (the next input re-arms).
    func rearm(
        for deadline: PusherInstant?, now: PusherInstant, fallback: (any Scheduler)?,
        fire: @escaping @Sendable () -> Void
    ) {
        guard let deadline, let scheduler = scheduler.withLock({ $0 }) ?? fallback else { return }
        armed.withLock { armed in
            if let current = armed, current.deadline <= deadline { return }
            armed?.work.cancel()
            let delay = Duration.milliseconds(max(0, deadline.milliseconds - now.milliseconds))
            armed = Armed(deadline: deadline, work: scheduler.schedule(after: delay, fire))
        }
    }

    /// Called when the armed timer fired: forgets it so the next `rearm` schedules anew.
    func fired() { armed.withLock { $0 = nil } }

    /// Cancels the armed timer.
    func cancel() {
        armed.withLock { armed in
            armed?.work.cancel()
            armed = nil
        }
    }
}

/// A connection's event loop as a `Scheduler` (timers that belong to no connection may run there).
struct WebSocketHandleScheduler: Scheduler {
    let handle: WebSocketHandle

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        handle.schedule(after: delay, work)
    }
}

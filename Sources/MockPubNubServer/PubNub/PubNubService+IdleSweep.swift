// SPDX-License-Identifier: MIT
import HarnessServerCore

/// The idle answer of parked long-polls: one timer per keyspace at the first idle deadline (the
/// waiter table keeps every waiter's deadline), not a timer and a closure per long-poll.
extension PubNubService {
    /// Arms the keyspace's idle sweep when waiters are parked and none is armed (called under the
    /// keyspace's lock: scheduling never runs the work before returning).
    func armIdleSweep(_ waiters: inout WaiterTable, keyspace: Keyspace) {
        Self.armIdleSweep(&waiters, keyspace: keyspace, scheduler: scheduler, region: configuration.region)
    }

    /// Holds the keyspace strongly, so that a poll parked during a reset still gets its idle
    /// answer; the cycle (keyspace → waiter table → timer → closure) ends when the sweep runs or
    /// is cancelled (once no waiter is parked).
    private static func armIdleSweep(
        _ waiters: inout WaiterTable, keyspace: Keyspace, scheduler: any Scheduler, region: Int
    ) {
        guard let (token, deadline) = waiters.sweepToArm() else { return }
        let now = scheduler.uptimeNanoseconds
        let delay = Duration.nanoseconds(Int64(clamping: deadline > now ? deadline - now : 0))
        let work = scheduler.schedule(after: delay) {
            idleSweepFired(keyspace, token: token, scheduler: scheduler, region: region)
        }
        waiters.setSweep(work, token: token)
    }

    /// Answers the waiters whose idle deadline has passed with an empty `m` (their own cursor),
    /// and arms the next sweep for those still parked.
    private static func idleSweepFired(_ keyspace: Keyspace, token: UInt64, scheduler: any Scheduler, region: Int) {
        let now = scheduler.uptimeNanoseconds
        let expired = keyspace.state.withLock { state -> [WaiterTable.Parked] in
            guard let expired = state.waiters.expire(now: now, token: token) else { return [] }
            armIdleSweep(&state.waiters, keyspace: keyspace, scheduler: scheduler, region: region)
            return expired
        }
        guard !expired.isEmpty else { return }
        Responder.send(expired.map { waiter in
            (waiter.responder, ResponseAction.respond(.pubNub(200, waiter.format.emptyBody(cursor: waiter.cursor, region: region))))
        })
    }
}

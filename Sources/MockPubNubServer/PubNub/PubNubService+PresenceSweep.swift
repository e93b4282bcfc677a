// SPDX-License-Identifier: MIT
import HarnessServerCore

/// Presence timeouts: each heartbeat's deadline goes into the keyspace's `PresenceDeadlines`, and
/// one timer per keyspace (the presence sweep) at the earliest deadline expires them, instead of
/// a timer, a handle and a closure per present uuid.
extension PubNubService {
    /// Adds the deadlines a state change asked for (`Outbox.presenceTimers`), then arms the sweep
    /// if none is armed or the earliest deadline moved before it.
    func addPresenceDeadlines(
        _ requests: [(uuid: String, generation: UInt64, seconds: Int)], keyspace: Keyspace, env: ServiceEnvironment
    ) {
        let now = scheduler.uptimeNanoseconds
        let replaced = keyspace.state.withLock { state -> (any ScheduledWork)? in
            for request in requests {
                state.addPresenceDeadline(
                    uuid: request.uuid, generation: request.generation,
                    deadline: now &+ UInt64(request.seconds) &* 1_000_000_000)
            }
            return armPresenceSweep(&state.presenceDeadlines, keyspace: keyspace, subscribeKey: env.subscribeKey)
        }
        replaced?.cancel()
    }

    /// Arms the presence sweep when `sweepToArm` asks for one (called under the keyspace's lock:
    /// scheduling never runs the work before returning); returns the sweep it replaces, to cancel.
    /// The sweep keeps the key's name and builds the environment when it fires; the keyset is the
    /// key's registered one (it outlives resets, and the keyspace must still be alive).
    private func armPresenceSweep(
        _ deadlines: inout PresenceDeadlines, keyspace: Keyspace, subscribeKey: String
    ) -> (any ScheduledWork)? {
        guard let (token, deadline, replaced) = deadlines.sweepToArm() else { return nil }
        let now = scheduler.uptimeNanoseconds
        let delay = Duration.nanoseconds(Int64(clamping: deadline > now ? deadline - now : 0))
        let work = scheduler.schedule(after: delay) { [weak self, weak keyspace] in
            guard let self, let keyspace else { return }
            self.presenceSweepFired(keyspace, subscribeKey: subscribeKey, token: token)
        }
        deadlines.setSweep(work, token: token)
        return replaced
    }

    /// Expires the deadlines passed, one at a time with its own wake-up and flush (as a timer per
    /// deadline did), then arms the sweep for the next one.
    private func presenceSweepFired(_ keyspace: Keyspace, subscribeKey: String, token: UInt64) {
        let now = scheduler.uptimeNanoseconds
        guard keyspace.state.withLock({ $0.presenceDeadlines.fired(token: token) }) else { return }
        let env = environment(subscribeKey, keyset: registeredKeyset(subscribeKey))
        // Bounded by the deadlines held when the sweep fired (each round removes one).
        while true {
            var outbox = Outbox()
            let (expired, replaced) = keyspace.state.withLock { state -> (Bool, (any ScheduledWork)?) in
                guard let due = state.presenceDeadlines.popDue(now: now) else {
                    return (false, armPresenceSweep(&state.presenceDeadlines, keyspace: keyspace, subscribeKey: subscribeKey))
                }
                state.expire(uuid: due.uuid, generation: due.generation, env: env, outbox: &outbox)
                state.wakeTouched(env: env, outbox: &outbox)
                return (true, nil)
            }
            flush(outbox, keyspace: keyspace, env: env)
            replaced?.cancel()
            if !expired { return }
        }
    }
}

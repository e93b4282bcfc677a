// SPDX-License-Identifier: MIT
import CPosix

/// What a connection's timeouts watch at a given moment.
enum WatchPhase {
    /// Nothing: a request is in flight (parked long-polls and deliberate hangs or drips included).
    case none
    /// A request is arriving (or, for the first one, awaited since the accept): `headerTimeout`.
    case request
    /// A keep-alive connection between requests: `idleTimeout`.
    case idle
}

/// The connection timeouts: one loop timer per connection, re-armed lazily.
///
/// Moving the deadline later (every keep-alive request moves the idle deadline) only stores it;
/// when the timer fires before the deadline it re-arms itself once. Only a deadline earlier than
/// the armed timer (a partial request on a connection that was idle) inserts into the heap.
extension Connection {
    /// Decides what to watch once the pipeline is empty (no request in flight).
    func watchAfterPump() {
        // Through the storage: the machine is not copied out of the connection to ask.
        if agenda.machine.parserStorage?.hasBufferedBytes ?? false {
            guard watchPhase != .request, core.requestTimeoutNanos > 0 else { return }
            // The request started with the read that brought its first byte (`nextArrival`, wall clock).
            let now = loop.batchTime
            let elapsed = agenda.machine.nextArrival.map { max(0, cposix_wall_seconds() - $0) } ?? 0
            let elapsedNanos = UInt64(min(elapsed, 86_400) * 1e9)
            let deadline = now &+ core.requestTimeoutNanos
            setWatch(.request, deadline: deadline > elapsedNanos ? deadline - elapsedNanos : now)
        } else if agenda.machine.sequence > 0 {
            // Between requests. (Before the first one, the deadline from the accept stays.)
            guard watchPhase != .idle else { return }
            guard core.idleTimeoutNanos > 0 else {
                watchPhase = .none
                return
            }
            setWatch(.idle, deadline: loop.batchTime &+ core.idleTimeoutNanos)
        }
    }

    /// Watches `phase` until `deadline`; arms the timer only if it would fire too late (or is not armed).
    func setWatch(_ phase: WatchPhase, deadline: UInt64) {
        watchPhase = phase
        watchDeadline = deadline
        if !watchTimerArmed || deadline < watchTimerDeadline { armWatchTimer(at: deadline) }
    }

    /// Stops the watchdog: its armed loop timer, if any, finds an old generation when it fires
    /// (and the loop counts it as cancelled, to purge it early among many).
    func disarmWatchTimer() {
        if watchTimerArmed { loop.watchdogLeftStale() }
        watchTimerArmed = false
        watchGeneration &+= 1
    }

    /// Whether the loop timer of `generation` is the armed one.
    func ownsWatchdog(generation: UInt32) -> Bool { watchTimerArmed && generation == watchGeneration }

    private func armWatchTimer(at deadline: UInt64) {
        disarmWatchTimer()
        watchTimerArmed = true
        watchTimerDeadline = deadline
        let now = cposix_monotonic_nanos()
        loop.scheduleWatchdog(
            afterNanos: deadline > now ? deadline - now : 0, id: channel.registration, generation: watchGeneration)
    }

    /// The loop timer of `generation` is due (called by the loop).
    func watchTimerFired(generation: UInt32) {
        guard ownsWatchdog(generation: generation) else { return }
        watchTimerArmed = false
        guard state == .open || state == .handshaking, watchPhase != .none else { return }
        let now = cposix_monotonic_nanos()
        if now < watchDeadline {
            armWatchTimer(at: watchDeadline)
            return
        }
        let phase = watchPhase
        watchPhase = .none
        switch phase {
        case .none:
            break
        case .request:
            core.requestTimeouts.add(1, ordering: .relaxed)
            core.logger?.debug("closing connection from \(peer): request not complete within the header timeout")
            feed(.requestTimedOut)
        case .idle:
            core.idleTimeouts.add(1, ordering: .relaxed)
            core.logger?.debug("closing idle connection from \(peer)")
            feed(.idleTimedOut)
        }
    }
}

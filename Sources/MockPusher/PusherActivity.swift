// SPDX-License-Identifier: MIT

extension PusherState {
    /// Any input from the client proves it alive: the idle clock restarts and a pending probe is answered.
    mutating func noteActivity(_ connection: PusherConnectionID, now: PusherInstant) {
        guard connections[connection] != nil else { return }
        connections[connection]?.lastActivity = now
        connections[connection]?.probeSentAt = nil
    }

    /// The connection's real deadline: the probe after `activityTimeout` of silence, or the 4201
    /// close `pongTimeout` after an unanswered probe.
    func deadline(of connection: PusherConnection) -> PusherInstant? {
        guard let options = apps[connection.appID]?.app.options else { return nil }
        if let probe = connection.probeSentAt { return probe + Self.atLeastOneMillisecond(options.pongTimeout) }
        return connection.lastActivity + Self.atLeastOneMillisecond(options.activityTimeout)
    }

    /// Runs every timer due at `now` (spec §5 "Server-side heartbeat"): probes silent connections
    /// (WebSocket ping by default, `pusher:ping` if the app says so) and closes 4201 those that stay
    /// silent for `pongTimeout` after the probe.
    mutating func tick(now: PusherInstant, into actions: inout [PusherAction]) {
        // Bounded: each entry popped is dropped or re-filed strictly after `now`.
        while let (connection, generation) = timers.popDue(now) {
            guard let state = connections[connection], state.generation == generation, let due = deadline(of: state),
                let options = apps[state.appID]?.app.options
            else { continue }
            if due > now {
                timers.insert(due, connection, generation: generation)
            } else if state.probeSentAt != nil {
                // Reason: the doc's meaning of 4201; the live text is UNVERIFIED.
                close(connection, code: 4201, reason: "Pong reply not received", into: &actions)
            } else {
                switch options.serverPing {
                case .webSocketFrame: actions.append(.webSocketPing(connection))
                case .pusherEvent: actions.append(.send(connection, PusherFrames.ping))
                }
                connections[connection]?.probeSentAt = now
                timers.insert(now + Self.atLeastOneMillisecond(options.pongTimeout), connection, generation: generation)
            }
        }
    }

    private static func atLeastOneMillisecond(_ duration: Duration) -> Duration { max(duration, .milliseconds(1)) }
}

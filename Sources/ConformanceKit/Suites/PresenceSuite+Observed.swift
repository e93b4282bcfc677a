// SPDX-License-Identifier: MIT
import HarnessJSON

/// The client's presence as another client sees it (the 4.x subscribe loop; the event-engine
/// variants are in ``EventEngineSuite``): the runner's presence observer reads `ch-p-pnpres`
/// while the client joins, sets state, stops heartbeating and leaves.
extension PresenceSuite {
    /// Heartbeats every 300 ms announcing `value` as the presence timeout (`heartbeat=`).
    static func observedClient(presenceTimeout value: Int = 20) -> ClientOverrides {
        ClientOverrides(presenceHeartbeatValue: value, presenceHeartbeatIntervalMs: 300)
    }

    static let observedSubscribed: [CaseStep] = [.observerSubscribe(["ch-p"]), .subscribe(["ch-p"]), .expect(.connected)]

    static func observed(_ action: String, state: JSONValue? = nil) -> ExpectedPresence {
        ExpectedPresence(channel: "ch-p", action: action, uuid: "{uuid}", state: state)
    }

    static var observedCases: [ConformanceCase] {
        let presence: Set<Capability> = [.presence]
        return [
            ConformanceCase(
                "presence.observed.join", "Another client sees the client's join", spec: "§5.6",
                client: observedClient(),
                steps: observedSubscribed + [.expectObservedPresence(observed("join"), withinMs: 1_500)],
                expected: [.connected], timeBudget: .seconds(3), requires: presence),
            ConformanceCase(
                "presence.observed.state-change", "Another client sees the state the client sets (set state)", spec: "§5.6, §6.6",
                client: observedClient(),
                steps: observedSubscribed + [
                    .expectObservedPresence(observed("join"), withinMs: 1_500),
                    .perform(.setState(channels: ["ch-p"], state: ["mood": "calm"])),
                    .expectObservedPresence(observed("state-change", state: ["mood": "calm"]), withinMs: 1_000),
                ],
                expected: [.connected], tolerated: [.acknowledgment], timeBudget: .seconds(4), requires: presence),
            ConformanceCase(
                "presence.observed.timeout", "When the client's heartbeats stop, another client sees it time out", spec: "§5.6, §6.1",
                client: observedClient(presenceTimeout: EventEngineSuite.shortPresenceTimeout),
                steps: observedSubscribed + [
                    .expectObservedPresence(observed("join"), withinMs: 1_000),
                    // Present while heartbeating: no timeout before they stop.
                    .expectNoObservedPresence(observed("timeout"), forMs: 0),
                    .setPlan(EventEngineSuite.heartbeatsLost),
                    .expectObservedPresence(observed("timeout"), withinMs: EventEngineSuite.timeoutWindowMs),
                    .expectNoObservedPresence(observed("leave"), forMs: 0),
                ],
                // The failed heartbeats may be reported as statuses (the Python SDK's threads report a
                // reset heartbeat as PNUnexpectedDisconnectCategory).
                expected: [.connected], tolerated: [.unknown, .networkIssues, .timeout, .unexpectedDisconnect], timeBudget: .seconds(4), requires: presence),
            ConformanceCase(
                "presence.observed.leave", "Another client sees the client's leave on unsubscribe", spec: "§5.6, §6.2",
                client: observedClient(),
                steps: observedSubscribed + [
                    .expectObservedPresence(observed("join"), withinMs: 1_500),
                    .perform(.unsubscribe(channels: ["ch-p"])),
                    .expectObservedPresence(observed("leave"), withinMs: 1_000),
                ],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected], timeBudget: .seconds(3), requires: presence),
        ]
    }
}

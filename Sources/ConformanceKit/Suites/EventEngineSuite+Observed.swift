// SPDX-License-Identifier: MIT
import HarnessJSON

/// The event engine's presence as another client sees it: the runner's presence observer
/// (``CaseStep/observerSubscribe(_:)``) reads `ch-e-pnpres` while the client under test, in
/// event-engine mode, joins, sets state, stops heartbeating and leaves.
extension EventEngineSuite {
    /// Presence timeout the client announces in the cases about a timeout (`heartbeat=2`: the
    /// server times the client out two seconds after its last heartbeat, spec §6.1), with a
    /// heartbeat every 300 ms so that it stays present until its heartbeats stop. Two seconds,
    /// not one: a client taking whole seconds for its interval (the Python SDK: 300 ms rounds up
    /// to 1 s) must stay present between its heartbeats, which the cases check (no timeout
    /// before the heartbeats stop).
    static let shortPresenceTimeout = 2
    /// How long the timeout may take once the heartbeats stop: the presence timeout after the
    /// last heartbeat that got through, and a second for a client heartbeating once a second.
    static let timeoutWindowMs = (shortPresenceTimeout + 1) * 1_000

    /// Event-engine settings with heartbeats every 300 ms and `presenceHeartbeatValue` `value`.
    static func observedClient(_ settings: EventEngineSettings = calm, presenceTimeout value: Int? = nil) -> ClientOverrides {
        var overrides = client(settings, heartbeatIntervalMs: 300)
        overrides.presenceHeartbeatValue = value
        return overrides
    }

    /// The observer on `ch-e`, then the client subscribing and connected.
    static let observedReceiving: [CaseStep] = [.observerSubscribe(["ch-e"])] + receiving

    static func observed(_ action: String, state: JSONValue? = nil) -> ExpectedPresence {
        ExpectedPresence(channel: "ch-e", action: action, uuid: "{uuid}", state: state)
    }

    /// Every heartbeat reset from now on: the client's network going away for its heartbeats (only
    /// the client heartbeats; its parked long-poll and the observer's are not touched).
    static let heartbeatsLost = PlanBuilder.plan(PlanBuilder.rule("heartbeats-lost", endpoint: "heartbeat", fault: PlanBuilder.kind("reset")))

    static var observedCases: [ConformanceCase] {
        [
            ConformanceCase(
                "event-engine.presence.observed-join", "Another client sees the event engine's join", spec: "modern §8, §5.6",
                client: observedClient(),
                steps: observedReceiving + [.expectObservedPresence(observed("join"), withinMs: 1_500)],
                expected: [.connected], timeBudget: .seconds(3), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.observed-state-change", "Another client sees the state the event engine's client sets (set state)",
                spec: "modern §8, §6.6",
                client: observedClient(),
                steps: observedReceiving + [
                    .expectObservedPresence(observed("join"), withinMs: 1_500),
                    .perform(.setState(channels: ["ch-e"], state: ["mood": "calm"])),
                    .expectObservedPresence(observed("state-change", state: ["mood": "calm"]), withinMs: 1_000),
                ],
                expected: [.connected], tolerated: [.acknowledgment], timeBudget: .seconds(4), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.observed-timeout", "When the event engine's heartbeats stop, another client sees it time out",
                spec: "modern §8, §5.6",
                client: observedClient(presenceTimeout: shortPresenceTimeout),
                steps: observedReceiving + [
                    .expectObservedPresence(observed("join"), withinMs: 1_000),
                    // Present while heartbeating: no timeout before they stop.
                    .expectNoObservedPresence(observed("timeout"), forMs: 0),
                    .setPlan(heartbeatsLost),
                    .expectObservedPresence(observed("timeout"), withinMs: timeoutWindowMs),
                    .expectNoObservedPresence(observed("leave"), forMs: 0),
                ],
                // The failed heartbeats may be reported (a heartbeat status, or the engine's give-up;
                // the Python SDK's threads report a reset heartbeat as PNUnexpectedDisconnectCategory).
                expected: [.connected], tolerated: [.unknown, .networkIssues, .timeout, .unexpectedDisconnect], timeBudget: .seconds(4),
                requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.observed-leave", "Another client sees the event engine's leave on unsubscribe", spec: "modern §8, §6.2",
                client: observedClient(),
                steps: observedReceiving + [
                    .expectObservedPresence(observed("join"), withinMs: 1_500),
                    .perform(.unsubscribe(channels: ["ch-e"])),
                    .expectObservedPresence(observed("leave"), withinMs: 1_000),
                ],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected], timeBudget: .seconds(3), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.observed-suppressed-leave",
                "With leave events suppressed, another client sees no leave on unsubscribe, but the timeout", spec: "modern §8, §5.6",
                client: observedClient(EventEngineSettings(kind: "linear", delayMs: 2_000, maximumDelayMs: 2_000, maximumRetries: 2,
                                                           suppressLeaveEvents: true),
                                       presenceTimeout: shortPresenceTimeout),
                steps: observedReceiving + [
                    .expectObservedPresence(observed("join"), withinMs: 1_000),
                    .expectNoObservedPresence(observed("timeout"), forMs: 0),
                    .perform(.unsubscribe(channels: ["ch-e"])),
                    .expectObservedPresence(observed("timeout"), withinMs: timeoutWindowMs),
                    .expectNoObservedPresence(observed("leave"), forMs: 0),
                ],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected], timeBudget: .seconds(4), requires: [.presence]),
        ]
    }
}

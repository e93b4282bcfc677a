// SPDX-License-Identifier: MIT
import HarnessJSON

/// Event engines (today's SDKs: JS `src/event-engine`, Python asyncio `pubnub/event_engine`,
/// Swift, Kotlin), asserted on the requests the server saw and on what the client reports. The
/// cases that make the client retry run its event engine with one retry policy (linear, 200 ms,
/// 2 retries: three attempts), so the spacing and the number of attempts are known; the others
/// with a 2 s policy every SDK accepts (docs/conformance.md, "event-engine").
enum EventEngineSuite {
    /// The retry policy of the cases that make the client retry.
    static let policy = EventEngineSettings(kind: "linear", delayMs: 200, maximumDelayMs: 2_000, maximumRetries: 2)
    /// The policy of the cases where nothing fails: a 2 s delay, the shortest every SDK accepts
    /// (the JS SDK refuses less: src/core/components/retry-policy.ts:256), so they run everywhere.
    static let calm = EventEngineSettings(kind: "linear", delayMs: 2_000, maximumDelayMs: 2_000, maximumRetries: 2)

    /// Client settings: the event engine with `settings`, short request timeouts, and presence
    /// heartbeats every `heartbeatIntervalMs` (0: none).
    static func client(_ settings: EventEngineSettings = policy, heartbeatIntervalMs: Int = 0) -> ClientOverrides {
        var overrides = ClientOverrides(nonSubscribeTimeoutMs: 300, presenceHeartbeatIntervalMs: heartbeatIntervalMs)
        overrides.eventEngine = settings
        return overrides
    }

    /// Every long-poll faulted (`times` of them, or all).
    static func longPolls(_ fault: JSONValue, times: Int? = nil) -> JSONValue {
        PlanBuilder.plan(PlanBuilder.rule("long-polls", endpoint: "subscribe", query: PlanBuilder.longPoll, times: times, fault: fault))
    }

    static let receiving: [CaseStep] = [.subscribe(["ch-e"]), .expect(.connected)]

    static var cases: [ConformanceCase] { subscribeCases + presenceCases + observedCases }

    static var subscribeCases: [ConformanceCase] {
        [
            ConformanceCase(
                "event-engine.handshake.then-receive", "Handshake (tt=0), then long-polls with the returned tt and tr", spec: "modern §5",
                client: client(calm),
                steps: receiving + [
                    .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.handshake, atLeast: 1, atMost: 1), withinMs: 500),
                    .expectJournal(.followedBy(after: "subscribe", afterQuery: PlanBuilder.handshake, endpoint: "subscribe",
                                               query: ["tt": "!0", "tr": "*"]),
                                   withinMs: 1_000),
                    .serverPublish(channel: "ch-e", message: "first"), .expectMessage("ch-e", "first"),
                ],
                expected: [.connected]),
            ConformanceCase(
                "event-engine.handshake.ee-flag", "Subscribe requests of an event engine carry the ee flag", spec: "protocol §5 (ee)",
                client: client(calm),
                steps: receiving + [
                    .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.handshake.merging(["ee": "*"]) { $1 }, atLeast: 1),
                                   withinMs: 500),
                    .expectJournal(.count(endpoint: "subscribe", query: ["tt": "!0", "ee": "*"], atLeast: 1), withinMs: 1_000),
                ],
                expected: [.connected]),
            ConformanceCase(
                "event-engine.retry.network-error", "A long-poll reset twice is retried after the policy's delay, silently", spec: "modern §5 (retry policy)",
                plan: longPolls(PlanBuilder.kind("reset"), times: 2), client: client(),
                steps: receiving + [
                    .expectJournal(.spacing(endpoint: "subscribe", query: PlanBuilder.longPoll, count: 3, minimumIntervalMs: 200), withinMs: 2_000),
                    .serverPublish(channel: "ch-e", message: "after"), .expectMessage("ch-e", "after", within: 1_500),
                    .expectNoStatus(.disconnectedUnexpectedly, forMs: 0),
                ],
                expected: [.connected], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.retry.server-error", "A long-poll answered 500 twice is retried after the policy's delay", spec: "modern §5 (retry policy)",
                plan: longPolls(PlanBuilder.status(500), times: 2), client: client(),
                steps: receiving + [
                    .expectJournal(.spacing(endpoint: "subscribe", query: PlanBuilder.longPoll, count: 3, minimumIntervalMs: 200), withinMs: 2_000),
                    .serverPublish(channel: "ch-e", message: "after"), .expectMessage("ch-e", "after", within: 1_500),
                ],
                expected: [.connected], timeBudget: .seconds(4)),
            ConformanceCase(
                // Retry-After: 2, longer than the policy's delay plus any jitter an SDK adds (the
                // Python SDK adds up to 1 s at random): with Retry-After: 1 a client ignoring it
                // passed whenever its jitter exceeded 0.7 s, so its verdict was a coin toss.
                "event-engine.retry.retry-after", "A 429 with Retry-After: 2 delays the retry by two seconds, not the policy's 200 ms",
                spec: "modern §5 (retry policy)",
                plan: longPolls(["kind": "status", "status": 429, "retryAfter": 2], times: 1), client: client(),
                steps: receiving + [
                    .expectJournal(.spacing(endpoint: "subscribe", query: PlanBuilder.longPoll, count: 2, minimumIntervalMs: 2_000), withinMs: 3_000),
                    .serverPublish(channel: "ch-e", message: "after"), .expectMessage("ch-e", "after", within: 1_500),
                ],
                expected: [.connected], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.give-up.receive", "After the last attempt of a long-poll the client gives up and says so", spec: "modern §5 (retry policy)",
                plan: longPolls(PlanBuilder.kind("reset")), client: client(),
                steps: receiving + [
                    .expect(.disconnectedUnexpectedly, within: 2_500), .wait(ms: 600),
                    .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 3, atMost: 3), withinMs: 0),
                ],
                expected: [.connected, .disconnectedUnexpectedly], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.give-up.handshake", "After the last attempt of the handshake the client reports a connection error", spec: "modern §5 (retry policy)",
                plan: PlanBuilder.plan(rules: PlanBuilder.onHandshake("handshakes", times: 100, fault: PlanBuilder.status(500))), client: client(),
                steps: [
                    .subscribe(["ch-e"]), .expect(.connectionError, within: 2_500), .wait(ms: 600),
                    .expectJournal(.count(endpoint: "subscribe", atLeast: 3, atMost: 3), withinMs: 0),
                ],
                expected: [.connectionError], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.retry.excluded", "A policy excluding subscribe gives up at the first failure", spec: "modern §5 (retry policy)",
                plan: longPolls(PlanBuilder.kind("reset"), times: 1),
                client: client(EventEngineSettings(kind: "linear", delayMs: 200, maximumRetries: 2, excluded: ["subscribe"])),
                steps: receiving + [
                    .expect(.disconnectedUnexpectedly, within: 1_500), .wait(ms: 500),
                    .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 1, atMost: 1), withinMs: 0),
                ],
                expected: [.connected, .disconnectedUnexpectedly], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.restore.cursor", "After giving up, reconnect resumes from the kept cursor: nothing lost, nothing twice", spec: "modern §5",
                plan: longPolls(PlanBuilder.kind("reset"), times: 3), client: client(),
                steps: receiving + [
                    .expect(.disconnectedUnexpectedly, within: 2_500),
                    .serverPublish(channel: "ch-e", message: "while failed"), .perform(.reconnect()),
                    .expectMessage("ch-e", "while failed", within: 2_000), .expectNoMoreMessages(forMs: 300),
                    .expectJournal(.cursorReused(true), withinMs: 0),
                ],
                expected: [.connected, .disconnectedUnexpectedly], tolerated: [.reconnected], timeBudget: .seconds(4)),
            ConformanceCase(
                // Whether disconnect also leaves differs between SDKs (the JS SDK's leaves: its
                // presence engine's leaveAll), so the journal's leaves are not checked.
                "event-engine.disconnect.reconnect", "disconnect stops the loop; reconnect catches up from the cursor", spec: "modern §5",
                client: client(calm),
                steps: receiving + [
                    .perform(.disconnect), .expect(.disconnected), .serverPublish(channel: "ch-e", message: "while away"),
                    .perform(.reconnect()), .expectMessage("ch-e", "while away", within: 2_000),
                ],
                expected: [.connected, .disconnected], tolerated: [.reconnected], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.reconnect.timetoken", "reconnect with a timetoken resumes after it: what came later is delivered, not what came before",
                spec: "modern §5",
                client: client(calm),
                steps: receiving + [
                    .publish("ch-e", "first"), .expectMessage("ch-e", "first"),
                    .perform(.disconnect), .expect(.disconnected), .serverPublish(channel: "ch-e", message: "second"),
                    .perform(.reconnect(timetoken: "{message.1}")), .expectMessage("ch-e", "second", within: 2_000),
                    .expectNoMoreMessages(forMs: 300),
                ],
                expected: [.connected, .disconnected], tolerated: [.acknowledgment, .reconnected], timeBudget: .seconds(4)),
            ConformanceCase(
                "event-engine.list-change.keeps-cursor", "Adding a channel while receiving keeps the cursor, without a new handshake", spec: "modern §5",
                client: client(calm),
                steps: receiving + [
                    .subscribe(["ch-f"]), .expect(.subscriptionChanged, within: 1_000),
                    .serverPublish(channel: "ch-f", message: "on f"), .expectMessage("ch-f", "on f", within: 1_500),
                    .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.handshake, atLeast: 1, atMost: 1), withinMs: 0),
                    .expectJournal(.pathContains(endpoint: "subscribe", substring: "ch-f", true), withinMs: 0),
                ],
                expected: [.connected, .subscriptionChanged], timeBudget: .seconds(3)),
        ]
    }

    static var presenceCases: [ConformanceCase] {
        [
            ConformanceCase(
                "event-engine.presence.heartbeat-interval", "Heartbeats go on their own, at the configured interval", spec: "modern §8",
                client: client(calm, heartbeatIntervalMs: 300),
                steps: receiving + [
                    // Three heartbeats of a client that rounds the interval up to a whole second
                    // fit in 2 s only without any delay (PresenceSuite.heartbeatWindowMs).
                    .expectJournal(.spacing(endpoint: "heartbeat", count: 3, minimumIntervalMs: 300),
                                   withinMs: PresenceSuite.heartbeatWindowMs(count: 3)),
                ],
                expected: [.connected], timeBudget: .seconds(4), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.no-heartbeat-at-zero", "A heartbeat interval of 0 sends no heartbeat", spec: "modern §8",
                client: client(calm, heartbeatIntervalMs: 0),
                steps: receiving + [.wait(ms: 700), .expectJournal(.count(endpoint: "heartbeat", atLeast: 0, atMost: 0), withinMs: 0)],
                expected: [.connected], timeBudget: .seconds(3), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.state-on-heartbeat", "State set for a channel travels on its heartbeats", spec: "modern §8",
                client: client(calm, heartbeatIntervalMs: 300),
                steps: [
                    .perform(.setState(channels: ["ch-e"], state: ["mood": "ok"])), .subscribe(["ch-e"]), .expect(.connected),
                    .expectJournal(.count(endpoint: "heartbeat", query: ["state": "*"], atLeast: 1), withinMs: 1_500),
                ],
                expected: [.connected], tolerated: [.acknowledgment], timeBudget: .seconds(3), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.heartbeat-retry", "A failed heartbeat is retried after the policy's delay, before the next interval", spec: "modern §8",
                plan: PlanBuilder.plan(PlanBuilder.rule("heartbeat-fails", endpoint: "heartbeat", times: 1, fault: PlanBuilder.status(500))),
                client: client(heartbeatIntervalMs: 3_000),
                steps: receiving + [
                    .expectJournal(.spacing(endpoint: "heartbeat", count: 2, minimumIntervalMs: 200), withinMs: 1_500),
                ],
                expected: [.connected], timeBudget: .seconds(3), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.heartbeat-give-up", "A heartbeat failing at every attempt is given up after the policy's last one, and reported",
                spec: "modern §8",
                plan: PlanBuilder.plan(PlanBuilder.rule("heartbeats-fail", endpoint: "heartbeat", fault: PlanBuilder.status(500))),
                client: client(heartbeatIntervalMs: 3_000),
                steps: receiving + [
                    .expect(.unknown, within: 2_000), .wait(ms: 400),
                    .expectJournal(.count(endpoint: "heartbeat", atLeast: 3, atMost: 3), withinMs: 0),
                ],
                expected: [.connected, .unknown], timeBudget: .seconds(4), requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.leave-on-unsubscribe", "Unsubscribing sends a leave", spec: "modern §8",
                client: client(calm),
                steps: receiving + [
                    .perform(.unsubscribe(channels: ["ch-e"])), .expectJournal(.count(endpoint: "leave", atLeast: 1, atMost: 1), withinMs: 1_000),
                ],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected], requires: [.presence]),
            ConformanceCase(
                "event-engine.presence.no-leave-when-suppressed", "With leave events suppressed, unsubscribing sends no leave", spec: "modern §8",
                client: client(EventEngineSettings(kind: "linear", delayMs: 2_000, maximumDelayMs: 2_000, maximumRetries: 2, suppressLeaveEvents: true)),
                steps: receiving + [
                    .perform(.unsubscribe(channels: ["ch-e"])), .wait(ms: 400),
                    .expectJournal(.count(endpoint: "leave", atLeast: 0, atMost: 0), withinMs: 0),
                ],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected], requires: [.presence]),
        ]
    }
}

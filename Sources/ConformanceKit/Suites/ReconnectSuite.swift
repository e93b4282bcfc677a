// SPDX-License-Identifier: MIT

/// Reconnection after an unexpected disconnect (spec §12.2): `/time/0` pings at the configured
/// interval, PNReconnectedCategory, restoreSubscription and catchUpOnSubscriptionRestore; and the
/// same restore/catch-up checks for clients whose retry policy retries the subscribe itself (§12.1).
enum ReconnectSuite {
    /// The first long-poll is reset; the next `timeFailures` pings fail, then the server is back.
    static func outage(timeFailures: Int) -> JSONValue {
        PlanBuilder.plan(
            PlanBuilder.rule("drop-long-poll", endpoint: "subscribe", query: PlanBuilder.longPoll, times: 1, fault: PlanBuilder.kind("reset")),
            PlanBuilder.rule("server-down", endpoint: "time", times: timeFailures, fault: PlanBuilder.kind("reset")))
    }

    /// The first long-poll is reset and so are the next `retryFailures` long-polls: a client that
    /// retries the subscribe itself (a retry policy) sees its first retries fail, then succeed.
    static func subscribeOutage(retryFailures: Int) -> JSONValue {
        PlanBuilder.plan(
            PlanBuilder.rule("drop-long-polls", endpoint: "subscribe", query: PlanBuilder.longPoll, times: 1 + retryFailures,
                             fault: PlanBuilder.kind("reset")))
    }

    static func client(restore: Bool = true, catchUp: Bool = true) -> ClientOverrides {
        ClientOverrides(nonSubscribeTimeoutMs: 300, reconnectPingIntervalMs: 100, restoreSubscription: restore, catchUpOnSubscriptionRestore: catchUp)
    }

    static let start: [CaseStep] = [.subscribe(["ch-r"]), .expect(.connected), .expect(.unexpectedDisconnect, within: 1_000)]

    static var cases: [ConformanceCase] {
        [
            ConformanceCase(
                "reconnect.ping.interval", "After an unexpected disconnect the client pings /time/0 at the configured interval", spec: "§12.2",
                plan: outage(timeFailures: 2), client: client(),
                steps: start + [.expectJournal(.spacing(endpoint: "time", count: 3, minimumIntervalMs: 100), withinMs: 1_500)],
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected], timeBudget: .seconds(3), requires: [.reconnection]),
            ConformanceCase(
                "reconnect.ping.reconnected", "When a ping succeeds the client reports PNReconnectedCategory", spec: "§12.2",
                plan: outage(timeFailures: 2), client: client(),
                steps: start + [.expect(.reconnected, within: 1_500)],
                expected: [.connected, .unexpectedDisconnect, .reconnected], timeBudget: .seconds(3), requires: [.reconnection]),
            ConformanceCase(
                "reconnect.ping.keeps-pinging", "While the server stays down the client keeps pinging", spec: "§12.2",
                plan: outage(timeFailures: 5), client: client(),
                steps: start + [.expectJournal(.count(endpoint: "time", atLeast: 6), withinMs: 2_000), .expect(.reconnected, within: 1_000)],
                expected: [.connected, .unexpectedDisconnect, .reconnected], timeBudget: .seconds(4), requires: [.reconnection]),
            ConformanceCase(
                "reconnect.restore.on", "restoreSubscription on: after reconnecting the loop resumes and delivers", spec: "§12.2",
                plan: outage(timeFailures: 1), client: client(restore: true),
                steps: start + [.expect(.reconnected, within: 1_500),
                                .expectJournal(.followedBy(after: "time", afterQuery: [:], endpoint: "subscribe", query: [:]), withinMs: 1_000),
                                .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 2), withinMs: 1_000),
                                .serverPublish(channel: "ch-r", message: "after"), .expectMessage("ch-r", "after")],
                expected: [.connected, .unexpectedDisconnect, .reconnected], timeBudget: .seconds(3), requires: [.reconnection]),
            ConformanceCase(
                "reconnect.restore.off", "restoreSubscription off: the client does not resubscribe by itself", spec: "§12.2",
                plan: outage(timeFailures: 1), client: client(restore: false),
                // A "must not" needs a window: five ping intervals.
                steps: start + [.wait(ms: 500), .expectJournal(.count(endpoint: "subscribe", atLeast: 2, atMost: 2), withinMs: 0)],
                // Forgetting the channels is being unsubscribed from everything: ObjC and Python (policy
                // NONE) then report PNDisconnectedCategory (§11.3, §12.1), others stay silent.
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected, .disconnected], timeBudget: .seconds(3),
                requires: [.reconnection]),
            ConformanceCase(
                "reconnect.catch-up.on", "catchUpOnSubscriptionRestore on: a message sent during the outage is delivered", spec: "§12.2",
                plan: outage(timeFailures: 2), client: client(catchUp: true),
                steps: start + [.serverPublish(channel: "ch-r", message: "during outage"), .expect(.reconnected, within: 1_500),
                                .expectMessage("ch-r", "during outage", within: 1_500), .expectJournal(.cursorReused(true), withinMs: 500)],
                expected: [.connected, .unexpectedDisconnect, .reconnected], timeBudget: .seconds(3), requires: [.reconnection]),
            ConformanceCase(
                "reconnect.catch-up.off", "catchUpOnSubscriptionRestore off: the loop restarts from a new cursor", spec: "§12.2",
                plan: outage(timeFailures: 2), client: client(catchUp: false),
                steps: start + [.serverPublish(channel: "ch-r", message: "during outage"), .expect(.reconnected, within: 1_500),
                                .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 2), withinMs: 1_000),
                                .expectJournal(.cursorReused(false), withinMs: 0), .expectNoMoreMessages(forMs: 200)],
                expected: [.connected, .unexpectedDisconnect, .reconnected], timeBudget: .seconds(3), requires: [.reconnection]),
            // The retry-policy variant of restore/catch-up (ProfileRules.variantCases): the loop retries
            // the subscribe itself after its policy delay instead of pinging /time/0. The first
            // retry fails (announced as an unexpected disconnect), the second succeeds; with the
            // harness's 100 ms interval a linear policy waits 0.1 s plus up to 1 s of jitter per
            // attempt: each window covers one attempt with room, the budget both.
            ConformanceCase(
                "reconnect.retry.restore", "Retry policy: the subscribe is retried with its cursor and the loop resumes and delivers", spec: "§12.1",
                plan: subscribeOutage(retryFailures: 1), client: client(),
                steps: [.subscribe(["ch-r"]), .expect(.connected), .expect(.unexpectedDisconnect, within: 2_000),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 3), withinMs: 2_000),
                        .serverPublish(channel: "ch-r", message: "after"), .expectMessage("ch-r", "after", within: 1_500)],
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected], timeBudget: .seconds(4),
                requires: [.reconnection]),
            ConformanceCase(
                "reconnect.retry.catch-up", "Retry policy: a message sent during the outage is delivered by the retry's reused cursor", spec: "§12.1",
                plan: subscribeOutage(retryFailures: 1), client: client(catchUp: true),
                steps: [.subscribe(["ch-r"]), .expect(.connected), .expect(.unexpectedDisconnect, within: 2_000),
                        .serverPublish(channel: "ch-r", message: "during outage"), .expectMessage("ch-r", "during outage", within: 2_000),
                        .expectJournal(.cursorReused(true), withinMs: 500)],
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected], timeBudget: .seconds(4),
                requires: [.reconnection]),
            ConformanceCase(
                "reconnect.access-denied.no-retry", "A 403 on the long-poll stops the loop: no immediate resubscribe", spec: "§12.2",
                plan: PlanBuilder.onFirstLongPoll(PlanBuilder.status(403)), client: client(),
                steps: [.subscribe(["ch-r"]), .expect(.connected), .expect(.accessDenied), .wait(ms: 500),
                        .expectJournal(.count(endpoint: "subscribe", atLeast: 2, atMost: 2), withinMs: 0)],
                // A client may leave the channels it can no longer read: the leave's acknowledgment (Python, §11.3).
                expected: [.connected, .accessDenied], tolerated: [.acknowledgment], timeBudget: .seconds(3), requires: [.reconnection]),
        ]
    }
}

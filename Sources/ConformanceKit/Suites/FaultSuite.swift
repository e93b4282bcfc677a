// SPDX-License-Identifier: MIT

/// Every request-level fault, once on a non-subscribe request and once on the subscribe loop,
/// plus the subscribe-only faults (spec §10-§12, docs/fault-plans.md).
enum FaultSuite {
    static let quick = ClientOverrides(nonSubscribeTimeoutMs: 300, reconnectPingIntervalMs: 100)

    /// Fault kinds that transform the service's answer (docs/fault-plans.md); on a long-poll
    /// they act when it answers, so the case publishes a message to make it answer.
    static let answerFaults: Set<String> = [
        "malformed-json", "truncated-json", "wrong-content-type", "invalid-chunked", "reset-after-headers",
        "reset-after-body-bytes", "truncated-body", "drip",
    ]

    static func requestCase(_ f: RequestFault) -> ConformanceCase {
        let plan = PlanBuilder.plan(PlanBuilder.rule(f.name, endpoint: "publish", fault: f.fault))
        var steps: [CaseStep] = [.publish("ch-f", "payload")]
        if let category = f.request {
            steps.append(.expect(category, within: 100))
            if f.requestAlternatives.allSatisfy({ $0.categories.allSatisfy(\.isError) }) {
                steps.append(.expectResult(ExpectedResult(isError: true)))
            }
        } else {
            steps.append(.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"])))
        }
        steps.append(.expectJournal(.count(endpoint: "publish", atLeast: 1), withinMs: 300))
        return ConformanceCase(
            "faults.request.\(f.name)", "Publish answered with \(f.what) → \(f.request?.rawValue ?? "acknowledged")", spec: "§11.3",
            plan: plan, client: quick, steps: steps, expected: [f.request ?? .acknowledgment], alternatives: f.requestAlternatives)
    }

    static func subscribeCase(_ f: RequestFault) -> ConformanceCase {
        var client = quick
        if f.onHandshake { client.subscribeTimeoutMs = 500 }
        let plan = f.onHandshake
            ? PlanBuilder.plan(rules: PlanBuilder.onHandshake(f.name, times: 1, fault: f.fault))
            : PlanBuilder.plan(PlanBuilder.rule(f.name, endpoint: "subscribe", query: PlanBuilder.longPoll, times: 1, fault: f.fault))
        var steps: [CaseStep] = [.subscribe(["ch-f"])]
        let expected: [StatusCategory]
        if let category = f.subscribe {
            if f.onHandshake {
                steps += [.expect(category, within: 1_200)]
            } else if Self.answerFaults.contains(f.fault["kind"]?.stringValue ?? "") {
                // These faults alter the long-poll's answer, which only comes when a message arrives.
                steps += [.expect(.connected), SubscribeSuite.longPollInFlight, .serverPublish(channel: "ch-f", message: "trigger"),
                          .expect(category, within: 1_200)]
            } else {
                steps += [.expect(.connected), .expect(category, within: 1_200)]
            }
            expected = f.onHandshake ? [category] : [.connected, category]
        } else {
            steps += [.expect(.connected), SubscribeSuite.longPollInFlight, .serverPublish(channel: "ch-f", message: "through"),
                      .expectMessage("ch-f", "through", within: 1_200)]
            expected = [.connected]
        }
        let title = f.onHandshake ? "Subscribe handshake answered with \(f.what)" : "Subscribe long-poll answered with \(f.what)"
        return ConformanceCase(
            "faults.subscribe.\(f.name)", "\(title) → \(f.subscribe?.rawValue ?? "loop continues")", spec: "§12",
            plan: plan, client: client, steps: steps, expected: expected,
            // After a 403 a client may leave the channels it can no longer read: the leave's acknowledgment (Python, §11.3).
            tolerated: f.subscribe == nil ? [] : ([.reconnected, .connected] + (f.subscribe == .accessDenied ? [.acknowledgment] : []))
                .filter { !expected.contains($0) },
            alternatives: f.subscribeAlternatives, timeBudget: .seconds(3))
    }

    static var subscribeOnly: [ConformanceCase] {
        [
            ConformanceCase(
                "faults.subscribe.close-long-poll-fin", "A parked long-poll closed with FIN → PNUnexpectedDisconnectCategory", spec: "§12",
                plan: PlanBuilder.onFirstLongPoll(["kind": "close-long-poll", "afterMs": 100, "mode": "fin"]), client: quick,
                steps: [.subscribe(["ch-f"]), .expect(.connected), .expect(.unexpectedDisconnect, within: 1_000)],
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected, .networkIssues],
                alternatives: [FaultCatalog.silentRestart]),
            ConformanceCase(
                "faults.subscribe.close-long-poll-reset", "A parked long-poll closed with RST → PNUnexpectedDisconnectCategory", spec: "§12",
                plan: PlanBuilder.onFirstLongPoll(["kind": "close-long-poll", "afterMs": 100, "mode": "reset"]), client: quick,
                steps: [.subscribe(["ch-f"]), .expect(.connected), .expect(.unexpectedDisconnect, within: 1_000)],
                expected: [.connected, .unexpectedDisconnect], tolerated: [.reconnected, .networkIssues]),
            ConformanceCase(
                "faults.subscribe.messages-burst", "A long-poll carrying 3 generated messages delivers all 3", spec: "§5.3",
                plan: PlanBuilder.onFirstLongPoll(["kind": "messages", "count": 3, "channel": "ch-f"]), client: quick,
                steps: [.subscribe(["ch-f"]), .expect(.connected), .expectMessageCount(3, withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "faults.subscribe.foreign-encrypted", "A message encrypted with another key → PNDecryptionErrorCategory, message still delivered", spec: "§11.3",
                plan: PlanBuilder.onFirstLongPoll(["kind": "foreign-encrypted", "cipherKey": "another-key", "scheme": "legacy", "message": #""secret""#]),
                client: ClientOverrides(cipherKey: "enigma", cipherScheme: "legacy"),
                steps: [.subscribe(["ch-f"]), .expect(.connected), .expect(.decryptionError, within: 1_000), .expectMessageCount(1, withinMs: 500)],
                expected: [.connected, .decryptionError], requires: [.encryption]),
            ConformanceCase(
                "faults.subscribe.cursor-backwards", "A cursor older than the request's tt does not break the loop", spec: "§5.7",
                plan: PlanBuilder.onFirstLongPoll(["kind": "cursor-backwards", "by": 1_000]), client: quick,
                steps: [.subscribe(["ch-f"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 2), withinMs: 1_000),
                        .expectNoStatus(.unexpectedDisconnect, forMs: 100)],
                expected: [.connected]),
            ConformanceCase(
                "faults.subscribe.region-change", "The client sends back the region (tr) the server returned", spec: "§5.7",
                plan: PlanBuilder.onFirstLongPoll(["kind": "region-change", "region": 7]), client: quick,
                steps: [.subscribe(["ch-f"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: ["tr": "7"], atLeast: 1), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                // The README recipe (Fixtures/plans/subscribe-timeout-twice.json): issue 5 wants long-poll
                // timeouts restarted silently; ObjC ≤5.5 relabels them as disconnects and restores (§12.2).
                "faults.subscribe.long-poll-times-out-twice", "Two long-polls time out, the third is served: the loop carries on", spec: "§12",
                plan: PlanBuilder.plan(PlanBuilder.rule("subscribe-times-out-twice", endpoint: "subscribe", query: PlanBuilder.longPoll, times: 2,
                                                        fault: PlanBuilder.kind("hang"))),
                client: ClientOverrides(nonSubscribeTimeoutMs: 300, subscribeTimeoutMs: 300, reconnectPingIntervalMs: 100),
                steps: [.subscribe(["ch-f"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 3), withinMs: 2_000),
                        .serverPublish(channel: "ch-f", message: "after two timeouts"), .expectMessage("ch-f", "after two timeouts", within: 1_000)],
                expected: [.connected],
                alternatives: [Alternative([.unexpectedDisconnect, .reconnected],
                                           reason: "ObjC ≤5.5 reports a subscribe timeout as PNUnexpectedDisconnectCategory and restores (§12.2)")],
                timeBudget: .seconds(4)),
            ConformanceCase(
                "faults.request.fail-twice-then-succeed", "A fault limited to 2 requests: the third publish is acknowledged", spec: "§12",
                plan: PlanBuilder.plan(PlanBuilder.rule("twice", endpoint: "publish", times: 2, fault: PlanBuilder.status(500))), client: quick,
                steps: [.publish("ch-f", 1), .expectResult(ExpectedResult(isError: true)), .publish("ch-f", 2), .expectResult(ExpectedResult(isError: true)),
                        .publish("ch-f", 3), .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))],
                expected: [.unknown, .acknowledgment], alternatives: [Alternative([.malformedResponse, .acknowledgment], reason: FaultCatalog.objc4)]),
            ConformanceCase(
                "faults.request.time-hang", "A /time/0 request that never answers → PNTimeoutCategory", spec: "§3",
                plan: PlanBuilder.plan(PlanBuilder.rule("time-hang", endpoint: "time", fault: PlanBuilder.kind("hang"))), client: quick,
                // /time/0 has no subscribe key: a publish first ties the client's uuid to the case's key.
                steps: [.publish("ch-f", "bind"), .time, .expect(.timeout, within: 800)],
                expected: [.acknowledgment, .timeout]),
        ]
    }

    static var cases: [ConformanceCase] {
        FaultCatalog.all.map(requestCase) + FaultCatalog.all.map(subscribeCase) + subscribeOnly
    }
}

// SPDX-License-Identifier: MIT
import HarnessJSON

/// Subscribe filter expressions and wildcard subscriptions (pubnub-modern spec §4, §5).
enum FilterSuite {
    /// Another publisher's message on `channel` with `meta` (raw JSON) and publisher `uuid`.
    static func publish(_ channel: String, _ text: String, meta: String? = nil, uuid: String = "other") -> CaseStep {
        var query = ["uuid": uuid]
        if let meta { query["meta"] = meta }
        return .serverRequest(method: "GET", path: "/publish/{pub}/{sub}/0/\(channel)/0/%22\(text)%22", query: query)
    }

    /// A subscribe, a few publishes and a short quiet window.
    static let budget: Duration = .milliseconds(1_500)

    static func filtered(_ expression: String) -> ClientOverrides { ClientOverrides().filtering(expression) }

    static func filterCase(
        _ id: String, _ title: String, _ expression: String, publishes: [CaseStep], delivered: [String]
    ) -> ConformanceCase {
        // Journal query values use `|` for alternatives and a leading `!` for negation: such
        // expressions are checked for presence only.
        let sent = expression.contains("|") || expression.hasPrefix("!") ? "*" : expression
        var steps: [CaseStep] = [.subscribe(["fl-ch"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                                 .expectJournal(.count(endpoint: "subscribe", query: ["filter-expr": sent], atLeast: 1), withinMs: 0)]
        steps += publishes
        if !delivered.isEmpty {
            steps.append(.expectMessages(delivered.map { ExpectedMessage(channel: "fl-ch", message: .string($0)) }, withinMs: 1_000))
        }
        steps.append(.expectNoMoreMessages(forMs: 300))
        return ConformanceCase(id, title, spec: "modern §4", client: filtered(expression), steps: steps, expected: [.connected], timeBudget: budget)
    }

    static var cases: [ConformanceCase] { filterCases + wildcardCases }

    static var filterCases: [ConformanceCase] {
        [
            filterCase("filters.meta.equal", "Only messages whose meta matches are delivered", "meta.kind == 'keep'",
                       publishes: [publish("fl-ch", "drop", meta: "{\"kind\":\"drop\"}"), publish("fl-ch", "none"),
                                   publish("fl-ch", "keep", meta: "{\"kind\":\"keep\"}")],
                       delivered: ["keep"]),
            filterCase("filters.meta.number", "Numeric comparison and && on meta fields", "meta.level > 2 && meta.level <= 5",
                       publishes: [publish("fl-ch", "one", meta: "{\"level\":1}"), publish("fl-ch", "nine", meta: "{\"level\":9}"),
                                   publish("fl-ch", "three", meta: "{\"level\":3}"), publish("fl-ch", "five", meta: "{\"level\":5}")],
                       delivered: ["three", "five"]),
            filterCase("filters.uuid.exclude", "uuid != excludes one publisher's messages", "uuid != 'bot'",
                       publishes: [publish("fl-ch", "from-bot", uuid: "bot"), publish("fl-ch", "from-human", uuid: "human")],
                       delivered: ["from-human"]),
            filterCase("filters.expr.like", "LIKE with a trailing * matches a prefix", "meta.topic LIKE 'sport-*'",
                       publishes: [publish("fl-ch", "news", meta: "{\"topic\":\"news-local\"}"),
                                   publish("fl-ch", "tennis", meta: "{\"topic\":\"sport-tennis\"}")],
                       delivered: ["tennis"]),
            filterCase("filters.expr.contains-or-not", "CONTAINS, || and ! with parentheses",
                       "(meta.tags CONTAINS 'urgent' || meta.level >= 9) && !(meta.muted == 'yes')",
                       publishes: [publish("fl-ch", "tagged", meta: "{\"tags\":[\"urgent\",\"x\"]}"),
                                   publish("fl-ch", "muted", meta: "{\"tags\":[\"urgent\"],\"muted\":\"yes\"}"),
                                   publish("fl-ch", "calm", meta: "{\"tags\":[\"x\"],\"level\":1}"),
                                   publish("fl-ch", "loud", meta: "{\"level\":10}")],
                       delivered: ["tagged", "loud"]),
            filterCase("filters.expr.matches-nothing", "A filter that matches nothing delivers nothing and keeps the loop", "meta.never == 'true'",
                       publishes: [publish("fl-ch", "a", meta: "{\"x\":1}"), publish("fl-ch", "b")], delivered: []),
            ConformanceCase(
                "filters.uuid.own-messages", "Excluding one's own messages with uuid != the client's uuid", spec: "modern §4",
                client: filtered("uuid != 'filter-self'").withUUID("filter-self"),
                steps: [.subscribe(["fl-ch"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .publish("fl-ch", "mine"), .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        publish("fl-ch", "theirs"),
                        .expectMessages([ExpectedMessage(channel: "fl-ch", message: "theirs")], withinMs: 1_000),
                        .expectNoMoreMessages(forMs: 300)],
                expected: [.connected, .acknowledgment], timeBudget: budget),
            ConformanceCase(
                "filters.expr.invalid", "An unparsable filter expression is refused (481)", spec: "modern §4",
                client: filtered("meta.a ==").withSubscribeTimeout(500),
                steps: [.subscribe(["fl-ch"]), .expect(.malformedFilterExpression, within: 1_500),
                        .expectJournal(.count(endpoint: "subscribe", query: ["filter-expr": "meta.a =="], atLeast: 1), withinMs: 0)],
                expected: [.malformedFilterExpression],
                alternatives: [Alternative([.unknown], reason: "Python reports a 481 as PNUnknownCategory (§11.3)"),
                               Alternative([.unexpectedDisconnect], reason: "clients without a filter category disconnect")],
                timeBudget: budget),
        ]
    }

    static var wildcardCases: [ConformanceCase] {
        [
            ConformanceCase(
                "filters.wildcard.child", "a.* receives a.b with a.* as the subscription", spec: "modern §5",
                steps: [.subscribe(["wc.*"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        publish("wc.room", "hello"),
                        .expectMessages([ExpectedMessage(channel: "wc.room", message: "hello", subscription: "wc.*")], withinMs: 1_000)],
                expected: [.connected], timeBudget: budget),
            ConformanceCase(
                "filters.wildcard.unrelated", "a.* does not receive b.c or a itself", spec: "modern §5",
                steps: [.subscribe(["wc.*"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        publish("other.room", "no"), publish("wc", "no-either"), publish("wc.x", "yes"),
                        .expectMessages([ExpectedMessage(channel: "wc.x", message: "yes", subscription: "wc.*")], withinMs: 1_000),
                        .expectNoMoreMessages(forMs: 300)],
                expected: [.connected], timeBudget: budget),
            ConformanceCase(
                "filters.wildcard.two-levels", "a.b.* receives a.b.c but not a.c", spec: "modern §5",
                steps: [.subscribe(["wc.b.*"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        publish("wc.c", "no"), publish("wc.b.c", "yes"),
                        .expectMessages([ExpectedMessage(channel: "wc.b.c", message: "yes", subscription: "wc.b.*")], withinMs: 1_000),
                        .expectNoMoreMessages(forMs: 300)],
                expected: [.connected], timeBudget: budget),
            ConformanceCase(
                "filters.wildcard.with-filter", "A filter applies to wildcard deliveries too", spec: "modern §4, §5",
                client: filtered("meta.keep == 1"),
                steps: [.subscribe(["wc.*"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        publish("wc.a", "dropped", meta: "{\"keep\":0}"), publish("wc.b", "kept", meta: "{\"keep\":1}"),
                        .expectMessages([ExpectedMessage(channel: "wc.b", message: "kept", subscription: "wc.*")], withinMs: 1_000),
                        .expectNoMoreMessages(forMs: 300)],
                expected: [.connected], timeBudget: budget),
            ConformanceCase(
                "filters.wildcard.presence", "Presence on a wildcard reports joins on its channels", spec: "modern §5",
                steps: [.subscribe(["wc.*"], withPresence: true), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .serverRequest(method: "GET", path: "/v2/subscribe/{sub}/wc.lobby/0", query: ["uuid": "visitor"]),
                        .expectPresence(ExpectedPresence(channel: "wc.lobby", action: "join", uuid: "visitor"), withinMs: 1_000)],
                expected: [.connected], timeBudget: budget, requires: [.presence]),
        ]
    }
}

extension ClientOverrides {
    /// These overrides with a fixed uuid.
    func withUUID(_ uuid: String) -> ClientOverrides {
        var copy = self
        copy.uuid = uuid
        return copy
    }

    /// These overrides with a subscribe long-poll timeout.
    func withSubscribeTimeout(_ ms: Int) -> ClientOverrides {
        var copy = self
        copy.subscribeTimeoutMs = ms
        return copy
    }
}

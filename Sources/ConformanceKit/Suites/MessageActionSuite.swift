// SPDX-License-Identifier: MIT
import HarnessJSON

/// Message actions (docs/endpoints.md, "Message actions"): add, get with `start`/`end`/`limit`
/// and paging through `more`, remove, the `e` = 3 events over subscribe, fetch with actions,
/// the service's refusals, Access Manager rights, and faults on each endpoint.
///
/// Cases name earlier results through placeholders (``MessageActionOperation``): `{message.N}`
/// is the N-th message the client published in the case, `{action.N}` the N-th action it added.
enum MessageActionSuite {
    static let channel = "ma-ch"
    static let budget: Duration = .seconds(1)
    static let ack = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))

    /// The client publishes `text` on the suite's channel (its timetoken becomes `{message.N}`).
    static func publish(_ text: String) -> [CaseStep] {
        [.perform(.publish(channel: channel, message: .string(text))),
         .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"]))]
    }

    /// The client adds an action to message `message` (1-based); the action becomes `{action.N}`.
    static func add(_ type: String, _ value: String, to message: Int) -> [CaseStep] {
        [.perform(.messageActions(.add(channel: channel, messageTimetoken: "{message.\(message)}", type: type, value: value))),
         .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false,
                                      data: ["type": .string(type), "value": .string(value), "uuid": "{uuid}",
                                             "messageTimetoken": .string("{message.\(message)}")],
                                      timetokenPaths: ["actionTimetoken"]))]
    }

    /// An action as a listing shows it: action `action` (1-based) on message `message`.
    static func listed(_ type: String, _ value: String, message: Int, action: Int, uuid: String = "{uuid}") -> JSONValue {
        ["type": .string(type), "value": .string(value), "uuid": .string(uuid),
         "messageTimetoken": .string("{message.\(message)}"), "actionTimetoken": .string("{action.\(action)}")]
    }

    static func get(start: String? = nil, end: String? = nil, limit: Int? = nil) -> CaseStep {
        .perform(.messageActions(.get(channel: channel, start: start, end: end, limit: limit)))
    }

    /// The listing holds exactly `actions` (oldest first) and, unless `more`, no next page.
    static func page(_ actions: [JSONValue], more: Bool = false) -> CaseStep {
        .expectResult(.success(["actions": .array(actions)], timetokenPaths: more ? ["more.start"] : [],
                               absentPaths: more ? [] : ["more"]))
    }

    static var cases: [ConformanceCase] {
        addAndGet + removal + events + fetch + refusals + access + faults
    }

    static var addAndGet: [ConformanceCase] {
        [
            ConformanceCase(
                "message-actions.add.returned", "An added action comes back with its type, value, uuid, message timetoken and an action timetoken",
                spec: "endpoints.md message actions",
                steps: publish("hello") + add("reaction", "smile", to: 1)
                    + [.expectJournal(.pathContains(endpoint: "add-message-action", substring: "/channel/ma-ch/message/{message.1}", true),
                                      withinMs: 0)],
                expected: [.acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-actions.get.empty", "A channel without actions lists none and no next page", spec: "endpoints.md message actions",
                steps: [get(), page([]), .expectJournal(.count(endpoint: "get-message-actions", atLeast: 1), withinMs: 0)],
                expected: [], timeBudget: budget),
            ConformanceCase(
                "message-actions.get.all", "Every action of the channel is listed oldest first, across messages and types",
                spec: "endpoints.md message actions",
                steps: publish("one") + publish("two") + add("reaction", "smile", to: 1) + add("receipt", "read", to: 1)
                    + add("reaction", "frown", to: 2)
                    + [get(), page([listed("reaction", "smile", message: 1, action: 1), listed("receipt", "read", message: 1, action: 2),
                                    listed("reaction", "frown", message: 2, action: 3)])],
                expected: [.acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-actions.get.paged", "Paging with limit 2 through the more link lists five actions once each, newest page first",
                spec: "endpoints.md message actions",
                steps: publish("paged") + (1...5).flatMap { add("reaction", "v\($0)", to: 1) }
                    + [get(limit: 2), page([listed("reaction", "v4", message: 1, action: 4), listed("reaction", "v5", message: 1, action: 5)], more: true),
                       get(start: "{more.start}", end: "{more.end}", limit: 2),
                       page([listed("reaction", "v2", message: 1, action: 2), listed("reaction", "v3", message: 1, action: 3)], more: true),
                       get(start: "{more.start}", end: "{more.end}", limit: 2),
                       page([listed("reaction", "v1", message: 1, action: 1)]),
                       .expectJournal(.count(endpoint: "get-message-actions", query: ["start": "*", "limit": "2"], atLeast: 2), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(2)),
            ConformanceCase(
                "message-actions.get.range", "start and end together select the actions from end up to (not including) start",
                spec: "endpoints.md message actions",
                steps: publish("ranged") + (1...4).flatMap { add("reaction", "r\($0)", to: 1) }
                    + [get(start: "{action.4}", end: "{action.2}"),
                       page([listed("reaction", "r2", message: 1, action: 2), listed("reaction", "r3", message: 1, action: 3)]),
                       .expectJournal(.count(endpoint: "get-message-actions", query: ["start": "{action.4}", "end": "{action.2}"], atLeast: 1),
                                      withinMs: 0)],
                expected: [.acknowledgment], timeBudget: budget),
        ]
    }

    static var removal: [ConformanceCase] {
        [
            ConformanceCase(
                "message-actions.remove.then-get", "A removed action is acknowledged and no longer listed; the other stays",
                spec: "endpoints.md message actions",
                steps: publish("removable") + add("reaction", "smile", to: 1) + add("reaction", "heart", to: 1)
                    + [.perform(.messageActions(.remove(channel: channel, messageTimetoken: "{message.1}", actionTimetoken: "{action.1}"))), ack,
                       .expectJournal(.pathContains(endpoint: "remove-message-action", substring: "/message/{message.1}/action/{action.1}", true),
                                      withinMs: 0),
                       get(), page([listed("reaction", "heart", message: 1, action: 2)])],
                expected: [.acknowledgment], timeBudget: budget),
        ]
    }

    static var events: [ConformanceCase] {
        let connect: [CaseStep] = [.subscribe([channel]), .expect(.connected), SubscribeSuite.longPollInFlight]
        let delivered: CaseStep = .expectMessage(channel, "hi")
        return [
            ConformanceCase(
                "message-actions.events.added", "An action added on a subscribed channel arrives as an added event, not as a message",
                spec: "§5.4",
                steps: connect + publish("hi") + [delivered] + add("reaction", "smile", to: 1)
                    + [.expectMessageAction(ExpectedMessageAction(channel: channel, event: "added",
                                                                  action: listed("reaction", "smile", message: 1, action: 1)), withinMs: 1_000),
                       .expectNoMoreMessages(forMs: 100)],
                expected: [.connected, .acknowledgment], timeBudget: .seconds(2)),
            ConformanceCase(
                "message-actions.events.removed", "Removing an action on a subscribed channel arrives as a removed event", spec: "§5.4",
                steps: connect + publish("hi") + [delivered] + add("reaction", "smile", to: 1)
                    + [.expectMessageAction(ExpectedMessageAction(channel: channel, event: "added", action: ["value": "smile"]), withinMs: 1_000),
                       .perform(.messageActions(.remove(channel: channel, messageTimetoken: "{message.1}", actionTimetoken: "{action.1}"))), ack,
                       .expectMessageAction(ExpectedMessageAction(channel: channel, event: "removed",
                                                                  action: ["type": "reaction", "value": "smile",
                                                                           "messageTimetoken": "{message.1}", "actionTimetoken": "{action.1}"]),
                                            withinMs: 1_000)],
                expected: [.connected, .acknowledgment], timeBudget: .seconds(2)),
            ConformanceCase(
                "message-actions.events.other-user", "An action another user adds arrives with that user's uuid", spec: "§5.4",
                steps: connect + publish("hi") + [delivered,
                    .serverRequest(method: "POST", path: "/v1/message-actions/{sub}/channel/ma-ch/message/{message.1}",
                                   query: ["uuid": "ma-other"], body: ["type": "receipt", "value": "read"]),
                    .expectMessageAction(ExpectedMessageAction(channel: channel, event: "added",
                                                               action: ["type": "receipt", "value": "read", "uuid": "ma-other",
                                                                        "messageTimetoken": "{message.1}"]), withinMs: 1_000)],
                expected: [.connected, .acknowledgment], timeBudget: .seconds(2)),
        ]
    }

    static var fetch: [ConformanceCase] {
        func entry(_ text: String, _ message: Int, _ actions: JSONValue? = nil) -> JSONValue {
            var members: [String: JSONValue] = ["message": .string(text), "timetoken": .string("{message.\(message)}")]
            if let actions { members["actions"] = actions }
            return .object(JSONObject(members))
        }
        func by(_ action: Int) -> JSONValue { ["uuid": "{uuid}", "actionTimetoken": .string("{action.\(action)}")] }
        return [
            ConformanceCase(
                "message-actions.fetch.with-actions", "Fetch with actions attaches each message's actions by type and value",
                spec: "§7.2",
                steps: publish("m1") + publish("m2") + publish("m3")
                    + add("reaction", "smile", to: 1) + add("receipt", "read", to: 1) + add("reaction", "frown", to: 3)
                    + [.perform(.fetchMessages(channels: [channel], includeMessageActions: true)),
                       .expectResult(.success(["channels": [channel: [
                           entry("m1", 1, ["reaction": ["smile": [by(1)]], "receipt": ["read": [by(2)]]]),
                           entry("m2", 2),
                           entry("m3", 3, ["reaction": ["frown": [by(3)]]]),
                       ]]])),
                       .expectJournal(.count(endpoint: "fetch-messages-with-actions", atLeast: 1), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: budget, requires: [.history]),
            ConformanceCase(
                "message-actions.fetch.removed-gone", "An action removed before the fetch is not attached to its message",
                spec: "§7.2",
                steps: publish("m1") + add("reaction", "smile", to: 1) + add("reaction", "heart", to: 1)
                    + [.perform(.messageActions(.remove(channel: channel, messageTimetoken: "{message.1}", actionTimetoken: "{action.1}"))), ack,
                       .perform(.fetchMessages(channels: [channel], includeMessageActions: true)),
                       .expectResult(.success(["channels": [channel: [entry("m1", 1, ["reaction": ["heart": [by(2)]]])]]],
                                              absentPaths: ["channels.ma-ch.0.actions.reaction.smile"]))],
                expected: [.acknowledgment], timeBudget: budget, requires: [.history]),
        ]
    }

    static let refusedAlternatives = [
        Alternative([.acknowledgment, .unknown],
                    reason: "JavaScript refuses the type before sending with its own PNValidationErrorCategory (AddMessageActionRequest.validate), "
                        + "read as PNUnknownCategory; a client without a bad-request category reports the 400 so"),
    ]

    static var refusals: [ConformanceCase] {
        [
            ConformanceCase(
                "message-actions.error.duplicate", "Adding the same type and value to a message twice is refused with HTTP 409",
                spec: "endpoints.md message actions",
                steps: publish("dup") + add("reaction", "smile", to: 1)
                    + [.perform(.messageActions(.add(channel: channel, messageTimetoken: "{message.1}", type: "reaction", value: "smile"))),
                       .expectResult(ExpectedResult(isError: true, statusCode: 409)),
                       get(), page([listed("reaction", "smile", message: 1, action: 1)])],
                expected: [.acknowledgment, .unknown],
                alternatives: [Alternative([.acknowledgment, .malformedResponse], reason: FaultCatalog.objc4)],
                timeBudget: budget),
            ConformanceCase(
                "message-actions.error.type-too-long", "An action type over 15 characters is refused (by the client or with HTTP 400) and not stored",
                spec: "endpoints.md message actions",
                steps: publish("long")
                    + [.perform(.messageActions(.add(channel: channel, messageTimetoken: "{message.1}", type: "sixteen-chars-xy", value: "v"))),
                       .expect(.badRequest, within: 300), .expectResult(ExpectedResult(isError: true)),
                       get(), page([])],
                expected: [.acknowledgment, .badRequest], alternatives: refusedAlternatives, timeBudget: budget),
            ConformanceCase(
                "message-actions.error.limit", "A limit over 100 is refused with HTTP 400 (PNBadRequestCategory)",
                spec: "endpoints.md message actions",
                steps: [get(limit: 101), .expect(.badRequest, within: 300), .expectResult(ExpectedResult(isError: true, statusCode: 400)),
                        .expectJournal(.count(endpoint: "get-message-actions", query: ["limit": "101"], atLeast: 1), withinMs: 0)],
                expected: [.badRequest], alternatives: [Alternative([.unknown], reason: "a client without a bad-request category reports the 400 as PNUnknownCategory")],
                timeBudget: budget),
        ]
    }

    /// A 5xx and a body that is not JSON on each message-action endpoint.
    static var faults: [ConformanceCase] {
        let endpoints: [(name: String, endpoint: String, steps: [CaseStep])] = [
            ("add", "add-message-action", publish("f")
                + [.perform(.messageActions(.add(channel: channel, messageTimetoken: "{message.1}", type: "reaction", value: "smile")))]),
            ("get", "get-message-actions", [get()]),
            ("remove", "remove-message-action", publish("f") + add("reaction", "smile", to: 1)
                + [.perform(.messageActions(.remove(channel: channel, messageTimetoken: "{message.1}", actionTimetoken: "{action.1}")))]),
        ]
        let wanted = ["status-500", "malformed-json"]
        return endpoints.flatMap { target in
            FaultCatalog.all.filter { wanted.contains($0.name) }.map { f in
                let category = f.request ?? .acknowledgment
                let steps = target.steps
                    + [.expect(category, within: 300), .expectResult(ExpectedResult(isError: true)),
                       .expectJournal(.count(endpoint: target.endpoint, atLeast: 1), withinMs: 300)]
                let setup: [StatusCategory] = target.name == "get" ? [] : [.acknowledgment]
                return ConformanceCase(
                    "message-actions.fault.\(target.name)-\(f.name)", "\(target.endpoint) answered with \(f.what) → \(category.rawValue)",
                    spec: "§11.3", plan: PlanBuilder.plan(PlanBuilder.rule(f.name, endpoint: target.endpoint, fault: f.fault)),
                    client: FaultSuite.quick, steps: steps, expected: setup + [category],
                    alternatives: f.requestAlternatives.map { Alternative(setup + $0.categories, reason: $0.reason) }, timeBudget: budget)
            }
        }
    }
}

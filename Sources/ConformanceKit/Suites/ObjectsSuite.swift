// SPDX-License-Identifier: MIT
import HarnessJSON

/// App Context (spec modern §1): uuid and channel metadata, memberships and members, paging,
/// sorting, filtering, If-Match, events over subscribe, Access Manager and faults on each endpoint.
enum ObjectsSuite {
    typealias Options = AppContextListOptions

    static func op(_ operation: AppContextOperation) -> CaseStep { .perform(.appContext(operation)) }
    static func setChannel(_ id: String, _ metadata: JSONValue, include: [String] = ["custom"], eTag: String? = nil) -> CaseStep {
        op(.setChannelMetadata(channel: id, metadata: metadata, include: include, ifMatchesETag: eTag))
    }
    static func setUUID(_ id: String?, _ metadata: JSONValue, include: [String] = ["custom"], eTag: String? = nil) -> CaseStep {
        op(.setUUIDMetadata(uuid: id, metadata: metadata, include: include, ifMatchesETag: eTag))
    }
    static func ok(_ data: JSONValue? = nil) -> CaseStep { .expectResult(.success(data)) }

    /// A journal condition admitting a comma-separated list of `tokens` in any order (`a,b|b,a`):
    /// the service reads `include` as a set, and SDKs list its tokens in orders of their own
    /// (the JavaScript SDK sends `status,type,custom`).
    static func anyOrder(_ tokens: [String]) -> String {
        func orders(_ rest: [String]) -> [[String]] {
            guard rest.count > 1 else { return [rest] }
            return rest.indices.flatMap { index in
                var others = rest
                let first = others.remove(at: index)
                return orders(others).map { [first] + $0 }
            }
        }
        return orders(tokens).map { $0.joined(separator: ",") }.joined(separator: "|")
    }
    /// A failed result with HTTP `code`; its `category` is checked through the case's expected
    /// categories, where alternatives of other SDK families apply.
    static func failed(_ category: StatusCategory, _ code: Int) -> CaseStep {
        .expectResult(ExpectedResult(isError: true, statusCode: code))
    }
    static let ack = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))
    static func ids(_ list: [String], key: String? = nil) -> JSONValue {
        .array(list.map { id in key.map { [$0: ["id": .string(id)]] } ?? ["id": .string(id)] })
    }
    static let notFoundAsUnknown = Alternative([.acknowledgment, .unknown], reason: FaultCatalog.python)
    /// A well-formed eTag that no object has.
    static let staleETag = "0123456789abcdef0123456789abcdef"

    /// The cases declare a small budget: the runner derives each one's real budget from its steps
    /// (``CaseBudget/derive(_:)``), which for these request/answer cases is about a second.
    static var cases: [ConformanceCase] {
        (metadata + lists + memberships + events + faults).map { testCase in
            var copy = testCase
            copy.timeBudget = .milliseconds(100)
            return copy
        }
    }

    static var metadata: [ConformanceCase] {
        [
            ConformanceCase(
                "objects.uuid.set-get", "The client's uuid metadata is set and read back with custom, status and type", spec: "modern §1.4",
                steps: [setUUID(nil, ["name": "Ann", "email": "ann@example.com", "status": "online", "type": "admin", "custom": ["team": "blue"]],
                                include: ["custom", "status", "type"]),
                        ok(["data": ["id": "{uuid}", "name": "Ann", "status": "online", "type": "admin", "custom": ["team": "blue"]]]),
                        op(.getUUIDMetadata(uuid: nil, include: ["custom", "status", "type"])),
                        ok(["data": ["id": "{uuid}", "email": "ann@example.com", "externalId": .null, "custom": ["team": "blue"]]]),
                        .expectJournal(.count(endpoint: "objects", query: ["include": anyOrder(["custom", "status", "type"])], atLeast: 2), withinMs: 300)],
                expected: []),
            ConformanceCase(
                "objects.uuid.upsert", "A second set changes only the fields it names", spec: "modern §1.3",
                steps: [setUUID("u-up", ["name": "Old", "email": "e@x"]), ok(),
                        setUUID("u-up", ["name": "New"]), ok(["data": ["id": "u-up", "name": "New", "email": "e@x"]])],
                expected: []),
            ConformanceCase(
                "objects.uuid.remove", "Removed uuid metadata is acknowledged and then not found", spec: "modern §1.7",
                steps: [setUUID("u-rm", ["name": "Gone"]), ok(), op(.removeUUIDMetadata(uuid: "u-rm")), ack,
                        op(.getUUIDMetadata(uuid: "u-rm", include: [])), failed(.resourceNotFound, 404)],
                expected: [.acknowledgment, .resourceNotFound], alternatives: [notFoundAsUnknown]),
            ConformanceCase(
                "objects.uuid.if-match", "A set with the current eTag as If-Match is applied", spec: "modern §1.6",
                steps: [setUUID("u-etag", ["name": "v1"]), ok(), setUUID("u-etag", ["name": "v2"], eTag: "{eTag}"),
                        ok(["data": ["name": "v2"]]), .expectJournal(.count(endpoint: "objects", query: ["uuid": "*"], atLeast: 2), withinMs: 300)],
                expected: []),
            ConformanceCase(
                "objects.uuid.if-match-stale", "A set with a stale eTag is refused with 412 (PNPreconditionFailedCategory)", spec: "modern §1.6",
                steps: [setUUID("u-stale", ["name": "v1"]), ok(), setUUID("u-stale", ["name": "v2"], eTag: staleETag),
                        failed(.preconditionFailed, 412),
                        op(.getUUIDMetadata(uuid: "u-stale", include: [])), ok(["data": ["name": "v1"]])],
                expected: [.preconditionFailed],
                alternatives: [Alternative([.badRequest], reason: "SDKs without a 412 category report it as a bad request"),
                               Alternative([.unknown], reason: "SDKs map unlisted HTTP errors to PNUnknownCategory")]),
            ConformanceCase(
                "objects.channel.set-get", "Channel metadata is set and read back", spec: "modern §1.4",
                steps: [setChannel("ch-meta", ["name": "Room", "description": "A room", "custom": ["public": true]]),
                        ok(["data": ["id": "ch-meta", "name": "Room", "custom": ["public": true]]]),
                        op(.getChannelMetadata(channel: "ch-meta", include: ["custom"])),
                        ok(["data": ["id": "ch-meta", "description": "A room", "custom": ["public": true]]])],
                expected: []),
            ConformanceCase(
                "objects.channel.remove", "Removed channel metadata is acknowledged and then not found", spec: "modern §1.7",
                steps: [setChannel("ch-rm", ["name": "Gone"]), ok(), op(.removeChannelMetadata(channel: "ch-rm")), ack,
                        op(.getChannelMetadata(channel: "ch-rm", include: [])), failed(.resourceNotFound, 404)],
                expected: [.acknowledgment, .resourceNotFound], alternatives: [notFoundAsUnknown]),
            ConformanceCase(
                "objects.channel.if-match-stale", "A channel set with a stale eTag is refused with 412", spec: "modern §1.6",
                steps: [setChannel("ch-stale", ["name": "v1"]), ok(), setChannel("ch-stale", ["name": "v2"], eTag: staleETag),
                        failed(.preconditionFailed, 412)],
                expected: [.preconditionFailed],
                alternatives: [Alternative([.badRequest], reason: "SDKs without a 412 category report it as a bad request"),
                               Alternative([.unknown], reason: "SDKs map unlisted HTTP errors to PNUnknownCategory")]),
            ConformanceCase(
                "objects.pam.denied", "On an Access Manager keyset without a grant, App Context answers 403", spec: "modern §1.7",
                client: ClientOverrides(authKey: "auth-none"),
                steps: [op(.getChannelMetadata(channel: "ch-pam", include: [])), failed(.accessDenied, 403)],
                expected: [.accessDenied], requires: [.accessManager], accessManager: true),
        ]
    }

    static var lists: [ConformanceCase] {
        let three = [setChannel("ch-a", ["name": "Zoe"]), setChannel("ch-b", ["name": "Amy"]), setChannel("ch-c", ["name": "Bob"])]
        return [
            ConformanceCase(
                "objects.list.count", "Listing with count gives totalCount; the list is ordered by id", spec: "modern §1.5",
                steps: three + [op(.getAllChannelMetadata(Options(includeCount: true))),
                                ok(["data": ids(["ch-a", "ch-b", "ch-c"]), "totalCount": 3])],
                expected: []),
            ConformanceCase(
                "objects.list.sort", "Sort by name descending, then by several keys", spec: "modern §1.2",
                steps: three + [op(.getAllChannelMetadata(Options(sort: ["name:desc"]))), ok(["data": ids(["ch-a", "ch-c", "ch-b"])]),
                                setChannel("ch-d", ["name": "Amy"]),
                                op(.getAllChannelMetadata(Options(sort: ["name", "id:desc"]))),
                                ok(["data": ids(["ch-d", "ch-b", "ch-c", "ch-a"])])],
                expected: []),
            ConformanceCase(
                "objects.list.filter", "A filter selects by name pattern and custom field", spec: "modern §1.8",
                steps: [setUUID("u-f1", ["name": "John Smith", "custom": ["age": 30]]), setUUID("u-f2", ["name": "Johnny", "custom": ["age": 17]]),
                        setUUID("u-f3", ["name": "Mary", "custom": ["age": 40]]),
                        op(.getAllUUIDMetadata(Options(include: ["custom"], filter: "name LIKE \"John*\" && custom.age >= 18"))),
                        ok(["data": ids(["u-f1"])]),
                        op(.getAllUUIDMetadata(Options(filter: "name == \"Mary\" || name == \"Johnny\""))),
                        ok(["data": ids(["u-f2", "u-f3"])])],
                expected: []),
            ConformanceCase(
                "objects.list.filter-invalid", "An invalid filter is refused with 400", spec: "modern §1.8",
                steps: [op(.getAllChannelMetadata(Options(filter: "name =="))), failed(.badRequest, 400)],
                expected: [.badRequest]),
            ConformanceCase(
                "objects.list.pages", "Pages follow next (on the last page too) and prev from page 2", spec: "modern §1.5",
                steps: three + [op(.getAllChannelMetadata(Options(limit: 2))), ok(["data": ids(["ch-a", "ch-b"]), "next": "Mg"]),
                                op(.getAllChannelMetadata(Options(limit: 2, start: "{next}"))),
                                ok(["data": ids(["ch-c"]), "next": "Mw", "prev": "Mg"]),
                                op(.getAllChannelMetadata(Options(limit: 2, end: "{prev}"))), ok(["data": ids(["ch-a", "ch-b"])]),
                                .expectJournal(.count(endpoint: "objects", query: ["start": "Mg"], atLeast: 1), withinMs: 300)],
                expected: []),
        ]
    }

    static var memberships: [ConformanceCase] {
        [
            ConformanceCase(
                "objects.memberships.set", "Setting memberships answers the uuid's whole list with the membership data", spec: "modern §1.4",
                steps: [op(.setMemberships(uuid: nil, channels: [AppContextMembership("ch-1", custom: ["role": "admin"], status: "on")],
                                           Options(include: ["custom", "status"]))),
                        ok(["data": [["channel": ["id": "ch-1"], "custom": ["role": "admin"], "status": "on"]]]),
                        op(.setMemberships(uuid: nil, channels: [AppContextMembership("ch-0")], Options())),
                        ok(["data": ids(["ch-0", "ch-1"], key: "channel")])],
                expected: []),
            ConformanceCase(
                "objects.memberships.embedded-channel", "include channel.custom embeds the channel's metadata", spec: "modern §1.2",
                steps: [setChannel("ch-emb", ["name": "Room", "custom": ["public": false]]), ok(),
                        op(.setMemberships(uuid: "u-emb", channels: [AppContextMembership("ch-emb"), AppContextMembership("ch-bare")],
                                           Options(include: ["channel.custom"]))),
                        ok(["data": [["channel": ["id": "ch-bare"]], ["channel": ["id": "ch-emb", "name": "Room", "custom": ["public": false]]]]]),
                        op(.getMemberships(uuid: "u-emb", Options(include: ["channel.custom"], includeCount: true))),
                        ok(["totalCount": 2])],
                expected: []),
            ConformanceCase(
                "objects.memberships.remove-manage", "Removing and managing memberships answer what is left", spec: "modern §1.4",
                steps: [op(.setMemberships(uuid: nil, channels: [AppContextMembership("ch-1"), AppContextMembership("ch-2")], Options())), ok(),
                        op(.removeMemberships(uuid: nil, channels: ["ch-1"], Options())), ok(["data": ids(["ch-2"], key: "channel")]),
                        op(.manageMemberships(uuid: nil, set: [AppContextMembership("ch-3")], remove: ["ch-2"], Options())),
                        ok(["data": ids(["ch-3"], key: "channel")]),
                        op(.removeMemberships(uuid: nil, channels: ["ch-3"], Options())), ok(["data": []])],
                expected: []),
            ConformanceCase(
                "objects.members.set-get", "Members are the same records seen from the channel", spec: "modern §1.4",
                steps: [op(.setMemberships(uuid: "u-m1", channels: [AppContextMembership("ch-room", status: "on")], Options())), ok(),
                        op(.setMembers(channel: "ch-room", uuids: [AppContextMembership("u-m2", custom: ["k": 1])], Options(include: ["custom"]))),
                        ok(["data": [["uuid": ["id": "u-m1"], "custom": .null], ["uuid": ["id": "u-m2"], "custom": ["k": 1]]]]),
                        op(.getMembers(channel: "ch-room", Options(include: ["status"], includeCount: true))),
                        ok(["data": [["uuid": ["id": "u-m1"], "status": "on"], ["uuid": ["id": "u-m2"], "status": .null]], "totalCount": 2])],
                expected: []),
            ConformanceCase(
                "objects.members.embedded-uuid", "include uuid.custom embeds the uuid's metadata", spec: "modern §1.2",
                steps: [setUUID("u-e", ["name": "Eve", "custom": ["x": 1]]), ok(),
                        op(.setMembers(channel: "ch-e", uuids: [AppContextMembership("u-e")], Options(include: ["uuid.custom"]))),
                        ok(["data": [["uuid": ["id": "u-e", "name": "Eve", "custom": ["x": 1]]]]])],
                expected: []),
            ConformanceCase(
                "objects.members.remove-manage", "Removing and managing members answer what is left", spec: "modern §1.4",
                steps: [op(.setMembers(channel: "ch-rm", uuids: [AppContextMembership("u-1"), AppContextMembership("u-2")], Options())), ok(),
                        op(.removeMembers(channel: "ch-rm", uuids: ["u-1"], Options())), ok(["data": ids(["u-2"], key: "uuid")]),
                        op(.manageMembers(channel: "ch-rm", set: [AppContextMembership("u-3")], remove: ["u-2"], Options())),
                        ok(["data": ids(["u-3"], key: "uuid")])],
                expected: []),
            ConformanceCase(
                "objects.members.pages", "Member pages of 2 with next and prev", spec: "modern §1.5",
                steps: [op(.setMembers(channel: "ch-p", uuids: (1...5).map { AppContextMembership("u-\($0)") }, Options(limit: 2))),
                        ok(["data": ids(["u-1", "u-2"], key: "uuid"), "next": "Mg"]),
                        op(.getMembers(channel: "ch-p", Options(limit: 2, start: "{next}"))),
                        ok(["data": ids(["u-3", "u-4"], key: "uuid"), "next": "NA", "prev": "Mg"])],
                expected: []),
        ]
    }

    static var events: [ConformanceCase] {
        let subscribed: [CaseStep] = [.subscribe(["ch-ev", "u-ev"]), .expect(.connected), SubscribeSuite.longPollInFlight]
        return [
            ConformanceCase(
                "objects.events.channel-set", "Setting a channel's metadata is announced on that channel", spec: "modern §1.9",
                steps: subscribed + [setChannel("ch-ev", ["name": "Room"]), ok(),
                                     .expectAppContextEvent(ExpectedAppContextEvent(channel: "ch-ev", event: "set", type: "channel",
                                                                                    data: ["id": "ch-ev", "name": "Room"]), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "objects.events.uuid-set", "Setting a uuid's metadata is announced on the channel named by the uuid", spec: "modern §1.9",
                steps: subscribed + [setUUID("u-ev", ["name": "Eve"]), ok(),
                                     .expectAppContextEvent(ExpectedAppContextEvent(channel: "u-ev", event: "set", type: "uuid",
                                                                                    data: ["id": "u-ev", "name": "Eve"]), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "objects.events.membership", "A membership set and its removal are announced on the channel", spec: "modern §1.9",
                steps: subscribed + [op(.setMembers(channel: "ch-ev", uuids: [AppContextMembership("u-x", status: "on")], Options())), ok(),
                                     .expectAppContextEvent(ExpectedAppContextEvent(channel: "ch-ev", event: "set", type: "membership",
                                                                                    data: ["channel": ["id": "ch-ev"], "uuid": ["id": "u-x"]]), withinMs: 1_000),
                                     op(.removeMembers(channel: "ch-ev", uuids: ["u-x"], Options())), ok(),
                                     .expectAppContextEvent(ExpectedAppContextEvent(channel: "ch-ev", event: "delete", type: "membership",
                                                                                    data: ["uuid": ["id": "u-x"]]), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "objects.events.channel-delete", "Removing channel metadata is announced with its id", spec: "modern §1.9",
                steps: [setChannel("ch-ev", ["name": "Room"]), ok()] + subscribed
                    + [op(.removeChannelMetadata(channel: "ch-ev")), ack,
                       .expectAppContextEvent(ExpectedAppContextEvent(channel: "ch-ev", event: "delete", type: "channel",
                                                                      data: ["id": "ch-ev"]), withinMs: 1_000)],
                expected: [.connected, .acknowledgment]),
        ]
    }

    /// One fault per App Context request kind (GET one, PATCH one, DELETE, list, memberships, members).
    static var faults: [ConformanceCase] {
        func fault(_ name: String) -> RequestFault { FaultCatalog.all.first { $0.name == name }! }
        func faulted(_ id: String, _ title: String, method: String, faultName: String, setup: [CaseStep] = [], _ step: CaseStep) -> ConformanceCase {
            let f = fault(faultName)
            let rule: JSONValue = ["id": .string(faultName), "match": ["endpoint": "objects", "method": .string(method)], "times": 1,
                                   "fault": f.fault]
            var steps = setup + [step]
            if let category = f.request {
                steps += [.expect(category, within: 1_000), .expectResult(ExpectedResult(isError: true))]
            } else {
                steps += [.expectResult(ExpectedResult(isError: false))]
            }
            steps.append(.expectJournal(.count(endpoint: "objects", atLeast: 1), withinMs: 300))
            return ConformanceCase(
                "objects.faults.\(id)", "\(title) answered with \(f.what) → \(f.request?.rawValue ?? "succeeds")", spec: "modern §1, §11.3",
                plan: PlanBuilder.plan(rule), client: FaultSuite.quick, steps: steps, expected: [f.request].compactMap { $0 },
                alternatives: f.requestAlternatives)
        }
        return [
            faulted("get-status-500", "Get uuid metadata", method: "GET", faultName: "status-500", op(.getUUIDMetadata(uuid: nil, include: []))),
            faulted("set-malformed-json", "Set channel metadata", method: "PATCH", faultName: "malformed-json",
                    setChannel("ch-f", ["name": "x"])),
            faulted("remove-status-403", "Remove uuid metadata", method: "DELETE", faultName: "status-403", op(.removeUUIDMetadata(uuid: nil))),
            faulted("list-hang", "Get all channel metadata", method: "GET", faultName: "hang", op(.getAllChannelMetadata(Options()))),
            faulted("memberships-reset", "Set memberships", method: "PATCH", faultName: "reset",
                    op(.setMemberships(uuid: nil, channels: [AppContextMembership("ch-f")], Options()))),
            faulted("members-status-400", "Get members", method: "GET", faultName: "status-400", op(.getMembers(channel: "ch-f", Options()))),
            faulted("members-drip", "Set members", method: "PATCH", faultName: "drip",
                    op(.setMembers(channel: "ch-f", uuids: [AppContextMembership("u-f")], Options()))),
        ]
    }
}

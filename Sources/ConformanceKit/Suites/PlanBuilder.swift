// SPDX-License-Identifier: MIT
import HarnessJSON

/// Builders for fault plans (docs/fault-plans.md) as JSON values, for the catalog.
public enum PlanBuilder {
    /// A rule: `match` on endpoint (and query), the `fault`, optional budget.
    public static func rule(
        _ id: String, endpoint: String, query: [String: String] = [:], times: Int? = nil, fault: JSONValue
    ) -> JSONValue {
        var match: JSONObject = ["endpoint": .string(endpoint)]
        if !query.isEmpty { match["query"] = .object(JSONObject(query.mapValues { JSONValue.string($0) })) }
        var rule: JSONObject = ["id": .string(id), "match": .object(match), "fault": fault]
        if let times { rule["times"] = .int(times) }
        return .object(rule)
    }

    /// A plan of `rules` (version 1; the runner adds the case's seed).
    public static func plan(_ rules: JSONValue...) -> JSONValue {
        ["version": 1, "rules": .array(rules)]
    }

    /// A plan of `rules` (version 1; the runner adds the case's seed).
    public static func plan(rules: [JSONValue]) -> JSONValue {
        ["version": 1, "rules": .array(rules)]
    }

    /// The long-poll (not the handshake) of the subscribe loop.
    public static let longPoll: [String: String] = ["tt": "!0"]
    /// The handshake of the subscribe loop in journal expectations: `tt=0` or no `tt` at all
    /// (both are handshakes, spec §5.2; clients differ).
    public static let handshake: [String: String] = ["tt": "0|!"]

    /// Rules faulting the handshake whichever shape the client gives it: one for `tt=0`, one for
    /// a handshake without `tt` (fault plans have no alternation; a client only ever matches one).
    public static func onHandshake(_ id: String, times: Int, fault: JSONValue) -> [JSONValue] {
        [rule(id, endpoint: "subscribe", query: ["tt": "0"], times: times, fault: fault),
         rule(id + "-no-tt", endpoint: "subscribe", query: ["tt": "!"], times: times, fault: fault)]
    }

    /// A plan faulting the first long-poll once.
    public static func onFirstLongPoll(_ fault: JSONValue) -> JSONValue {
        plan(rule("long-poll-fault", endpoint: "subscribe", query: longPoll, times: 1, fault: fault))
    }

    /// The `status` fault.
    public static func status(_ code: Int) -> JSONValue { ["kind": "status", "status": .int(code)] }
    /// A fault with only a kind.
    public static func kind(_ kind: String) -> JSONValue { ["kind": .string(kind)] }
}

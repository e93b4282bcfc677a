// SPDX-License-Identifier: MIT

/// A fault plan: ordered rules for the requests of one subscribe key (schema: docs/fault-plans.md).
public struct FaultPlan: Sendable, Hashable {
    /// The schema version; only `1` exists.
    public var version: Int
    /// The seed of the probabilistic rules; `nil` = the server picks one at installation and reports it.
    public var seed: UInt64?
    /// The key this plan is for, when it comes from a plan file (`serve --plan FILE`).
    public var subscribeKey: String?
    /// Free text for people reading the plan.
    public var description: String?
    /// Ordered rules: the first that matches and still has budget decides the request.
    public var rules: [FaultRule]

    public init(
        version: Int = 1, seed: UInt64? = nil, subscribeKey: String? = nil, description: String? = nil,
        rules: [FaultRule]
    ) {
        self.version = version
        self.seed = seed
        self.subscribeKey = subscribeKey
        self.description = description
        self.rules = rules
    }

    /// The plan that faults nothing.
    public static let empty = FaultPlan(rules: [])
}

/// One rule: which requests, which of them (nth, after, times, probability), and what fault.
public struct FaultRule: Sendable, Hashable {
    /// The name shown in the journal; the decoder fills `rule-<index>` when absent.
    public var id: String
    /// Free text for people reading the plan.
    public var description: String?
    /// The conditions a request must meet.
    public var match: RequestMatch
    /// Only the nth matching request (from 1).
    public var nth: Int?
    /// Let the first `after` matching requests through.
    public var after: Int?
    /// Fault at most this many requests, then let the rest through.
    public var times: Int?
    /// Fault a matching request with this probability (0...1), drawn from the plan's seeded generator.
    public var probability: Double?
    /// What to do.
    public var fault: Fault

    public init(
        id: String, description: String? = nil, match: RequestMatch = RequestMatch(), nth: Int? = nil,
        after: Int? = nil, times: Int? = nil, probability: Double? = nil, fault: Fault
    ) {
        self.id = id
        self.description = description
        self.match = match
        self.nth = nth
        self.after = after
        self.times = times
        self.probability = probability
        self.fault = fault
    }
}

/// Conditions on a request; every given condition must hold (none given = every request).
public struct RequestMatch: Sendable, Hashable {
    /// The request's endpoint is one of these.
    public var endpoints: [PubNubEndpoint]?
    /// The request method equals this (`GET`, `POST`, `DELETE`).
    public var method: String?
    /// One of the request's channels equals this.
    public var channel: String?
    /// One of the request's channel groups equals this.
    public var channelGroup: String?
    /// The `uuid` query parameter equals this.
    public var uuid: String?
    /// Conditions on query parameters, in order (see `QueryCondition`).
    public var query: [QueryCondition]

    public init(
        endpoints: [PubNubEndpoint]? = nil, method: String? = nil, channel: String? = nil,
        channelGroup: String? = nil, uuid: String? = nil, query: [QueryCondition] = []
    ) {
        self.endpoints = endpoints
        self.method = method
        self.channel = channel
        self.channelGroup = channelGroup
        self.uuid = uuid
        self.query = query
    }
}

/// A condition on one query parameter, written in a plan as `"name": "pattern"`.
public struct QueryCondition: Sendable, Hashable {
    /// What the parameter's value must be.
    public enum Expectation: Sendable, Hashable {
        /// `"*"`: present with any value.
        case present
        /// `"!"`: absent.
        case absent
        /// `"!v"`: present and not `v`.
        case notEqual(String)
        /// `"v"` (or `"=v"` to match a value that starts with `!`/`=` or is `*`): present and equal.
        case equal(String)
    }

    public var name: String
    public var expectation: Expectation

    public init(name: String, expectation: Expectation) {
        self.name = name
        self.expectation = expectation
    }

    /// Parses the plan's pattern string.
    public init(name: String, pattern: String) {
        self.name = name
        if pattern == "*" {
            expectation = .present
        } else if pattern == "!" {
            expectation = .absent
        } else if pattern.hasPrefix("!") {
            expectation = .notEqual(String(pattern.dropFirst()))
        } else if pattern.hasPrefix("=") {
            expectation = .equal(String(pattern.dropFirst()))
        } else {
            expectation = .equal(pattern)
        }
    }

    /// The plan's pattern string for this condition.
    public var pattern: String {
        switch expectation {
        case .present: "*"
        case .absent: "!"
        case .notEqual(let value): "!" + value
        case .equal(let value):
            value == "*" || value.hasPrefix("!") || value.hasPrefix("=") ? "=" + value : value
        }
    }

    /// Whether `query` satisfies the condition (the first parameter named `name` counts).
    public func holds(in query: [QueryItem]) -> Bool {
        let value = query[name]
        switch expectation {
        case .present: return value != nil
        case .absent: return value == nil
        case .notEqual(let other): return value != nil && value != other
        case .equal(let other): return value == other
        }
    }
}

extension RequestMatch {
    /// Whether a request with `route` and `method` meets every condition.
    public func matches(_ route: PubNubRoute, method requestMethod: String) -> Bool {
        if let endpoints, !endpoints.contains(route.endpoint) { return false }
        if let method, method.uppercased() != requestMethod.uppercased() { return false }
        if let channel, !route.channels.contains(channel) { return false }
        if let channelGroup, !route.channelGroups.contains(channelGroup) { return false }
        if let uuid, route.uuid != uuid { return false }
        return query.allSatisfy { $0.holds(in: route.query) }
    }
}

// SPDX-License-Identifier: MIT

/// A Pusher fault plan for one app key (docs/fault-plans.md "Pusher plans"): ordered rules, each
/// applied to the connections it selects. Rules are decided once per connection, when it opens.
public struct PusherFaultPlan: Sendable, Hashable {
    /// The key a plan file installs the plan under (over HTTP it must match `app_key`).
    public var appKey: String?
    public var description: String?
    public var rules: [PusherFaultRule]

    public init(appKey: String? = nil, description: String? = nil, rules: [PusherFaultRule]) {
        self.appKey = appKey
        self.description = description
        self.rules = rules
    }
}

/// One rule: a fault for some of a key's connections, counted in connection order.
public struct PusherFaultRule: Sendable, Hashable {
    /// Shown in the journal; `rule-<index>` when absent.
    public var id: String?
    /// Let the first `after` connections through.
    public var after: Int
    /// Fault at most this many connections, then let the rest through (absent: every one).
    public var times: Int?
    /// Only connections whose URL query has these values (`protocol`, `client`, …).
    public var query: [String: String]
    public var fault: PusherFault

    public init(id: String? = nil, after: Int = 0, times: Int? = nil, query: [String: String] = [:], fault: PusherFault) {
        self.id = id
        self.after = after
        self.times = times
        self.query = query
        self.fault = fault
    }
}

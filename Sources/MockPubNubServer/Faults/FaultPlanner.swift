// SPDX-License-Identifier: MIT

/// Decides, for each request of one subscribe key, whether a rule of its plan fires.
///
/// Pure: no I/O, no clock. The state is the plan, a counter per rule and the seeded generator;
/// the same seed and the same request sequence always give the same decisions.
///
/// Counting: every rule whose `match` holds counts the request (its `matched` number), whether or
/// not an earlier rule decides it, so `nth` means "the nth request this rule matches". Rules are
/// then tried in order; the first one that is eligible (`nth`, `after`, `times` budget, then the
/// `probability` draw) fires. A draw is taken only for a rule that is otherwise eligible and not
/// preceded by a firing rule, so the sequence of draws is a function of the requests alone.
package struct FaultPlanner: Sendable, Hashable {
    /// The installed plan.
    package let plan: FaultPlan
    /// The seed in use: the plan's, or the one picked at installation.
    package let seed: UInt64
    /// Per rule (same order as `plan.rules`): how many requests matched and how many were faulted.
    package private(set) var counters: [RuleCounter]
    private var random: FaultRandom

    /// Prepares `plan`; `fallbackSeed` is used when the plan names no seed.
    package init(plan: FaultPlan, fallbackSeed: UInt64) {
        self.plan = plan
        seed = plan.seed ?? fallbackSeed
        counters = Array(repeating: RuleCounter(), count: plan.rules.count)
        random = FaultRandom(seed: seed)
    }

    /// Decides what happens to a request with `route` and `method`, updating the counters.
    ///
    /// `preflight`: the request is a browser's preflight (`OPTIONS`) for a request of `method`:
    /// only `preflight-failure` rules see preflights, and only preflights see them.
    package mutating func decide(_ route: PubNubRoute, method: String, preflight: Bool = false) -> FaultDecision {
        var matchNumbers: [Int?] = []
        matchNumbers.reserveCapacity(plan.rules.count)
        for (index, rule) in plan.rules.enumerated() {
            if (rule.fault.kind == .preflightFailure) == preflight && rule.match.matches(route, method: method) {
                counters[index].matched += 1
                matchNumbers.append(counters[index].matched)
            } else {
                matchNumbers.append(nil)
            }
        }
        for (index, rule) in plan.rules.enumerated() {
            guard let number = matchNumbers[index] else { continue }
            if let nth = rule.nth, number != nth { continue }
            if let after = rule.after, number <= after { continue }
            if let times = rule.times, counters[index].fired >= times { continue }
            var draw: Double?
            if let probability = rule.probability {
                let value = random.nextUnit()
                draw = value
                guard value < probability else { continue }
            }
            counters[index].fired += 1
            return .fault(
                FiredRule(ruleID: rule.id, ruleIndex: index, fault: rule.fault, matchNumber: number, draw: draw))
        }
        return .passThrough
    }
}

/// How often one rule matched and fired.
public struct RuleCounter: Sendable, Hashable, Codable {
    /// Requests whose `match` held.
    public var matched = 0
    /// Requests the rule faulted.
    public var fired = 0

    public init(matched: Int = 0, fired: Int = 0) {
        self.matched = matched
        self.fired = fired
    }
}

/// The planner's answer for one request.
package enum FaultDecision: Sendable, Hashable {
    /// No rule fired: the service answers normally.
    case passThrough
    /// A rule fired.
    case fault(FiredRule)

    /// The rule that fired, if any.
    package var firedRule: FiredRule? {
        if case .fault(let rule) = self { return rule }
        return nil
    }
}

/// Which rule fired on a request, and with what.
package struct FiredRule: Sendable, Hashable {
    /// The rule's id (`rule-<index>` when the plan named none).
    package var ruleID: String
    /// The rule's position in the plan.
    package var ruleIndex: Int
    /// The fault to apply.
    package var fault: Fault
    /// Which matching request of this rule this was (from 1).
    package var matchNumber: Int
    /// The random draw compared with the rule's probability, for probabilistic rules.
    package var draw: Double?

    package init(ruleID: String, ruleIndex: Int, fault: Fault, matchNumber: Int, draw: Double? = nil) {
        self.ruleID = ruleID
        self.ruleIndex = ruleIndex
        self.fault = fault
        self.matchNumber = matchNumber
        self.draw = draw
    }
}

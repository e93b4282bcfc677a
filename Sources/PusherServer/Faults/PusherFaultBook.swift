// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// The installed Pusher fault plans by app key, with each rule's counters. Decides, when a
/// connection opens, which faults it gets; installing a plan again restarts its counters, so a run
/// replays the same way.
public final class PusherFaultBook: Sendable {
    private struct Installed {
        var plan: PusherFaultPlan
        /// Per rule: connections it matched, connections it faulted.
        var matched: [Int]
        var faulted: [Int]
    }

    private let plans = Mutex<[String: Installed]>([:])

    public init() {}

    /// Installs `plan` for `appKey`, replacing any plan there (counters start at zero).
    public func install(_ plan: PusherFaultPlan, for appKey: String) {
        let count = plan.rules.count
        plans.withLock { $0[appKey] = Installed(plan: plan, matched: Array(repeating: 0, count: count), faulted: Array(repeating: 0, count: count)) }
    }

    /// Removes the plan of `appKey`; whether there was one.
    @discardableResult
    public func clear(_ appKey: String) -> Bool { plans.withLock { $0.removeValue(forKey: appKey) != nil } }

    /// Removes every plan.
    public func clearAll() { plans.withLock { $0.removeAll() } }

    /// The plan installed for `appKey`.
    public func plan(for appKey: String) -> PusherFaultPlan? { plans.withLock { $0[appKey]?.plan } }

    /// Per rule of `appKey`'s plan: how many connections it faulted so far.
    public func faultedCounts(for appKey: String) -> [Int] { plans.withLock { $0[appKey]?.faulted ?? [] } }

    /// The faults of a connection opening on `/app/appKey` with `query`; counts it for every rule
    /// whose `query` matches.
    public func faults(forConnectionOn appKey: String, query: [PusherQueryItem]) -> PusherConnectionFaults {
        plans.withLock { plans in
            guard var installed = plans[appKey] else { return PusherConnectionFaults() }
            var chosen: [PusherAppliedFault] = []
            for (index, rule) in installed.plan.rules.enumerated() {
                guard rule.query.allSatisfy({ name, value in query.contains { $0.name == name && $0.value == value } }) else { continue }
                installed.matched[index] += 1
                guard installed.matched[index] > rule.after else { continue }
                if let times = rule.times, installed.faulted[index] >= times { continue }
                installed.faulted[index] += 1
                chosen.append(PusherAppliedFault(rule: rule.id ?? "rule-\(index)", fault: rule.fault))
            }
            plans[appKey] = installed
            return PusherConnectionFaults(chosen)
        }
    }
}

// SPDX-License-Identifier: MIT

/// How many cases run at once (pure): starts at the run's `--jobs` and halves whenever cases
/// start missing their budgets, which on a healthy client means the machine is over-committed.
public struct ConcurrencyGovernor: Sendable, Hashable {
    /// The current limit (at least 1).
    public private(set) var limit: Int
    /// How many times the limit was halved.
    public private(set) var backOffs = 0

    public init(jobs: Int) {
        limit = max(1, jobs)
    }

    /// Records a finished case that ran while the limit was `startedUnderLimit`; a missed budget
    /// halves the limit (down to 1). A miss of a case started under a higher limit than the
    /// current one is not counted again: the back-off already answered that over-commitment.
    public mutating func record(missedBudget: Bool, startedUnderLimit: Int) {
        guard missedBudget, startedUnderLimit <= limit, limit > 1 else { return }
        limit = max(1, limit / 2)
        backOffs += 1
    }

    /// The default `--jobs`: four cases per core, at most 16. A case mostly waits on the wire
    /// and on its windows, so the in-process client and a driver whose processes stay warm
    /// between cases (docs/driver-protocol.md, "Reuse") keep two cores busy with four each; a
    /// driver that starts an interpreter for every case (`processPerCase`) spends a few hundred
    /// milliseconds of CPU on each start, and gets two per core.
    public static func defaultJobs(cores: Int, externalDriver: Bool, processPerCase: Bool = true) -> Int {
        let cores = max(1, cores)
        return min(16, externalDriver && processPerCase ? cores * 2 : cores * 4)
    }
}

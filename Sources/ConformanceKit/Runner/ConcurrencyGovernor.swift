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

    /// The default `--jobs`: an external process driver starts an interpreter per case, so it
    /// gets two cases per core (its cases mostly wait on the wire); the in-process client gets
    /// four per core. At most 16.
    public static func defaultJobs(cores: Int, externalDriver: Bool) -> Int {
        let cores = max(1, cores)
        return min(16, externalDriver ? cores * 2 : cores * 4)
    }
}

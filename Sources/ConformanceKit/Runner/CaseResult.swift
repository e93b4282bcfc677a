// SPDX-License-Identifier: MIT

/// How a case ended.
public enum CaseOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case pass
    /// An allowed alternative outcome, not the reference one.
    case nonStrict = "non-strict"
    case fail
    case skipped
    /// Missed its time budget while the runner was over-committed and passed on a serial retry:
    /// not a failure of the client, but not a clean pass either.
    case flaky
}

/// How a result relates to the client's expectation file.
public enum DeviationStatus: String, Sendable, Hashable, Codable {
    /// The case ended as the expectation file says.
    case expected = "expected-deviation"
    /// The file expected a deviation, but the case now passes.
    case fixed = "deviation-fixed"
    /// The case failed and the file does not list it (or lists another outcome).
    case newFailure = "new-failure"
}

/// The result of one case.
public struct CaseResult: Sendable, Hashable {
    public var id: String
    public var suite: String
    public var title: String
    public var spec: String
    public var outcome: CaseOutcome
    public var expected: [StatusCategory]
    /// Distinct categories observed, in order of first appearance (`PNCancelledCategory` omitted).
    public var observed: [StatusCategory]
    public var durationSeconds: Double
    /// Why the case did not pass, or which alternative it matched; empty for a strict pass.
    public var detail: String
    /// The last requests of the case's wire journal.
    public var wireLog: [String]
    public var deviation: DeviationStatus?
    /// Whether it failed because time ran out (its budget or the driver's start-up), the kind of
    /// failure an over-committed machine causes (see ``FlakyRetry``).
    public var missedTime: Bool
    /// The case's wire and the client's reports on one time axis, when the case got to run its steps.
    public var timeline: CaseTimeline?
    /// In a merged report, which of `RunContext.runs` the result comes from.
    public var run: Int?

    public init(id: String, suite: String, title: String, spec: String, outcome: CaseOutcome,
                expected: [StatusCategory], observed: [StatusCategory], durationSeconds: Double,
                detail: String, wireLog: [String] = [], deviation: DeviationStatus? = nil, missedTime: Bool = false) {
        self.id = id
        self.suite = suite
        self.title = title
        self.spec = spec
        self.outcome = outcome
        self.expected = expected
        self.observed = observed
        self.durationSeconds = durationSeconds
        self.detail = detail
        self.wireLog = wireLog
        self.deviation = deviation
        self.missedTime = missedTime
    }

    /// Whether this result makes the run fail (a failure the expectation file does not excuse).
    public var isUnexpectedFailure: Bool {
        outcome == .fail && deviation != .expected
    }
}

/// Totals of a run.
public struct RunSummary: Sendable, Hashable {
    public var total: Int
    public var passed: Int
    public var nonStrict: Int
    public var failed: Int
    public var skipped: Int
    /// Passed only on a serial retry after missing the budget (counted, not failing).
    public var flaky: Int
    public var durationSeconds: Double
    public var seed: UInt64

    public init(results: [CaseResult], durationSeconds: Double, seed: UInt64) {
        total = results.count
        passed = results.count { $0.outcome == .pass }
        nonStrict = results.count { $0.outcome == .nonStrict }
        failed = results.count { $0.outcome == .fail }
        skipped = results.count { $0.outcome == .skipped }
        flaky = results.count { $0.outcome == .flaky }
        self.durationSeconds = durationSeconds
        self.seed = seed
    }
}

/// A finished run: what every report is written from.
public struct RunReport: Sendable, Hashable {
    public var client: String
    public var summary: RunSummary
    /// Results in catalog order.
    public var results: [CaseResult]
    /// How many times the runner halved its parallelism because cases missed their budgets.
    public var backOffs: Int
    /// How many cases ran at once at the end of the run.
    public var finalConcurrency: Int?
    /// The catalog, shard and client version the run was (set by the CLI; `nil` in older reports).
    public var context: RunContext?

    public init(client: String, summary: RunSummary, results: [CaseResult], backOffs: Int = 0, finalConcurrency: Int? = nil) {
        self.client = client
        self.summary = summary
        self.results = results
        self.backOffs = backOffs
        self.finalConcurrency = finalConcurrency
    }

    /// 0 when nothing failed unexpectedly, 1 otherwise (`flaky` is not a failure).
    public var exitCode: Int32 { results.contains { $0.isUnexpectedFailure } ? 1 : 0 }
}

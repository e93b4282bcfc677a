// SPDX-License-Identifier: MIT

/// How a run is performed.
public struct RunOptions: Sendable {
    /// Orders the cases and seeds their plans; printed so `--seed` can replay the run.
    public var seed: UInt64
    /// How many cases run at once against the server at first (halved on budget misses).
    public var concurrency: Int
    /// How many run at once at first instead when the client is a driver that starts a process
    /// for every case (one without reuse, or `--no-driver-reuse`): each case then pays for an
    /// interpreter's start-up. `nil`: ``concurrency`` in every case.
    public var perCaseProcessConcurrency: Int?
    public var expectations: ExpectationFile?
    /// How many journal entries each result keeps.
    public var wireLogLength: Int
    /// Stretches every budget and must-happen window (1 = the reference machine).
    public var timeScale: Double
    /// Whether a case that ran out of time is retried once alone (and reported `flaky` if it then passes).
    public var retryMissedTime: Bool

    public init(seed: UInt64, concurrency: Int = 8, perCaseProcessConcurrency: Int? = nil, expectations: ExpectationFile? = nil,
                wireLogLength: Int = 8, timeScale: Double = 1, retryMissedTime: Bool = true) {
        self.seed = seed
        self.concurrency = max(1, concurrency)
        self.perCaseProcessConcurrency = perCaseProcessConcurrency.map { max(1, $0) }
        self.expectations = expectations
        self.wireLogLength = wireLogLength
        self.timeScale = max(1, timeScale.isFinite ? timeScale : 1)
        self.retryMissedTime = retryMissedTime
    }
}

/// Runs cases against a client and a server: seeded order, bounded concurrency that halves when
/// cases miss their budgets, every case isolated by its own keys and always cleaned up; a case
/// that ran out of time is retried once alone at the end (``FlakyRetry``).
public struct ConformanceRunner: Sendable {
    public let server: any HarnessServer
    public let client: any ConformanceClient
    public let options: RunOptions

    public init(server: any HarnessServer, client: any ConformanceClient, options: RunOptions) {
        self.server = server
        self.client = client
        self.options = options
    }

    /// The order cases start in for `seed` and a client with `profile` (``StartOrder``: a seeded
    /// shuffle, the longest cases first).
    public static func executionOrder(of cases: [ConformanceCase], seed: UInt64, profile: ClientProfile = .reference,
                                      expectations: ExpectationFile? = nil) -> [String] {
        let estimates = estimates(of: cases, profile: profile, expectations: expectations)
        return StartOrder.order(ids: cases.map(\.id), seed: seed) { estimates[$0] ?? .none }
    }

    static func estimates(of cases: [ConformanceCase], profile: ClientProfile, expectations: ExpectationFile?) -> [String: StartOrder.Estimate] {
        Dictionary(cases.map { testCase in
            let listed = expectations?.deviation(for: testCase.id).map { $0.outcome == .fail || $0.outcome == .nonStrict } ?? false
            return (testCase.id, StartOrder.estimate(testCase, profile: profile, listedFailure: listed))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Runs `cases`; `progress` is called after each case with (result, finished, total).
    public func run(
        _ cases: [ConformanceCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }
    ) async -> RunReport {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let client = await self.client.prepared()
        let executor = CaseExecutor(server: server, client: client, runSeed: options.seed, wireLogLength: options.wireLogLength,
                                    timeScale: options.timeScale)
        let expectations = options.expectations
        let estimates = Self.estimates(of: cases, profile: client.profile, expectations: expectations)
        return await Self.schedule(
            ids: cases.map(\.id), clientName: client.name, options: options,
            estimate: { estimates[$0] ?? .none }, processPerCase: client.startsProcessPerCase,
            listedSkip: { id in
                guard let testCase = byID[id], let listed = expectations?.deviation(for: id), listed.outcome == .skipped else { return nil }
                return CaseResult(id: testCase.id, suite: testCase.suite, title: testCase.title, spec: testCase.spec,
                                  outcome: .skipped, expected: testCase.expected, observed: [], durationSeconds: 0,
                                  detail: "skipped by expectation file: \(listed.reason)")
            },
            execute: { id in await executor.run(byID[id]!) }, progress: progress)
    }

    /// The scheduling every case family shares: seeded order with the longest cases first
    /// (``StartOrder``), bounded concurrency that halves on budget misses, expectation-file
    /// classification, one serial retry of a case that ran out of time. `ids` are in catalog
    /// order; `estimate` says how long a case takes; `processPerCase` starts at
    /// ``RunOptions/perCaseProcessConcurrency``; `execute` runs one case.
    static func schedule(
        ids: [String], clientName: String, options: RunOptions,
        estimate: (String) -> StartOrder.Estimate, processPerCase: Bool,
        listedSkip: @escaping @Sendable (String) -> CaseResult?,
        execute: @escaping @Sendable (String) async -> CaseResult,
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void
    ) async -> RunReport {
        let started = ContinuousClock.now
        let order = StartOrder.order(ids: ids, seed: options.seed, estimate: estimate)
        let expectations = options.expectations
        var results: [String: CaseResult] = [:]
        var retries: [(String, CaseResult)] = []
        var governor = ConcurrencyGovernor(jobs: processPerCase ? options.perCaseProcessConcurrency ?? options.concurrency : options.concurrency)
        let retry = options.retryMissedTime

        func report(_ result: CaseResult) {
            var result = result
            result.deviation = expectations.map { $0.classify(result) } ?? (result.outcome == .fail ? .newFailure : nil)
            if result.deviation == .expected, let reason = expectations?.deviation(for: result.id)?.reason,
               !result.detail.hasPrefix("skipped by expectation file") {
                result.detail += (result.detail.isEmpty ? "" : "\n") + "expected deviation: \(reason)"
            }
            results[result.id] = result
            progress(result, results.count, order.count)
        }

        await withTaskGroup(of: (CaseResult, Int).self) { group in
            var next = 0
            var running = 0
            func startNext() {
                guard next < order.count else { return }
                let id = order[next]
                next += 1
                running += 1
                let limit = governor.limit
                group.addTask {
                    if let skipped = listedSkip(id) { return (skipped, limit) }
                    return (await execute(id), limit)
                }
            }
            while running < governor.limit, next < order.count { startNext() }
            while let (result, limit) = await group.next() {
                running -= 1
                governor.record(missedBudget: result.missedTime, startedUnderLimit: limit)
                if retry, FlakyRetry.qualifies(result) {
                    retries.append((result.id, result))
                } else {
                    report(result)
                }
                while running < governor.limit, next < order.count { startNext() }
            }
        }
        // One after another, after every other case: nothing else competes for the machine.
        for (id, first) in retries {
            report(FlakyRetry.classify(first: first, retry: await execute(id)))
        }
        let ordered = ids.compactMap { results[$0] }
        let summary = RunSummary(results: ordered, durationSeconds: CaseExecutor.seconds(ContinuousClock.now - started), seed: options.seed)
        return RunReport(client: clientName, summary: summary, results: ordered, backOffs: governor.backOffs,
                         finalConcurrency: governor.limit)
    }
}

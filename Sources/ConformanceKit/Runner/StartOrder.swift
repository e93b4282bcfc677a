// SPDX-License-Identifier: MIT

/// The order a run starts its cases in (pure): the seeded shuffle, then the cases that take
/// longest first.
///
/// A run lasts at least as long as its last case to start plus that case's own duration, so a
/// case that waits out a long window, started last, stretches the whole run. Starting the long
/// ones first (the longest-processing-time rule) lets the short ones fill the slots around them.
/// Each case gets an ``Estimate`` from its definition, as the client's profile has adapted it;
/// cases compare by its two parts in whole seconds, and cases that compare equal keep their
/// seeded order, so a seed still replays one order and different seeds mix neighbours
/// differently.
public enum StartOrder {
    /// What a case's definition says about its duration, in milliseconds.
    public struct Estimate: Sendable, Hashable {
        /// Time the case spends whatever the client does: `wait` steps, "must not" windows, the
        /// longest fault timing of its plans, every window in which the client may legitimately
        /// stay silent (an alternative without categories), and, for a case the expectation file
        /// lists as failing or non-strict, its longest window in which something must happen.
        public var certainMilliseconds: Int
        /// Its derived budget (``CaseBudget/derive(_:)``): at most this long on a healthy machine.
        public var budgetMilliseconds: Int

        public init(certainMilliseconds: Int, budgetMilliseconds: Int) {
            self.certainMilliseconds = max(0, certainMilliseconds)
            self.budgetMilliseconds = max(0, budgetMilliseconds)
        }

        /// A case that does not run (skipped by the profile): nothing to wait for.
        public static let none = Estimate(certainMilliseconds: 0, budgetMilliseconds: 0)

        /// Whole seconds of the certain time, then of the budget.
        var key: (Int, Int) { (certainMilliseconds / 1_000, budgetMilliseconds / 1_000) }
    }

    /// `ids` in the order they start: the seeded shuffle, then stably by `estimate`, longest first.
    public static func order(ids: [String], seed: UInt64, estimate: (String) -> Estimate) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let shuffled = ids.shuffled(using: &generator)
        let keys = shuffled.map { estimate($0).key }
        return shuffled.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a] > keys[b] : a < b
        }.map { shuffled[$0] }
    }

    /// The estimate for `testCase` run by a client with `profile`; `listedFailure` when the
    /// expectation file lists it as failing or non-strict (its awaited windows run out).
    public static func estimate(_ testCase: ConformanceCase, profile: ClientProfile, listedFailure: Bool = false) -> Estimate {
        guard case .applies(let adapted) = ProfileRules.adapt(testCase, to: profile) else { return .none }
        return estimate(adapted, listedFailure: listedFailure)
    }

    /// The estimate for a case as it runs (already adapted to the client's profile).
    static func estimate(_ testCase: ConformanceCase, listedFailure: Bool) -> Estimate {
        var certain = CaseBudget.faultMilliseconds(in: testCase.plan)
        var longestAwaited = 0
        for step in testCase.steps {
            switch step {
            case .wait(let ms), .expectNoMoreMessages(let ms), .expectNoStatus(_, let ms), .expectNoObservedPresence(_, let ms):
                certain += ms
            case .setPlan(let plan):
                certain += CaseBudget.faultMilliseconds(in: plan)
            case .expectStatus(let category, let ms):
                longestAwaited = max(longestAwaited, ms)
                if mayStaySilent(about: category, in: testCase) { certain += ms }
            case .expectMessages(_, let ms), .expectMessageCount(_, let ms), .expectPresence(_, let ms),
                 .expectJournal(_, let ms), .expectAppContextEvent(_, let ms), .expectMessageAction(_, let ms),
                 .expectObservedPresence(_, let ms):
                longestAwaited = max(longestAwaited, ms)
            case .perform, .serverPublish, .serverRequest, .grant, .issueToken, .expectResult, .observerSubscribe:
                break
            }
        }
        if listedFailure { certain += longestAwaited }
        return Estimate(certainMilliseconds: certain, budgetMilliseconds: ShardPlan.expectedMilliseconds(testCase))
    }

    /// Whether `testCase` allows the client to report nothing instead of `category`, one of its
    /// expected ones (an alternative without categories: a profile whose loop restarts or retries
    /// silently): such a client never reports it, and the step waits its whole window.
    static func mayStaySilent(about category: StatusCategory, in testCase: ConformanceCase) -> Bool {
        testCase.expected.contains(category) && testCase.alternatives.contains { $0.categories.isEmpty }
    }
}

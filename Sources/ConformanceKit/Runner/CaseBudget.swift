// SPDX-License-Identifier: MIT

/// A case's time budget derived from what the case needs, and the time scale applied to a case
/// (pure). The budget covers the steps only: a driver's start-up and `configure` are outside it.
public enum CaseBudget {
    /// Added to every case: the cost of setting up, closing and one slow scheduling turn.
    public static let baseMargin: Duration = .milliseconds(1_000)
    /// Added per step that talks to the client or the server (one request and its reply).
    public static let actionMargin: Duration = .milliseconds(250)

    /// What the case needs on a healthy machine: every window its steps may wait for, the fault
    /// timings of its plans, a margin per action and a base margin. Never less than the budget
    /// the case declares (its author may know better).
    public static func derive(_ testCase: ConformanceCase) -> Duration {
        var needed: Duration = baseMargin
        for step in testCase.steps {
            switch step {
            case .wait(let ms), .expectNoMoreMessages(let ms), .expectNoStatus(_, let ms), .expectNoObservedPresence(_, let ms):
                needed += .milliseconds(ms)
            case .expectStatus(_, let ms), .expectMessages(_, let ms), .expectMessageCount(_, let ms),
                 .expectPresence(_, let ms), .expectJournal(_, let ms), .expectAppContextEvent(_, let ms),
                 .expectMessageAction(_, let ms), .expectObservedPresence(_, let ms):
                needed += .milliseconds(ms)
            case .setPlan(let plan):
                needed += actionMargin + .milliseconds(faultMilliseconds(in: plan))
            case .perform, .serverPublish, .serverRequest, .grant, .issueToken, .observerSubscribe:
                needed += actionMargin
            case .expectResult:
                break
            }
        }
        needed += .milliseconds(faultMilliseconds(in: testCase.plan))
        return max(needed, testCase.timeBudget)
    }

    /// The longest fault timing (a delay's `ms`, `afterMs`, `intervalMs`, …: any `ms` or `…Ms`
    /// number) a plan names.
    static func faultMilliseconds(in plan: JSONValue?) -> Int {
        switch plan {
        case .object(let members):
            return members.map { key, value in
                if key == "ms" || key.hasSuffix("Ms"), let ms = value.doubleValue, ms.isFinite, ms > 0 { return Int(min(ms, 600_000)) }
                return faultMilliseconds(in: value)
            }.max() ?? 0
        case .array(let items):
            return items.map { faultMilliseconds(in: $0) }.max() ?? 0
        default:
            return 0
        }
    }

    /// `testCase` for a machine `factor` times slower than the reference: its budget and every
    /// window in which something must happen are stretched. `wait` steps and "must not" windows
    /// are kept: they are the timing the case tests, as are the server's fault timings.
    ///
    /// The client's request timeouts are stretched too when they are only a budget for the
    /// server's reply (``timeoutsAreBudgets(_:)``): a client that gives up on a request the
    /// starved server has not read yet, and retries, makes the server see two requests closer
    /// than the client sent them (`reconnect.ping.interval` under 12 busy loops).
    public static func scaled(_ testCase: ConformanceCase, by factor: Double) -> ConformanceCase {
        guard factor.isFinite, factor > 1 else { return testCase }
        func stretch(_ ms: Int) -> Int { Int((Double(ms) * factor).rounded(.up)) }
        var copy = testCase
        copy.timeBudget = testCase.timeBudget * factor
        if timeoutsAreBudgets(testCase) {
            copy.client.nonSubscribeTimeoutMs = stretch(testCase.client.nonSubscribeTimeoutMs ?? ClientSessionConfiguration.defaultNonSubscribeTimeoutMs)
            copy.client.subscribeTimeoutMs = testCase.client.subscribeTimeoutMs.map(stretch)
        }
        copy.steps = testCase.steps.map { step in
            switch step {
            case .expectStatus(let category, let ms): .expectStatus(category, withinMs: stretch(ms))
            case .expectMessages(let messages, let ms): .expectMessages(messages, withinMs: stretch(ms))
            case .expectMessageCount(let count, let ms): .expectMessageCount(count, withinMs: stretch(ms))
            case .expectPresence(let presence, let ms): .expectPresence(presence, withinMs: stretch(ms))
            case .expectAppContextEvent(let event, let ms): .expectAppContextEvent(event, withinMs: stretch(ms))
            case .expectMessageAction(let event, let ms): .expectMessageAction(event, withinMs: stretch(ms))
            case .expectJournal(let expectation, let ms): .expectJournal(expectation, withinMs: stretch(ms))
            case .expectObservedPresence(let presence, let ms): .expectObservedPresence(presence, withinMs: stretch(ms))
            default: step
            }
        }
        return copy
    }

    /// Whether the case's request timeouts only bound how long the client waits for a reply that
    /// comes (pure): not when a timeout is what the case checks or races against, i.e. when it
    /// expects or tolerates `PNTimeoutCategory` (anywhere, alternatives included), makes the
    /// server hang, names a fault duration (`…Ms`), or uses a listener of its own.
    public static func timeoutsAreBudgets(_ testCase: ConformanceCase) -> Bool {
        guard testCase.listener == .shared else { return false }
        let categories = testCase.expected + testCase.tolerated + testCase.alternatives.flatMap(\.categories)
        if categories.contains(.timeout) { return false }
        var plans = [testCase.plan]
        for step in testCase.steps {
            switch step {
            case .setPlan(let plan): plans.append(plan)
            case .expectResult(let result) where result.category == .some(.some(.timeout)): return false
            case .expectStatus(.timeout, _), .expectNoStatus(.timeout, _): return false
            default: break
            }
        }
        return plans.allSatisfy { faultMilliseconds(in: $0) == 0 && !namesHang($0) }
    }

    /// Whether a plan has a fault of kind `hang` anywhere.
    static func namesHang(_ plan: JSONValue?) -> Bool {
        switch plan {
        case .object(let members):
            return members.contains { key, value in
                if key == "kind", case .string("hang") = value { return true }
                return namesHang(value)
            }
        case .array(let items):
            return items.contains { namesHang($0) }
        default:
            return false
        }
    }

    /// The budget the runner enforces: derived from the case, then stretched by `factor`.
    public static func effective(_ testCase: ConformanceCase, scale factor: Double) -> Duration {
        let derived = derive(testCase)
        return factor.isFinite && factor > 1 ? derived * factor : derived
    }
}

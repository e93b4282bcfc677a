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
            case .wait(let ms), .expectNoMoreMessages(let ms), .expectNoStatus(_, let ms):
                needed += .milliseconds(ms)
            case .expectStatus(_, let ms), .expectMessages(_, let ms), .expectMessageCount(_, let ms),
                 .expectPresence(_, let ms), .expectJournal(_, let ms):
                needed += .milliseconds(ms)
            case .setPlan(let plan):
                needed += actionMargin + .milliseconds(faultMilliseconds(in: plan))
            case .perform, .serverPublish, .serverRequest, .grant:
                needed += actionMargin
            case .expectResult:
                break
            }
        }
        needed += .milliseconds(faultMilliseconds(in: testCase.plan))
        return max(needed, testCase.timeBudget)
    }

    /// The longest fault timing (`afterMs`, `intervalMs`, `delayMs`, …: any `…Ms` number) a plan names.
    static func faultMilliseconds(in plan: JSONValue?) -> Int {
        switch plan {
        case .object(let members):
            return members.map { key, value in
                if key.hasSuffix("Ms"), let ms = value.doubleValue, ms.isFinite, ms > 0 { return Int(min(ms, 600_000)) }
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
    public static func scaled(_ testCase: ConformanceCase, by factor: Double) -> ConformanceCase {
        guard factor.isFinite, factor > 1 else { return testCase }
        func stretch(_ ms: Int) -> Int { Int((Double(ms) * factor).rounded(.up)) }
        var copy = testCase
        copy.timeBudget = testCase.timeBudget * factor
        copy.steps = testCase.steps.map { step in
            switch step {
            case .expectStatus(let category, let ms): .expectStatus(category, withinMs: stretch(ms))
            case .expectMessages(let messages, let ms): .expectMessages(messages, withinMs: stretch(ms))
            case .expectMessageCount(let count, let ms): .expectMessageCount(count, withinMs: stretch(ms))
            case .expectPresence(let presence, let ms): .expectPresence(presence, withinMs: stretch(ms))
            case .expectJournal(let expectation, let ms): .expectJournal(expectation, withinMs: stretch(ms))
            default: step
            }
        }
        return copy
    }

    /// The budget the runner enforces: derived from the case, then stretched by `factor`.
    public static func effective(_ testCase: ConformanceCase, scale factor: Double) -> Duration {
        let derived = derive(testCase)
        return factor.isFinite && factor > 1 ? derived * factor : derived
    }
}

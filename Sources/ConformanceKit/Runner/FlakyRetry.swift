// SPDX-License-Identifier: MIT

/// The serial retry of a case that missed its time budget (pure): a miss caused by the runner
/// (an over-committed machine) disappears when the case runs alone; one caused by the client does not.
public enum FlakyRetry {
    /// Whether `result` is worth a serial retry: it failed because time ran out (its budget, or
    /// the driver's start-up), not because of what the client did.
    public static func qualifies(_ result: CaseResult) -> Bool {
        result.outcome == .fail && result.missedTime
    }

    /// Whether the client reported `PNTimeoutCategory` in a case that neither expects nor tolerates
    /// one. On an over-committed machine a reply can come after the client's timeout (a case that
    /// races a fault delay against a timeout keeps both unscaled), so such a failure counts as time
    /// that ran out and is retried alone; a client whose timeout fires early fails the retry too.
    public static func timedOutUnexpectedly(_ testCase: ConformanceCase, observed: [StatusCategory]) -> Bool {
        guard observed.contains(.timeout) else { return false }
        let allowed = testCase.expected + testCase.tolerated + testCase.alternatives.flatMap(\.categories)
        return !allowed.contains(.timeout)
    }

    /// The result to report: `flaky` when the retry passed (or ended non-strict), carrying the
    /// first attempt's failure; otherwise the retry's failure, noting it failed twice.
    public static func classify(first: CaseResult, retry: CaseResult) -> CaseResult {
        var result = retry
        switch retry.outcome {
        case .pass, .nonStrict, .flaky:
            result.outcome = .flaky
            let retryNote = retry.detail.isEmpty ? "" : "\nretry: \(retry.detail)"
            result.detail = "passed on a serial retry; first attempt: \(first.detail)\(retryNote)"
            result.missedTime = false
        case .fail:
            result.detail += "\n(failed again on a serial retry; first attempt: \(first.detail))"
        case .skipped:
            result = first
        }
        result.durationSeconds = first.durationSeconds + retry.durationSeconds
        return result
    }
}

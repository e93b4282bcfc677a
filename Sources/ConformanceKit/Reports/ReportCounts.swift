// SPDX-License-Identifier: MIT

/// How a run relates to the client's expectation file, as every report states it.
public struct ReportCounts: Sendable, Hashable {
    /// Failures the expectation file does not excuse: these fail the run.
    public var newFailures: Int
    /// Cases that ended as the expectation file says (a listed failure, non-strict or skip).
    public var expectedDeviations: Int
    /// Listed deviations that now pass: to be removed from the file.
    public var fixed: Int

    public init(_ results: [CaseResult]) {
        newFailures = results.count(where: \.isUnexpectedFailure)
        expectedDeviations = results.count { $0.deviation == .expected }
        fixed = results.count { $0.deviation == .fixed }
    }

    /// "PASS" or "FAIL" with the reason, for banners and the console's last line.
    public var verdict: String {
        newFailures == 0 ? "PASS: no new failures" : "FAIL: \(newFailures) new failure\(newFailures == 1 ? "" : "s")"
    }
}

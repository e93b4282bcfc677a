// SPDX-License-Identifier: MIT
import Foundation
import Synchronization

/// Progress while cases run and the summary at the end, for people and CI logs.
///
/// On a terminal the progress is one bar rewritten with `\r`, with the running failure count;
/// elsewhere (CI, pipes) each finished case is a plain line. Values longer than
/// ``valueLimit`` characters are cut (the JSON report has them in full).
public final class ConsoleReporter: Sendable {
    /// Characters of one value (a detail line, a request line) printed before it is cut.
    public static let valueLimit = 200
    private let interactive: Bool
    let write: @Sendable (String) -> Void
    private let lastLength = Mutex(0)
    private let failures = Mutex(0)

    /// - Parameters:
    ///   - interactive: draw a bar (defaults to "stdout is a terminal and `CI` is unset").
    ///   - write: where text goes (defaults to stdout, unbuffered).
    public init(interactive: Bool? = nil, write: (@Sendable (String) -> Void)? = nil) {
        self.interactive = interactive ?? (isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil)
        self.write = write ?? { text in FileHandle.standardOutput.write(Data(text.utf8)) }
    }

    public func start(total: Int, seed: UInt64, client: String) {
        write("Running \(total) case(s) against \(client), seed \(seed) (replay with --seed \(seed))\n")
    }

    /// One header line on how the run is paced (time scale, parallel cases, driver start-up limit).
    public func pacing(_ line: String) {
        write(line + "\n")
    }

    /// Called after each case.
    public func progress(_ result: CaseResult, finished: Int, total: Int) {
        let failed = failures.withLock { count in
            if result.outcome == .fail { count += 1 }
            return count
        }
        if interactive {
            let width = 30
            let filled = total == 0 ? width : finished * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line = "[\(bar)] \(finished)/\(total) \(failed) failed \(Self.cut(result.id, limit: 60))"
            let padding = lastLength.withLock { last in
                defer { last = line.count }
                return max(0, last - line.count)
            }
            write("\r" + line + String(repeating: " ", count: padding) + (finished == total ? "\n" : ""))
        } else {
            write("[\(finished)/\(total)] \(Self.label(result)) \(result.id) (\(String(format: "%.2f", result.durationSeconds)) s)\n")
        }
    }

    /// The summary grouped by suite, with every failure's categories, detail and wire log.
    public func summary(_ report: RunReport) {
        var text = "\n"
        for (suite, results) in JUnitReport.grouped(report.results) {
            let counts = [CaseOutcome.pass, .nonStrict, .fail, .skipped, .flaky].map { outcome in results.count { $0.outcome == outcome } }
            text += "\(suite): \(counts[0]) passed, \(counts[1]) non-strict, \(counts[2]) failed, \(counts[3]) skipped"
            text += (counts[4] > 0 ? ", \(counts[4]) flaky" : "") + "\n"
            for result in results where result.outcome == .fail || result.outcome == .flaky || result.deviation == .fixed {
                text += "  \(Self.label(result)) \(result.id) — \(Self.cut(result.title)) (\(result.spec))\n"
                text += "      expected: \(Self.cut(Self.list(result.expected)))\n      observed: \(Self.cut(Self.list(result.observed)))\n"
                for line in result.detail.split(separator: "\n") { text += "      \(Self.cut(String(line)))\n" }
                if result.outcome == .fail && !result.wireLog.isEmpty {
                    text += "      last requests:\n"
                    for line in result.wireLog { text += "        \(Self.cut(line))\n" }
                }
            }
        }
        let s = report.summary
        text += "\n\(s.total) cases: \(s.passed) passed, \(s.nonStrict) non-strict, \(s.failed) failed, \(s.skipped) skipped"
        if s.flaky > 0 { text += ", \(s.flaky) flaky" }
        text += " in \(String(format: "%.2f", s.durationSeconds)) s (seed \(s.seed))\n"
        let counts = ReportCounts(report.results)
        if counts.newFailures > 0 { text += "\(counts.newFailures) new failure(s)\n" }
        if counts.expectedDeviations > 0 { text += "\(counts.expectedDeviations) expected deviation(s)\n" }
        if counts.fixed > 0 { text += "\(counts.fixed) expected deviation(s) fixed: remove them from the expectation file\n" }
        if s.flaky > 0 { text += "\(s.flaky) flaky case(s): missed the budget under load, passed alone (not failing)\n" }
        if report.backOffs > 0, let final = report.finalConcurrency {
            text += "cases missed their budgets: parallelism halved \(report.backOffs) time(s), down to \(final)\n"
        }
        text += counts.verdict + "\n"
        write(text)
    }

    /// The text, or its first `limit` characters and a pointer to the JSON report.
    public static func cut(_ text: String, limit: Int = valueLimit) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (full value in the JSON report)"
    }

    static func label(_ result: CaseResult) -> String {
        switch (result.outcome, result.deviation) {
        case (.fail, .expected?): "FAIL (expected deviation)"
        case (.fail, _): "FAIL (new failure)"
        case (.pass, .fixed?): "PASS (deviation fixed)"
        case (.pass, _): "PASS"
        case (.nonStrict, _): "NON-STRICT"
        case (.skipped, _): "SKIP"
        case (.flaky, _): "FLAKY (passed on a serial retry)"
        }
    }

    private static func list(_ categories: [StatusCategory]) -> String {
        categories.isEmpty ? "(none)" : categories.map(\.rawValue).joined(separator: ", ")
    }
}

// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation

/// The `--json` report (schema: docs/report-schema.json).
public enum JSONReport {
    /// The version of the report's layout; raised when a field changes meaning or goes away.
    public static let schemaVersion = 4

    /// The report as a JSON value: `{"schemaVersion": 4, "summary": {...}, "run": {...}, "cases": [...]}`.
    public static func value(_ report: RunReport) -> JSONValue {
        let counts = ReportCounts(report.results)
        let summary: JSONValue = [
            "total": .int(report.summary.total),
            "passed": .int(report.summary.passed),
            "nonStrict": .int(report.summary.nonStrict),
            "failed": .int(report.summary.failed),
            "skipped": .int(report.summary.skipped),
            "flaky": .int(report.summary.flaky),
            "newFailures": .int(counts.newFailures),
            "expectedDeviations": .int(counts.expectedDeviations),
            "fixed": .int(counts.fixed),
            "durationSeconds": .double(rounded(report.summary.durationSeconds)),
            // A string: a 64-bit seed does not fit a JSON number exactly in every reader.
            "seed": .string(String(report.summary.seed)),
            "client": .string(report.client),
        ]
        let cases: [JSONValue] = report.results.map { result in
            var members: [String: JSONValue] = [
                "id": .string(result.id),
                "suite": .string(result.suite),
                "title": .string(result.title),
                "spec": .string(result.spec),
                "outcome": .string(result.outcome.rawValue),
                "expected": .array(result.expected.map { .string($0.rawValue) }),
                "observed": .array(result.observed.map { .string($0.rawValue) }),
                "durationSeconds": .double(rounded(result.durationSeconds)),
                "detail": .string(result.detail),
                "wireLog": .array(result.wireLog.map { .string($0) }),
            ]
            if let deviation = result.deviation { members["deviation"] = .string(deviation.rawValue) }
            if let timeline = result.timeline { members["timeline"] = timelineValue(timeline) }
            if let run = result.run { members["run"] = .int(run) }
            return .object(JSONObject(members))
        }
        return .object(JSONObject([("schemaVersion", .int(schemaVersion)), ("summary", summary)] + contextMembers(report.context)
            + [("cases", .array(cases))]))
    }

    /// Pretty-printed JSON text with sorted keys.
    public static func encode(_ report: RunReport) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value(report))) ?? Data("{}".utf8)
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1_000).rounded() / 1_000 }
}

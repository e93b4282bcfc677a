// SPDX-License-Identifier: MIT
import HarnessJSON

/// Why a report cannot be read or joined; one line, for `merge`'s `error: …`.
public struct ReportMergeError: Error, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Reads a `--json` report (schema version 4) back into a ``RunReport`` (pure).
public enum ReportDecoding {
    /// Decodes `bytes`, read from `source` (named in errors).
    public static func decode(_ bytes: some Collection<UInt8>, source: String) throws(ReportMergeError) -> RunReport {
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch { throw ReportMergeError("\(source) is not a JSON report: \(error)") }
        guard let version = root["schemaVersion"]?.intValue else {
            throw ReportMergeError("\(source) is not a pubnub-harness JSON report (no schemaVersion)")
        }
        guard version == JSONReport.schemaVersion else {
            throw ReportMergeError("\(source) has report schema version \(version); this pubnub-harness reads version \(JSONReport.schemaVersion)")
        }
        guard let summary = root["summary"], let caseList = root["cases"]?.arrayValue else {
            throw ReportMergeError("\(source): no summary or cases")
        }
        guard let run = root["run"], let family = run["family"]?.stringValue, let catalog = run["catalog"]?.stringValue else {
            throw ReportMergeError("\(source) does not name its catalog (run.family, run.catalog)")
        }
        let shard: ShardSpec?
        if let text = run["shard"]?.stringValue {
            guard let parsed = ShardSpec.parse(text) else { throw ReportMergeError("\(source): invalid shard \"\(text)\"") }
            shard = parsed
        } else {
            shard = nil
        }
        var context = RunContext(family: family, catalog: catalog, catalogSize: run["catalogSize"]?.intValue ?? 0, shard: shard,
                                 clientVersion: run["clientVersion"]?.stringValue,
                                 harnessVersion: run["harnessVersion"]?.stringValue ?? "")
        context.runs = try (root["runs"]?.arrayValue ?? []).map { value throws(ReportMergeError) in
            try record(value, source: source)
        }
        var results: [CaseResult] = []
        for (index, value) in caseList.enumerated() {
            results.append(try result(value, source: "\(source) case \(index + 1)"))
        }
        guard let seed = summary["seed"]?.stringValue.flatMap(UInt64.init) else { throw ReportMergeError("\(source): summary.seed is not a number") }
        let runSummary = RunSummary(results: results, durationSeconds: summary["durationSeconds"]?.doubleValue ?? 0, seed: seed)
        var report = RunReport(client: summary["client"]?.stringValue ?? "unknown", summary: runSummary, results: results)
        report.context = context
        return report
    }

    static func record(_ value: JSONValue, source: String) throws(ReportMergeError) -> RunRecord {
        guard let client = value["client"]?.stringValue, let seed = value["seed"]?.stringValue.flatMap(UInt64.init) else {
            throw ReportMergeError("\(source): a runs entry lacks client or seed")
        }
        return RunRecord(client: client, clientVersion: value["clientVersion"]?.stringValue,
                         shard: value["shard"]?.stringValue.flatMap(ShardSpec.parse), seed: seed,
                         durationSeconds: value["durationSeconds"]?.doubleValue ?? 0, cases: value["cases"]?.intValue ?? 0,
                         source: value["source"]?.stringValue ?? source)
    }

    static func result(_ value: JSONValue, source: String) throws(ReportMergeError) -> CaseResult {
        guard let id = value["id"]?.stringValue, let outcomeText = value["outcome"]?.stringValue,
              let outcome = CaseOutcome(rawValue: outcomeText) else {
            throw ReportMergeError("\(source): no id or a bad outcome")
        }
        func categories(_ name: String) -> [StatusCategory] {
            (value[name]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(StatusCategory.init(rawValue:)) }
        }
        var result = CaseResult(
            id: id, suite: value["suite"]?.stringValue ?? String(id.split(separator: ".").first ?? ""),
            title: value["title"]?.stringValue ?? "", spec: value["spec"]?.stringValue ?? "", outcome: outcome,
            expected: categories("expected"), observed: categories("observed"),
            durationSeconds: value["durationSeconds"]?.doubleValue ?? 0, detail: value["detail"]?.stringValue ?? "",
            wireLog: (value["wireLog"]?.arrayValue ?? []).compactMap(\.stringValue),
            deviation: value["deviation"]?.stringValue.flatMap(DeviationStatus.init(rawValue:)))
        result.run = value["run"]?.intValue
        if let timeline = value["timeline"] { result.timeline = Self.timeline(timeline) }
        return result
    }

    static func timeline(_ value: JSONValue) -> CaseTimeline {
        let items: [TimelineItem] = (value["items"]?.arrayValue ?? []).compactMap { item in
            guard let kind = item["kind"]?.stringValue.flatMap(TimelineItem.Kind.init(rawValue:)) else { return nil }
            return TimelineItem(kind: kind, atMs: item["atMs"]?.doubleValue ?? 0, label: item["label"]?.stringValue ?? "",
                                full: item["full"]?.stringValue ?? "", connection: item["connection"]?.int64Value.map { UInt64($0) },
                                sequence: item["sequence"]?.int64Value.map { UInt64($0) }, failing: item["failing"]?.boolValue ?? false)
        }
        return CaseTimeline(items: items, journalRequests: value["journalRequests"]?.intValue ?? 0,
                            journalFaults: value["journalFaults"]?.intValue ?? 0, failingStep: value["failingStep"]?.intValue,
                            origin: value["origin"]?.doubleValue ?? 0)
    }
}

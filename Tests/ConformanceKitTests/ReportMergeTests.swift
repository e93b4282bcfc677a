// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// `pubnub-harness merge`: shards join into the whole run, matrices keep their columns, and
/// reports that cannot be joined are refused with one line.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ReportMergeTests {
    static let catalog = "pubnub:00000000000000aa"

    static func result(_ id: String, _ outcome: CaseOutcome) -> CaseResult {
        CaseResult(id: id, suite: String(id.split(separator: ".")[0]), title: id, spec: "§1", outcome: outcome,
                   expected: [.acknowledgment], observed: outcome == .pass ? [.acknowledgment] : [], durationSeconds: 0.5,
                   detail: outcome == .fail ? "step 1: failed" : "", deviation: outcome == .fail ? .newFailure : nil)
    }

    static func report(_ results: [CaseResult], client: String = "built-in", version: String? = nil, shard: ShardSpec? = nil,
                       seed: UInt64 = 1, catalog: String = catalog) -> RunReport {
        var report = RunReport(client: client, summary: RunSummary(results: results, durationSeconds: 1, seed: seed), results: results)
        report.context = RunContext(family: "pubnub", catalog: catalog, catalogSize: 4, shard: shard, clientVersion: version,
                                    harnessVersion: "0.0.0")
        return report
    }

    static let whole = report([result("a.x.one", .pass), result("a.x.two", .fail), result("b.x.three", .skipped), result("b.x.four", .pass)])
    static let order = ["a.x.one", "a.x.two", "b.x.three", "b.x.four"]

    /// Round trip through the JSON text, as `merge` reads files.
    static func reread(_ report: RunReport, _ name: String) throws -> ReportMerge.Input {
        ReportMerge.Input(source: name, report: try ReportDecoding.decode(Array(JSONReport.encode(report)), source: name))
    }

    @Test func shardsMergeIntoTheWholeRun() throws {
        let one = Self.report([Self.result("a.x.two", .fail), Self.result("b.x.four", .pass)], shard: ShardSpec(index: 1, count: 2), seed: 7)
        let two = Self.report([Self.result("a.x.one", .pass), Self.result("b.x.three", .skipped)], shard: ShardSpec(index: 2, count: 2), seed: 8)
        let merged = try ReportMerge.merge([try Self.reread(one, "s1.json"), try Self.reread(two, "s2.json")], order: Self.order)
        #expect(merged.results.map(\.id) == Self.order)
        #expect(merged.results.map(\.run) == [1, 0, 1, 0])
        #expect(merged.context?.runs.map(\.shard) == [ShardSpec(index: 1, count: 2), ShardSpec(index: 2, count: 2)])
        #expect(merged.context?.runs.map(\.seed) == [7, 8])
        #expect(merged.context?.runs.map(\.source) == ["s1.json", "s2.json"])
        #expect(merged.summary.total == 4 && merged.summary.failed == 1 && merged.summary.skipped == 1)
        #expect(merged.exitCode == 1)
        #expect(ReportMerge.outcomeDifferences(merged, reference: Self.whole).isEmpty)
        #expect(ReportMerge.columns(merged) == ["built-in"])
        // A merged report reads back and merges again, runs kept.
        let again = try ReportMerge.merge([try Self.reread(merged, "m.json")], order: Self.order)
        #expect(again.context?.runs == merged.context?.runs)
        #expect(again.results.map(\.id) == merged.results.map(\.id) && again.results.map(\.run) == merged.results.map(\.run))
    }

    @Test func outcomeDifferencesNameTheCases() {
        var other = Self.whole
        other.results[1].outcome = .pass
        other.results[3].outcome = .flaky  // counts as pass
        other.results.removeLast(2)
        other.results.append(Self.result("c.x.five", .pass))
        other.results.append({ var r = Self.result("b.x.four", .flaky); r.detail = "retried"; return r }())
        #expect(ReportMerge.outcomeDifferences(other, reference: Self.whole) == [
            "a.x.two: merged pass, reference fail", "b.x.three: only in the reference report", "c.x.five: only in the merged report",
        ])
    }

    @Test func matrixColumnsByClientAndVersion() throws {
        let old = Self.report([Self.result("a.x.one", .fail), Self.result("a.x.two", .pass)], client: "python", version: "9.1.0")
        let new = Self.report([Self.result("a.x.one", .pass)], client: "python", version: "10.8.0")
        let merged = try ReportMerge.merge([ReportMerge.Input(source: "old.json", report: old), ReportMerge.Input(source: "new.json", report: new)],
                                           order: Self.order)
        #expect(ReportMerge.columns(merged) == ["python 9.1.0", "python 10.8.0"])
        #expect(merged.client == "python 9.1.0, python 10.8.0")
        #expect(merged.context?.clientVersion == nil)
        let html = MatrixHTML.encode(merged)
        #expect(html.contains(##"<td class="m-fail" data-outcome="fail"><a href="#case-1-a.x.one">fail</a></td><td class="m-pass" data-outcome="pass"><a href="#case-2-a.x.one">pass</a></td>"##))
        #expect(html.contains(#"id="case-1-a.x.one""#) && html.contains(#"id="case-2-a.x.one""#))
        #expect(html.contains(#"<tr data-case="a.x.two"><th><code>a.x.two</code></th><td class="m-pass""#) && html.contains(#"<td class="m-none">—</td>"#))
        #expect(!html.contains("src=") && !html.contains("<link"))
    }

    @Test func refusals() throws {
        let a = ReportMerge.Input(source: "a.json", report: Self.whole)
        let otherCatalog = ReportMerge.Input(source: "b.json", report: Self.report([], catalog: "pubnub:00000000000000bb"))
        #expect(throws: ReportMergeError("b.json ran catalog pubnub:00000000000000bb, a.json ran pubnub:00000000000000aa: not the same catalog")) {
            try ReportMerge.merge([a, otherCatalog])
        }
        #expect(throws: ReportMergeError("case a.x.one of built-in is in both a.json and c.json")) {
            try ReportMerge.merge([a, ReportMerge.Input(source: "c.json", report: Self.report([Self.result("a.x.one", .pass)]))])
        }
        var bare = Self.whole
        bare.context = nil
        #expect(throws: ReportMergeError("d.json does not name its catalog")) {
            try ReportMerge.merge([ReportMerge.Input(source: "d.json", report: bare)])
        }
        #expect(throws: ReportMergeError("no reports to merge")) { try ReportMerge.merge([]) }
    }

    @Test func decodingRefusesOtherSchemasAndNonReports() throws {
        var text = String(decoding: JSONReport.encode(Self.whole), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"schemaVersion\" : 4", with: "\"schemaVersion\" : 3")
        #expect(throws: ReportMergeError("old.json has report schema version 3; this pubnub-harness reads version 4")) {
            try ReportDecoding.decode(Array(text.utf8), source: "old.json")
        }
        #expect(throws: ReportMergeError("x.json is not a pubnub-harness JSON report (no schemaVersion)")) {
            try ReportDecoding.decode(Array(#"{"a":1}"#.utf8), source: "x.json")
        }
        #expect(throws: ReportMergeError.self) { try ReportDecoding.decode(Array("not json".utf8), source: "y.json") }
        var bare = Self.whole
        bare.context = nil
        #expect(throws: ReportMergeError("z.json does not name its catalog (run.family, run.catalog)")) {
            try ReportDecoding.decode(Array(JSONReport.encode(bare)), source: "z.json")
        }
    }

    @Test func decodingKeepsWhatReportsShow() throws {
        var report = Self.whole
        report.results[1].timeline = TimelineModelTests.failedTimeline
        report.results[1].wireLog = ["GET /time/0"]
        report.context?.shard = ShardSpec(index: 3, count: 4)
        let back = try ReportDecoding.decode(Array(JSONReport.encode(report)), source: "r.json")
        #expect(back.results.map(\.id) == report.results.map(\.id))
        #expect(back.results.map(\.outcome) == report.results.map(\.outcome))
        #expect(back.results.map(\.deviation) == report.results.map(\.deviation))
        #expect(back.results[1].wireLog == ["GET /time/0"])
        #expect(back.results[1].timeline?.items.map(\.label) == report.results[1].timeline?.items.map(\.label))
        #expect(back.results[1].timeline?.items.map(\.kind) == report.results[1].timeline?.items.map(\.kind))
        #expect(back.results[1].timeline?.journalFaults == 2)
        #expect(back.context?.shard == ShardSpec(index: 3, count: 4))
        #expect(back.summary.seed == 1 && back.client == "built-in")
        #expect(JUnitReport.encode(back).contains(#"<properties><property name="client" value="built-in"/><property name="shard" value="3/4"/><property name="seed" value="1"/>"#))
        #expect(HTMLReport.encode(back).contains(#"shard <b class="shard">3/4</b>"#))
    }

    @Test func catalogFingerprintIgnoresOrderAndNamesTheFamily() {
        let ids = ConformanceCatalog.all().map(\.id)
        #expect(CatalogIdentity.fingerprint(family: "pubnub", ids: ids) == CatalogIdentity.fingerprint(family: "pubnub", ids: ids.reversed()))
        #expect(CatalogIdentity.fingerprint(family: "pubnub", ids: ids) != CatalogIdentity.fingerprint(family: "pubnub", ids: Array(ids.dropLast())))
        #expect(CatalogIdentity.fingerprint(family: "pusher", ids: []).wholeMatch(of: /pusher:[0-9a-f]{16}/) != nil)
    }
}

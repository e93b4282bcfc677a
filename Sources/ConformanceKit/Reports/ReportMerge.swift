// SPDX-License-Identifier: MIT

/// Joins the JSON reports of several runs, shards of one client or columns of a matrix (pure).
///
/// Runs are grouped into columns by client and client version; a column's runs (its shards)
/// together hold each case at most once. Every input must come from the same family and catalog
/// (``CatalogIdentity``); reports of another schema version are refused when they are read
/// (``ReportDecoding``). A merged report can be merged again: its runs are kept.
public enum ReportMerge {
    /// One report to join and the file it came from.
    public struct Input: Sendable {
        public var source: String
        public var report: RunReport

        public init(source: String, report: RunReport) {
            self.source = source
            self.report = report
        }
    }

    /// The merged report: `context.runs` lists every run, each result names its run; results are
    /// grouped by column (in order of first appearance), each column in `order` (catalog order;
    /// ids not in it after, sorted).
    public static func merge(_ inputs: [Input], order: [String] = []) throws(ReportMergeError) -> RunReport {
        guard let first = inputs.first else { throw ReportMergeError("no reports to merge") }
        guard let base = first.report.context else { throw ReportMergeError("\(first.source) does not name its catalog") }
        var runs: [RunRecord] = []
        var results: [CaseResult] = []
        for input in inputs {
            guard let context = input.report.context else { throw ReportMergeError("\(input.source) does not name its catalog") }
            guard context.family == base.family, context.catalog == base.catalog else {
                throw ReportMergeError("\(input.source) ran catalog \(context.catalog), \(first.source) ran \(base.catalog): not the same catalog")
            }
            let offset = runs.count
            if context.runs.isEmpty {
                runs.append(RunRecord(client: input.report.client, clientVersion: context.clientVersion, shard: context.shard,
                                      seed: input.report.summary.seed, durationSeconds: input.report.summary.durationSeconds,
                                      cases: input.report.results.count, source: input.source))
                results += input.report.results.map { result in
                    var result = result
                    result.run = offset
                    return result
                }
            } else {
                runs += context.runs
                for result in input.report.results {
                    guard let run = result.run, context.runs.indices.contains(run) else {
                        throw ReportMergeError("\(input.source): case \(result.id) names no run of the report")
                    }
                    var result = result
                    result.run = offset + run
                    results.append(result)
                }
            }
        }
        let columns = uniqueColumns(runs)
        var seen: [String: Int] = [:]
        for result in results {
            let run = runs[result.run!]
            let key = run.column + "\u{0}" + result.id
            if let earlier = seen[key] {
                throw ReportMergeError("case \(result.id) of \(run.column) is in both \(runs[earlier].source) and \(run.source)")
            }
            seen[key] = result.run!
        }
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let columnIndex = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = results.sorted { lhs, rhs in
            let left = columnIndex[runs[lhs.run!].column]!, right = columnIndex[runs[rhs.run!].column]!
            if left != right { return left < right }
            switch (position[lhs.id], position[rhs.id]) {
            case let (l?, r?): return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return lhs.id < rhs.id
            }
        }
        let duration = runs.reduce(0) { $0 + $1.durationSeconds }
        let summary = RunSummary(results: sorted, durationSeconds: duration, seed: runs[0].seed)
        var report = RunReport(client: columns.joined(separator: ", "), summary: summary, results: sorted)
        let versions = Set(runs.map(\.clientVersion))
        report.context = RunContext(family: base.family, catalog: base.catalog, catalogSize: base.catalogSize, shard: nil,
                                    clientVersion: versions.count == 1 ? versions.first! : nil, harnessVersion: base.harnessVersion)
        report.context?.runs = runs
        return report
    }

    /// The columns of a merged report (client and version), in order of first appearance.
    public static func columns(_ report: RunReport) -> [String] {
        uniqueColumns(report.context?.runs ?? [])
    }

    /// The column `result` belongs to in `report` (its client when the report is no merge).
    public static func column(of result: CaseResult, in report: RunReport) -> String {
        guard let runs = report.context?.runs, let run = result.run, runs.indices.contains(run) else {
            return report.client + (report.context?.clientVersion.map { " \($0)" } ?? "")
        }
        return runs[run].column
    }

    /// Cases whose outcome differs between `merged` and `reference` (one line each), and cases
    /// only one of them has. `flaky` counts as `pass` (it passed, on a retry).
    public static func outcomeDifferences(_ merged: RunReport, reference: RunReport) -> [String] {
        func outcomes(_ report: RunReport) -> [String: CaseOutcome] {
            Dictionary(report.results.map { ($0.id, $0.outcome == .flaky ? .pass : $0.outcome) }, uniquingKeysWith: { first, _ in first })
        }
        let left = outcomes(merged), right = outcomes(reference)
        var lines: [String] = []
        for id in Set(left.keys).union(right.keys).sorted() {
            switch (left[id], right[id]) {
            case let (l?, r?) where l != r: lines.append("\(id): merged \(l.rawValue), reference \(r.rawValue)")
            case (.some, nil): lines.append("\(id): only in the merged report")
            case (nil, .some): lines.append("\(id): only in the reference report")
            default: break
            }
        }
        return lines
    }

    static func uniqueColumns(_ runs: [RunRecord]) -> [String] {
        var seen = Set<String>()
        return runs.map(\.column).filter { seen.insert($0).inserted }
    }
}

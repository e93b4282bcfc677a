// SPDX-License-Identifier: MIT
import ArgumentParser
import ConformanceKit
import Foundation

/// `pubnub-harness merge`: joins the JSON reports of shards or of several clients into one JSON,
/// JUnit and HTML report (docs/ci.md).
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the JSON reports of shards (run --shard) or of several clients/versions into one report.",
        discussion: """
        Runs are grouped by client and --client-version; each group (a column) holds every case at most once. \
        Reports of another catalog or schema version are refused. --html writes the usual report for one \
        column and the matrix (rows = cases, columns = clients/versions) for several. \
        Exit status: 0 when no case failed unexpectedly, 1 when one did or --compare found a difference, \
        2 for a usage error or reports that cannot be joined.
        """
    )

    @Argument(help: "The JSON reports to join (run --json, or earlier merges).")
    var reports: [String] = []
    @Option(help: "Write the merged JSON report here.")
    var json: String?
    @Option(help: "Write the merged JUnit XML report here.")
    var junit: String?
    @Option(help: "Write the merged HTML report (the matrix for several clients) here.")
    var html: String?
    @Option(help: "Compare each case's outcome with this JSON report (e.g. the same catalog in one run); exit 1 on a difference.")
    var compare: String?

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("name at least one JSON report to merge") }
        guard json != nil || junit != nil || html != nil || compare != nil else {
            throw ValidationError("name an output (--json, --junit, --html) or --compare")
        }
    }

    func run() async throws {
        let inputs = try reports.map { path throws(UsageError) in
            ReportMerge.Input(source: path, report: try Self.load(path))
        }
        let merged: RunReport
        do {
            merged = try ReportMerge.merge(inputs, order: Self.catalogOrder(family: inputs[0].report.context?.family))
        } catch {
            throw UsageError("\(error)")
        }
        // Checked after the inputs are joined: a refused merge leaves no file behind.
        for path in [json, junit, html].compactMap({ $0 }) {
            do { try ReportFiles.prepare(path) } catch { throw UsageError("\(error)") }
        }
        let columns = ReportMerge.columns(merged)
        do {
            if let json { try ReportFiles.write(JSONReport.encode(merged), to: json) }
            if let junit { try ReportFiles.write(Data(JUnitReport.encode(Self.junitView(merged, columns: columns)).utf8), to: junit) }
            if let html {
                let page = columns.count > 1 ? MatrixHTML.encode(merged) : HTMLReport.encode(merged)
                try ReportFiles.write(Data(page.utf8), to: html)
            }
        } catch {
            throw CLIFailure("\(error)")
        }
        let counts = ReportCounts(merged.results)
        say("merged \(reports.count) report(s), \(merged.context?.runs.count ?? 0) run(s), \(columns.count) column(s): "
            + "\(merged.results.count) case result(s); \(counts.verdict)")
        if let compare {
            let reference = try Self.load(compare)
            let differences = ReportMerge.outcomeDifferences(merged, reference: reference)
            if differences.isEmpty {
                say("same outcome as \(compare) for all \(reference.results.count) case(s)")
            } else {
                for line in differences { say("differs: \(line)") }
                throw CLIFailure("\(differences.count) case(s) differ from \(compare)")
            }
        }
        if merged.exitCode != 0 { throw ExitCode(merged.exitCode) }
    }

    static func load(_ path: String) throws(UsageError) -> RunReport {
        let data = try readInput(path, what: "report")
        do { return try ReportDecoding.decode(Array(data), source: path) } catch { throw UsageError("\(error)") }
    }

    /// The built-in catalog's order for `family` (merged cases follow it).
    static func catalogOrder(family: String?) -> [String] {
        family == "pusher" ? PusherCatalog.all().map(\.id) : ((try? CatalogSource.load(vectors: nil))?.cases ?? []).map(\.id)
    }

    /// For several columns, JUnit suites are named `column/suite` so CI views keep them apart.
    static func junitView(_ report: RunReport, columns: [String]) -> RunReport {
        guard columns.count > 1 else { return report }
        var view = report
        view.results = report.results.map { result in
            var result = result
            result.suite = ReportMerge.column(of: result, in: report) + "/" + result.suite
            return result
        }
        return view
    }
}

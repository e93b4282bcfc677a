// SPDX-License-Identifier: MIT
import Foundation

/// The HTML of a merged report over several clients or versions (`merge --html` with more than
/// one column): a suite table (cells `passed / non-strict / failed / skipped`), the case matrix
/// (rows = cases, columns = clients/versions, cells = outcome linking to the case), then each
/// column's cases with their detail and timeline. One self-contained page.
public enum MatrixHTML {
    public static func encode(_ report: RunReport) -> String {
        let columns = ReportMerge.columns(report)
        var byColumn: [String: [String: CaseResult]] = [:]
        var ids: [String] = []
        var seenIDs = Set<String>()
        for result in report.results {
            byColumn[ReportMerge.column(of: result, in: report), default: [:]][result.id] = result
            if seenIDs.insert(result.id).inserted { ids.append(result.id) }
        }
        let suites = JUnitReport.grouped(report.results).map(\.0)
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pubnub-harness matrix</title>
        <style>\(HTMLReport.style)\(TimelineHTML.style)\(style)</style></head><body>
        <h1>Conformance matrix — \(columns.count) client(s)</h1>
        <p>\(report.results.count) results from \(report.context?.runs.count ?? 0) run(s) · \(ids.count) case(s)</p>
        \(RunContextHTML.header(report.context))
        <h2>Suites</h2><p><small>passed / non-strict / failed / skipped</small></p>
        <table class="matrix"><tr><th>suite</th>\(columns.map { "<th>\(HTMLReport.escape($0))</th>" }.joined())</tr>

        """
        for suite in suites {
            html += "<tr><th>\(HTMLReport.escape(suite))</th>"
            for column in columns {
                let results = (byColumn[column] ?? [:]).values.filter { $0.suite == suite }
                let counts = [CaseOutcome.pass, .nonStrict, .fail, .skipped].map { outcome in
                    results.count { $0.outcome == outcome || (outcome == .pass && $0.outcome == .flaky) }
                }
                let tone = results.isEmpty ? "none" : counts[2] > 0 ? "fail" : counts[1] > 0 ? "non-strict" : "pass"
                html += "<td class=\"m-\(tone)\">\(results.isEmpty ? "—" : counts.map(String.init).joined(separator: " / "))</td>"
            }
            html += "</tr>\n"
        }
        html += "</table>\n<h2>Cases</h2>\n<table class=\"matrix cases-matrix\"><tr><th>case</th>"
            + columns.map { "<th>\(HTMLReport.escape($0))</th>" }.joined() + "</tr>\n"
        for id in ids {
            html += "<tr data-case=\"\(HTMLReport.escape(id))\"><th><code>\(HTMLReport.escape(id))</code></th>"
            for (index, column) in columns.enumerated() {
                guard let result = byColumn[column]?[id] else {
                    html += "<td class=\"m-none\">—</td>"
                    continue
                }
                html += "<td class=\"m-\(result.outcome.rawValue)\" data-outcome=\"\(result.outcome.rawValue)\">"
                    + "<a href=\"#case-\(index + 1)-\(HTMLReport.escape(id))\">\(result.outcome.rawValue)</a></td>"
            }
            html += "</tr>\n"
        }
        html += "</table>\n"
        for (index, column) in columns.enumerated() {
            let results = report.results.filter { ReportMerge.column(of: $0, in: report) == column }
            html += "<h2 id=\"column-\(index + 1)\">\(HTMLReport.escape(column))</h2>\n"
            html += "<table class=\"cases\"><colgroup><col class=\"c-case\"><col class=\"c-outcome\"><col class=\"c-cmp\"><col class=\"c-time\"></colgroup>\n"
            html += "<tr><th>case</th><th>outcome</th><th>expected · observed</th><th>time</th></tr>\n"
            for result in HTMLReport.ordered(results) { html += HTMLReport.row(result, anchor: "\(index + 1)-\(result.id)") }
            html += "</table>\n"
        }
        html += "<script>\(TimelineHTML.script)</script>\n</body></html>\n"
        return html
    }

    static let style = """
    table.matrix{table-layout:auto;width:auto}table.matrix td,table.matrix th{border:1px solid #ddd;text-align:center;white-space:nowrap}
    table.matrix th:first-child{text-align:left}.m-pass,.m-flaky{background:#dafbe1}.m-non-strict{background:#fff8c5}
    .m-fail{background:#ffebe9}.m-skipped,.m-none{background:#f6f8fa;color:#6e7781}table.matrix a{color:inherit}
    """
}

// SPDX-License-Identifier: MIT
import Foundation

/// The `--html` report: one self-contained page (inline CSS, no scripts, no external assets).
public enum HTMLReport {
    public static func encode(_ report: RunReport) -> String {
        let s = report.summary
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <title>pubnub-harness conformance report</title>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fff}
        h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 6px}
        .cards{display:flex;gap:12px;margin:12px 0}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:90px}
        .card b{display:block;font-size:20px}
        table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}
        th{background:#f5f5f7}code,pre{font:12px ui-monospace,monospace}pre{background:#f7f7f9;padding:6px;white-space:pre-wrap;margin:4px 0}
        .pass{color:#1a7f37}.non-strict{color:#9a6700}.fail{color:#cf222e;font-weight:600}.skipped{color:#6e7781}.flaky{color:#8250df}
        details summary{cursor:pointer}
        </style></head><body>
        <h1>Conformance report — \(escape(report.client))</h1>
        <p>Seed <code>\(s.seed)</code> · \(String(format: "%.2f", s.durationSeconds)) s</p>
        <div class="cards">
        <div class="card">total<b>\(s.total)</b></div><div class="card pass">passed<b>\(s.passed)</b></div>
        <div class="card non-strict">non-strict<b>\(s.nonStrict)</b></div><div class="card fail">failed<b>\(s.failed)</b></div>
        <div class="card skipped">skipped<b>\(s.skipped)</b></div><div class="card flaky">flaky<b>\(s.flaky)</b></div></div>
        <h2>Suites</h2>
        <table><tr><th>suite</th><th>cases</th><th>passed</th><th>non-strict</th><th>failed</th><th>skipped</th><th>flaky</th></tr>

        """
        let groups = JUnitReport.grouped(report.results)
        for (suite, results) in groups {
            html += "<tr><td><a href=\"#suite-\(escape(suite))\">\(escape(suite))</a></td><td>\(results.count)</td>"
            for outcome in [CaseOutcome.pass, .nonStrict, .fail, .skipped, .flaky] {
                html += "<td class=\"\(outcome.rawValue)\">\(results.count { $0.outcome == outcome })</td>"
            }
            html += "</tr>\n"
        }
        html += "</table>\n"
        for (suite, results) in groups {
            html += "<h2 id=\"suite-\(escape(suite))\">\(escape(suite))</h2>\n"
            html += "<table><tr><th>case</th><th>outcome</th><th>expected</th><th>observed</th><th>time</th></tr>\n"
            for result in results { html += row(result) }
            html += "</table>\n"
        }
        html += "</body></html>\n"
        return html
    }

    private static func row(_ result: CaseResult) -> String {
        var cell = "<code>\(escape(result.id))</code><br>\(escape(result.title)) <small>\(escape(result.spec))</small>"
        if !result.detail.isEmpty { cell += "<pre>\(escape(result.detail))</pre>" }
        if !result.wireLog.isEmpty {
            let open = result.outcome == .fail || result.outcome == .flaky ? " open" : ""
            cell += "<details\(open)><summary>wire log (\(result.wireLog.count))</summary><pre>\(escape(result.wireLog.joined(separator: "\n")))</pre></details>"
        }
        let deviation = result.deviation.map { "<br><small>\(escape($0.rawValue))</small>" } ?? ""
        return "<tr id=\"case-\(escape(result.id))\"><td>\(cell)</td><td class=\"\(result.outcome.rawValue)\">\(result.outcome.rawValue)\(deviation)</td>"
            + "<td>\(categories(result.expected))</td><td>\(categories(result.observed))</td>"
            + "<td>\(String(format: "%.2f", result.durationSeconds)) s</td></tr>\n"
    }

    private static func categories(_ list: [StatusCategory]) -> String {
        list.isEmpty ? "—" : list.map { "<code>\(escape($0.rawValue))</code>" }.joined(separator: "<br>")
    }

    /// Escapes text for HTML content and attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

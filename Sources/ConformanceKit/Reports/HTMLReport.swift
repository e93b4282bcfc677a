// SPDX-License-Identifier: MIT
import Foundation

/// The `--html` report: one self-contained page (inline CSS and JavaScript, no external assets).
///
/// A verdict banner first, then the suite table, then every case in one table with new failures
/// on top, filterable by suite and outcome. Long values wrap inside their cell (no sideways
/// scrolling); each case shows the expected and observed categories side by side.
public enum HTMLReport {
    public static func encode(_ report: RunReport) -> String {
        let s = report.summary
        let counts = ReportCounts(report.results)
        let groups = JUnitReport.grouped(report.results)
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pubnub-harness conformance report</title>
        <style>\(style)\(TimelineHTML.style)</style></head><body>
        <h1>Conformance report — \(escape(report.client))</h1>
        <div class="verdict \(counts.newFailures == 0 ? "ok" : "bad")"><b>\(escape(counts.verdict))</b>
        <span>\(counts.expectedDeviations) expected deviation(s) · \(counts.fixed) deviation(s) fixed\(counts.fixed > 0 ? " (remove them from the expectation file)" : "")</span></div>
        <p>Seed <code>\(s.seed)</code> (replay with <code>--seed \(s.seed)</code>) · \(String(format: "%.2f", s.durationSeconds)) s</p>
        \(RunContextHTML.header(report.context))
        <div class="cards">
        <div class="card">total<b>\(s.total)</b></div><div class="card pass">passed<b>\(s.passed)</b></div>
        <div class="card non-strict">non-strict<b>\(s.nonStrict)</b></div><div class="card fail">failed<b>\(s.failed)</b></div>
        <div class="card skipped">skipped<b>\(s.skipped)</b></div><div class="card flaky">flaky<b>\(s.flaky)</b></div></div>
        <h2>Suites</h2>
        <table class="suites"><tr><th>suite</th><th>cases</th><th>passed</th><th>non-strict</th><th>failed</th><th>skipped</th><th>flaky</th></tr>

        """
        for (suite, results) in groups {
            html += "<tr><td>\(escape(suite))</td><td>\(results.count)</td>"
            for outcome in [CaseOutcome.pass, .nonStrict, .fail, .skipped, .flaky] {
                html += "<td class=\"\(outcome.rawValue)\">\(results.count { $0.outcome == outcome })</td>"
            }
            html += "</tr>\n"
        }
        html += "</table>\n<h2>Cases</h2>\n<div class=\"filters\"><label>suite <select id=\"f-suite\"><option value=\"\">all</option>"
        for (suite, _) in groups { html += "<option>\(escape(suite))</option>" }
        html += "</select></label> <label>outcome <select id=\"f-outcome\"><option value=\"\">all</option>"
        html += "<option value=\"new-failure\">new failures</option>"
        for outcome in CaseOutcome.allCases { html += "<option>\(outcome.rawValue)</option>" }
        html += "</select></label> <span id=\"shown\"></span></div>\n"
        html += "<table class=\"cases\"><colgroup><col class=\"c-case\"><col class=\"c-outcome\"><col class=\"c-cmp\"><col class=\"c-time\"></colgroup>\n"
        html += "<tr><th>case</th><th>outcome</th><th>expected · observed</th><th>time</th></tr>\n"
        for result in ordered(report.results) { html += row(result) }
        html += "</table>\n<script>\(script)\(TimelineHTML.script)</script>\n</body></html>\n"
        return html
    }

    /// New failures first, then the other failures, non-strict, skipped and passed cases; catalog
    /// order within each group.
    static func ordered(_ results: [CaseResult]) -> [CaseResult] {
        func rank(_ result: CaseResult) -> Int {
            if result.isUnexpectedFailure { return 0 }
            switch result.outcome {
            case .fail: return 1
            case .nonStrict: return 2
            case .skipped: return 3
            case .flaky: return 2
            case .pass: return result.deviation == .fixed ? 2 : 4
            }
        }
        return results.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// One case's table row; `anchor` (default: the case id) names its element `case-<anchor>`.
    static func row(_ result: CaseResult, anchor: String? = nil) -> String {
        var cell = "<code>\(escape(result.id))</code><br>\(escape(result.title)) <small>\(escape(result.spec))</small>"
        if !result.detail.isEmpty { cell += "<pre>\(escape(result.detail))</pre>" }
        if !result.wireLog.isEmpty {
            let open = result.outcome == .fail || result.outcome == .flaky ? " open" : ""
            cell += "<details\(open)><summary>wire log (\(result.wireLog.count))</summary><pre>\(escape(result.wireLog.joined(separator: "\n")))</pre></details>"
        }
        let deviation = result.deviation.map { "<br><small>\(escape($0.rawValue))</small>" } ?? ""
        let filterOutcome = result.isUnexpectedFailure ? "fail new-failure" : result.outcome.rawValue
        let comparison = "<div class=\"cmp\"><div><small>expected</small><br>\(categories(result.expected))</div>"
            + "<div><small>observed</small><br>\(categories(result.observed))</div></div>"
        return "<tr id=\"case-\(escape(anchor ?? result.id))\" data-suite=\"\(escape(result.suite))\" data-outcome=\"\(filterOutcome)\">"
            + "<td>\(cell)</td><td class=\"\(result.outcome.rawValue)\">\(result.outcome.rawValue)\(deviation)</td>"
            + "<td>\(comparison)</td><td>\(String(format: "%.2f", result.durationSeconds)) s</td></tr>\n"
            + TimelineHTML.tableRow(result, anchor: anchor ?? result.id)
    }

    private static func categories(_ list: [StatusCategory]) -> String {
        list.isEmpty ? "—" : list.map { "<code>\(escape($0.rawValue))</code>" }.joined(separator: "<br>")
    }

    package static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fff;max-width:1400px}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 6px}
    .verdict{padding:10px 14px;border-radius:6px;margin:8px 0}.verdict b{font-size:18px;margin-right:12px}
    .verdict.ok{background:#dafbe1;border:1px solid #1a7f37}.verdict.bad{background:#ffebe9;border:1px solid #cf222e}
    .cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:90px}
    .card b{display:block;font-size:20px}
    table{border-collapse:collapse;width:100%;table-layout:fixed}
    th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
    th{background:#f5f5f7}code,pre{font:12px ui-monospace,monospace}
    pre{background:#f7f7f9;padding:6px;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word;margin:4px 0;max-width:100%}
    col.c-case{width:55%}col.c-outcome{width:11%}col.c-cmp{width:27%}col.c-time{width:7%}
    .cmp{display:grid;grid-template-columns:1fr 1fr;gap:8px}.cmp>div{min-width:0}
    .pass{color:#1a7f37}.non-strict{color:#9a6700}.fail{color:#cf222e;font-weight:600}.skipped{color:#6e7781}.flaky{color:#8250df}
    .filters{margin:8px 0}.filters select{margin-right:12px}details summary{cursor:pointer}
    """

    private static let script = """
    (function(){var s=document.getElementById('f-suite'),o=document.getElementById('f-outcome'),n=document.getElementById('shown');
    var rows=Array.prototype.slice.call(document.querySelectorAll('table.cases tr[data-suite]'));
    function apply(){var shown=0;rows.forEach(function(r){var ok=(!s.value||r.dataset.suite===s.value)&&
    (!o.value||r.dataset.outcome.split(' ').indexOf(o.value)>=0);r.style.display=ok?'':'none';if(ok)shown++;
    var t=r.nextElementSibling;if(t&&t.classList.contains('tl-tr'))t.style.display=r.style.display;});
    n.textContent=shown+' of '+rows.length+' cases';}
    s.addEventListener('change',apply);o.addEventListener('change',apply);apply();})();
    """

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

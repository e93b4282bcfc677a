// SPDX-License-Identifier: MIT
import ConformanceKit
import Foundation

/// The `--html` report of `verify`: one self-contained page in the style of `run`'s, a verdict
/// banner, a table per recording, and for each failing exchange its differences (JSON path, both
/// values) and both answers side by side.
public enum VerifyHTML {
    public static func encode(_ report: VerifyReport) -> String {
        let s = report.summary
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pubnub-harness verify report</title>
        <style>\(HTMLReport.style)\(style)</style></head><body>
        <h1>Recording verification — \(escape(report.target))</h1>
        <div class="verdict \(s.failed + s.errors == 0 ? "ok" : "bad")"><b>\(escape(s.line))</b></div>
        <p>\(escape(report.tool)) · started \(escape(report.started)) · \(String(format: "%.2f", report.durationSeconds)) s</p>
        <div class="cards">
        <div class="card">exchanges<b>\(s.total)</b></div><div class="card pass">passed<b>\(s.passed)</b></div>
        <div class="card fail">failed<b>\(s.failed)</b></div><div class="card fail">no answer<b>\(s.errors)</b></div>
        <div class="card skipped">skipped<b>\(s.skipped)</b></div></div>

        """
        for recording in report.recordings {
            html += "<h2>\(escape(recording.file))</h2>\n<p>recorded against <code>\(escape(recording.upstream))</code>: \(escape(recording.summary.line))</p>\n"
            html += "<table class=\"cases\"><colgroup><col class=\"c-id\"><col class=\"c-req\"><col class=\"c-out\"><col class=\"c-ms\"></colgroup>\n"
            html += "<tr><th>#</th><th>exchange</th><th>outcome</th><th>ms (recorded · replayed)</th></tr>\n"
            for verdict in ordered(recording.exchanges) { html += row(verdict) }
            html += "</table>\n"
        }
        return html + "</body></html>\n"
    }

    /// Failures first, then errors, skipped and passed exchanges; id order within each.
    static func ordered(_ verdicts: [ExchangeVerdict]) -> [ExchangeVerdict] {
        let rank: [ExchangeVerdict.Outcome: Int] = [.fail: 0, .error: 1, .skipped: 2, .pass: 3]
        return verdicts.sorted { (rank[$0.outcome] ?? 4, $0.id) < (rank[$1.outcome] ?? 4, $1.id) }
    }

    static func row(_ verdict: ExchangeVerdict) -> String {
        var cell = "<code>\(escape(verdict.request))</code> <small>\(escape(verdict.endpoint))</small>"
        if let note = verdict.note { cell += "<br><small>\(escape(note))</small>" }
        if !verdict.differences.isEmpty {
            cell += "<table class=\"diffs\"><tr><th>path</th><th>difference</th><th>recorded</th><th>replayed</th></tr>"
            for difference in verdict.differences {
                cell += "<tr><td><code>\(escape(difference.path))</code></td><td>\(escape(difference.kind.rawValue))"
                cell += difference.note.map { "<br><small>\(escape($0))</small>" } ?? ""
                cell += "</td><td><code>\(escape(difference.recorded ?? "(none)"))</code></td><td><code>\(escape(difference.actual ?? "(none)"))</code></td></tr>"
            }
            cell += "</table>"
        }
        if let recorded = verdict.recordedAnswer, let replayed = verdict.replayedAnswer {
            cell += "<details open><summary>both answers</summary><div class=\"sbs\"><div><small>recorded</small><pre>\(escape(recorded))</pre></div>"
            cell += "<div><small>replayed</small><pre>\(escape(replayed))</pre></div></div></details>"
        }
        let times = String(format: "%.0f", verdict.recordedMs) + " · " + (verdict.replayedMs.map { String(format: "%.0f", $0) } ?? "–")
        return "<tr class=\"\(verdict.outcome.rawValue)-row\"><td>\(verdict.id)</td><td>\(cell)</td>"
            + "<td class=\"\(verdict.outcome == .error ? "fail" : verdict.outcome.rawValue)\">\(verdict.outcome.rawValue)</td><td>\(times)</td></tr>\n"
    }

    private static let style = """
    col.c-id{width:5%}col.c-req{width:75%}col.c-out{width:8%}col.c-ms{width:12%}
    .sbs{display:grid;grid-template-columns:1fr 1fr;gap:8px}.sbs>div{min-width:0}
    table.diffs{margin:4px 0;font-size:12px}table.diffs th{font-weight:600}
    """

    private static func escape(_ text: String) -> String { HTMLReport.escape(text) }
}

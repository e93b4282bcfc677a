// SPDX-License-Identifier: MIT
import Foundation

/// The HTML report's line about where the run comes from: catalog, shard, client version, and
/// for a merged report the table of the runs it joins.
enum RunContextHTML {
    static func header(_ context: RunContext?) -> String {
        guard let context else { return "" }
        var parts = ["catalog <code>\(HTMLReport.escape(context.catalog))</code> (\(context.catalogSize) cases)"]
        if let shard = context.shard { parts.append("shard <b class=\"shard\">\(shard)</b>") }
        if let version = context.clientVersion { parts.append("client version <code>\(HTMLReport.escape(version))</code>") }
        parts.append("pubnub-harness \(HTMLReport.escape(context.harnessVersion))")
        var html = "<p class=\"run\">" + parts.joined(separator: " · ") + "</p>"
        if !context.runs.isEmpty {
            html += "\n<table class=\"runs\"><tr><th>run</th><th>client</th><th>version</th><th>shard</th><th>seed</th><th>cases</th><th>time</th><th>report</th></tr>"
            for (index, run) in context.runs.enumerated() {
                html += "<tr><td>\(index + 1)</td><td>\(HTMLReport.escape(run.client))</td><td>\(HTMLReport.escape(run.clientVersion ?? "—"))</td>"
                    + "<td>\(run.shard.map(\.description) ?? "—")</td><td><code>\(run.seed)</code></td><td>\(run.cases)</td>"
                    + "<td>\(String(format: "%.2f", run.durationSeconds)) s</td><td><code>\(HTMLReport.escape(run.source))</code></td></tr>"
            }
            html += "</table>"
        }
        return html
    }
}

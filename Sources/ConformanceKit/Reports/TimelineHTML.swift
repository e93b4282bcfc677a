// SPDX-License-Identifier: MIT
import Foundation

/// A case's timeline in the HTML report: a sequence diagram, client on the left and the mock on
/// the right, one row per item in time order (pure HTML and CSS, no script needed to read it).
///
/// Requests are arrows to the mock, answers arrows back (coloured by status), faults and
/// connection events marks on the mock's lifeline, statuses and events marks on the client's,
/// steps rules across. The time column gives the offset from the first item; a pause longer
/// than ``gapMs`` gets a row of its own, so the axis stays readable at a thousand requests. Every
/// drawn element carries `data-tl="<kind>"` (checks count them against the journal); the
/// failing item carries `data-failing`, and its diagram opens scrolled to it.
public enum TimelineHTML {
    /// A pause between two items longer than this (ms) is drawn as a gap row.
    public static let gapMs = 250.0

    /// A table row spanning the case table under `result`'s row, holding its timeline; empty when
    /// it has none. The filter script shows and hides it with the case's row.
    public static func tableRow(_ result: CaseResult, anchor: String, columns: Int = 4) -> String {
        let block = section(result, anchor: anchor)
        guard !block.isEmpty else { return "" }
        return "<tr class=\"tl-tr\"><td colspan=\"\(columns)\">\(block)</td></tr>\n"
    }

    /// The `<details>` block for `result`'s timeline; empty when it has none.
    public static func section(_ result: CaseResult, anchor: String) -> String {
        guard let timeline = result.timeline, !timeline.items.isEmpty else { return "" }
        let failed = result.outcome == .fail
        var html = "<details class=\"tl\"\(failed ? " open" : "")><summary>timeline: \(timeline.journalRequests) request(s), "
            + "\(timeline.journalFaults) fault(s), \(timeline.items.count) item(s)\(timeline.failingStep.map { ", failed at step \($0)" } ?? "")</summary>\n"
        html += "<div class=\"tl-box\" data-case=\"\(HTMLReport.escape(result.id))\" data-requests=\"\(timeline.journalRequests)\" "
            + "data-faults=\"\(timeline.journalFaults)\"\(failed ? " data-open-at-fail" : "")>\n"
        html += "<div class=\"tl-row tl-head\"><span class=\"t\">time</span><span class=\"c\">client</span><span class=\"a\"></span><span class=\"m\">mock</span></div>\n"
        var previous: Double?
        for item in timeline.items {
            if let previous, item.atMs - previous > gapMs {
                html += "<div class=\"tl-row tl-gap\" data-tl=\"gap\"><span class=\"t\"></span><span class=\"c\"></span>"
                    + "<span class=\"a\">⋯ \(TimelineModel.format(item.atMs - previous)) ⋯</span><span class=\"m\"></span></div>\n"
            }
            previous = item.atMs
            html += row(item, anchor: anchor)
        }
        html += "</div></details>\n"
        return html
    }

    static func row(_ item: TimelineItem, anchor: String) -> String {
        let label = HTMLReport.escape(item.label)
        let title = item.full.isEmpty ? "" : " title=\"\(HTMLReport.escape(item.full))\""
        let failing = item.failing ? " data-failing id=\"fail-\(HTMLReport.escape(anchor))\"" : ""
        let time = "<span class=\"t\">+\(time(item.atMs))</span>"
        var classes = "tl-row k-\(item.kind.rawValue)" + (item.failing ? " tl-fail" : "")
        let cells: String
        switch item.kind {
        case .request:
            cells = "<span class=\"c\"></span><span class=\"a to-mock\"\(title)><i>\(label)</i></span><span class=\"m\"></span>"
        case .answer:
            classes += " " + answerClass(item.label)
            cells = "<span class=\"c\"></span><span class=\"a to-client\"><i>\(label)</i></span><span class=\"m\"></span>"
        case .fault, .connection, .listener:
            if item.kind == .connection, item.label.hasPrefix("reset") || item.label.hasPrefix("TLS handshake failed") { classes += " bad" }
            cells = "<span class=\"c\"></span><span class=\"a\"></span><span class=\"m\"><b>\(label)</b></span>"
        case .status, .event:
            cells = "<span class=\"c\"><b>\(label)</b></span><span class=\"a\"></span><span class=\"m\"></span>"
        case .step:
            cells = "<span class=\"c step\">\(label)</span><span class=\"a rule\"></span><span class=\"m\"></span>"
        }
        return "<div class=\"\(classes)\" data-tl=\"\(item.kind.rawValue)\"\(failing)>\(time)\(cells)</div>\n"
    }

    /// `ok` for a 2xx answer, `bad` for 4xx/5xx and broken answers, `odd` otherwise.
    static func answerClass(_ label: String) -> String {
        if label.hasPrefix("2") { return "ok" }
        if label.hasPrefix("4") || label.hasPrefix("5") || label.hasPrefix("raw") || label.hasPrefix("drip") || label.hasPrefix("close") {
            return "bad"
        }
        return "odd"
    }

    static func time(_ ms: Double) -> String {
        ms >= 1_000 ? String(format: "%.3f s", ms / 1_000) : String(format: "%.1f ms", ms)
    }

    /// The timeline's CSS: a four-column grid whose client and mock columns carry the lifelines.
    static let style = """
    tr.tl-tr>td{border-bottom:1px solid #ddd;padding:0 6px 8px 18px}
    .tl summary{font-weight:600}.tl-box{max-height:70vh;overflow:auto;border:1px solid #ddd;border-radius:4px;margin:4px 0;font:12px ui-monospace,monospace}
    .tl-row{display:grid;grid-template-columns:84px minmax(140px,20%) 1fr minmax(160px,26%);align-items:stretch;min-height:20px}
    .tl-row>span{padding:1px 4px;min-width:0;overflow-wrap:anywhere;display:flex;flex-direction:column;justify-content:flex-end}
    .tl-row .t{color:#6e7781;text-align:right;align-items:flex-end}
    .tl-row .c{border-right:2px solid #8c959f}.tl-row .m{border-left:2px solid #8c959f}
    .tl-head{position:sticky;top:0;background:#f5f5f7;font-weight:600;z-index:1}.tl-head .c{text-align:right}
    .tl-row .a{position:relative;padding:1px 10px}.tl-row .a i{font-style:normal;display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
    .a.to-mock{border-bottom:2px solid #0969da}.a.to-mock::after{content:"";position:absolute;right:0;bottom:-6px;border:5px solid transparent;border-left:9px solid #0969da;border-right:0}
    .a.to-client{border-bottom:2px dashed #1a7f37;text-align:right}.a.to-client::after{content:"";position:absolute;left:0;bottom:-6px;border:5px solid transparent;border-right:9px solid #1a7f37;border-left:0}
    .k-answer.bad .a.to-client{border-bottom-color:#cf222e;color:#cf222e}.k-answer.bad .a.to-client::after{border-right-color:#cf222e}
    .k-answer.odd .a.to-client{border-bottom-color:#9a6700}.k-answer.odd .a.to-client::after{border-right-color:#9a6700}
    .k-fault .m b{background:#ffebe9;color:#cf222e;border:1px solid #cf222e;border-radius:3px;padding:0 4px}
    .k-fault .m b::before{content:"⚡ "}.k-connection .m b{color:#57606a;font-weight:400}.k-connection.bad .m b{color:#cf222e;font-weight:600}
    .k-listener .m b{background:#fff8c5;border:1px solid #9a6700;border-radius:3px;padding:0 4px}
    .tl-row .c{align-items:flex-end;text-align:right}
    .k-status .c b{background:#ddf4ff;border:1px solid #0969da;border-radius:3px;padding:0 4px}
    .k-event .c b{background:#f6f8fa;border:1px solid #8c959f;border-radius:3px;padding:0 4px;font-weight:400}
    .k-step{background:#f6f8fa}.k-step .c.step{font-weight:600;align-items:flex-start;text-align:left;white-space:nowrap;overflow:visible;z-index:1}
    .a.rule{border-bottom:1px dotted #8c959f}
    .tl-gap .a{text-align:center;color:#6e7781}.tl-fail{background:#ffebe9;outline:2px solid #cf222e}
    """

    /// Scrolls each failed case's diagram to its failing item.
    static let script = """
    (function(){document.querySelectorAll('.tl-box[data-open-at-fail]').forEach(function(box){
    var row=box.querySelector('[data-failing]');if(row){box.scrollTop=Math.max(0,row.offsetTop-box.offsetTop-60);}});})();
    """
}

// SPDX-License-Identifier: MIT
import Foundation

/// A case's timeline as text, for the console (`run --verbose`): one line per item, the offset,
/// then the client column, the arrow and the mock column.
///
///     +0.0 ms      |  GET /v2/subscribe/sub-c-…/room/0 tt=0   -->| accept #3
///     +2.1 ms      |<-- 200 · 45 B · 2 ms                        |
///     +2.4 ms  PNConnectedCategory (subscribe)                   |
public enum TimelineText {
    /// Characters of the arrow column.
    static let arrowWidth = 64

    public static func render(_ timeline: CaseTimeline) -> [String] {
        var lines: [String] = []
        var previous: Double?
        for item in timeline.items {
            if let previous, item.atMs - previous > TimelineHTML.gapMs {
                lines.append(pad("", 12) + "   ⋯ " + TimelineModel.format(item.atMs - previous) + " ⋯")
            }
            previous = item.atMs
            let time = pad("+" + TimelineHTML.time(item.atMs), 12)
            let mark = item.failing ? " <== failed here" : ""
            switch item.kind {
            case .request:
                lines.append("\(time) |-- \(pad(cut(item.label), arrowWidth - 7)) -->|\(mark)")
            case .answer:
                lines.append("\(time) |<-- \(pad(cut(item.label), arrowWidth - 7)) ---|\(mark)")
            case .fault:
                lines.append("\(time) |\(String(repeating: " ", count: arrowWidth))| ⚡ \(item.label)\(mark)")
            case .connection, .listener:
                lines.append("\(time) |\(String(repeating: " ", count: arrowWidth))| \(item.label)\(mark)")
            case .status, .event:
                lines.append("\(time) \(item.kind == .status ? "status" : "event") \(item.label)\(mark)")
            case .step:
                lines.append("\(time) == \(item.label)\(mark)")
            }
        }
        return lines
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func cut(_ text: String) -> String {
        text.count <= arrowWidth - 7 ? text : String(text.prefix(arrowWidth - 8)) + "…"
    }
}

extension ConsoleReporter {
    /// Prints the timeline of every failed case (`run --verbose`).
    public func timelines(_ report: RunReport) {
        var text = ""
        for result in report.results where result.outcome == .fail {
            guard let timeline = result.timeline, !timeline.items.isEmpty else { continue }
            text += "\ntimeline of \(result.id) (\(timeline.journalRequests) request(s), \(timeline.journalFaults) fault(s)"
                + "\(timeline.failingStep.map { ", failed at step \($0)" } ?? "")):\n"
            for line in TimelineText.render(timeline) { text += "  " + line + "\n" }
        }
        if !text.isEmpty { write(text) }
    }
}

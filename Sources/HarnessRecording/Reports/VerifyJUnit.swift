// SPDX-License-Identifier: MIT
import ConformanceKit
import Foundation

/// The `--junit` report of `verify`: one `<testsuite>` per recording, one `<testcase>` per exchange.
public enum VerifyJUnit {
    public static func encode(_ report: VerifyReport) -> String {
        let s = report.summary
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="pubnub-harness verify" tests="\#(s.total)" failures="\#(s.failed)" errors="\#(s.errors)" skipped="\#(s.skipped)" time="\#(seconds(report.durationSeconds * 1000))">"# + "\n"
        for recording in report.recordings {
            let r = recording.summary
            let time = recording.exchanges.reduce(0) { $0 + ($1.replayedMs ?? 0) }
            xml += #"  <testsuite name="\#(escape(recording.file))" tests="\#(r.total)" failures="\#(r.failed)" errors="\#(r.errors)" skipped="\#(r.skipped)" time="\#(seconds(time))">"# + "\n"
            for verdict in recording.exchanges {
                xml += #"    <testcase classname="\#(escape(recording.file))" name="\#(escape("#\(verdict.id) \(verdict.request)"))" time="\#(seconds(verdict.replayedMs ?? 0))""#
                switch verdict.outcome {
                case .pass:
                    xml += "/>\n"
                case .skipped:
                    xml += ">\n      <skipped message=\"\(escape(verdict.note ?? "skipped"))\"/>\n    </testcase>\n"
                case .error:
                    xml += ">\n      <error message=\"\(escape(verdict.note ?? "no answer"))\"/>\n    </testcase>\n"
                case .fail:
                    let message = verdict.differences.first.map(\.description) ?? "differs"
                    let details = verdict.differences.map(\.description).joined(separator: "\n")
                    xml += ">\n      <failure message=\"\(escape(message))\" type=\"difference\">\(escape(details))</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func escape(_ text: String) -> String { JUnitReport.escape(text) }

    private static func seconds(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds / 1000) }
}

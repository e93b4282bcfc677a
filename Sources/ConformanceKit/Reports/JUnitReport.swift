// SPDX-License-Identifier: MIT
import Foundation

/// The `--junit` report: one `<testsuite>` per suite, one `<testcase>` per case.
///
/// A failure the expectation file expects is `<skipped type="expected-deviation">` (CI shows it,
/// but it does not fail the build); only new failures are `<failure>`.
public enum JUnitReport {
    public static func encode(_ report: RunReport) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let s = report.summary
        let allFailures = report.results.count { isFailure($0) }
        let allSkipped = report.results.count { isSkipped($0) }
        xml += #"<testsuites name="pubnub-harness" tests="\#(s.total)" failures="\#(allFailures)" skipped="\#(allSkipped)" time="\#(seconds(s.durationSeconds))">"# + "\n"
        for (suite, results) in grouped(report.results) {
            let failures = results.count { isFailure($0) }
            let skipped = results.count { isSkipped($0) }
            let time = results.reduce(0) { $0 + $1.durationSeconds }
            xml += #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" skipped="\#(skipped)" time="\#(seconds(time))">"# + "\n"
            xml += properties(report, results: results)
            for result in results {
                xml += #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.id))" time="\#(seconds(result.durationSeconds))""#
                let body = caseBody(result)
                xml += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// A `<failure>`: failed, and not as the expectation file says.
    static func isFailure(_ result: CaseResult) -> Bool { result.outcome == .fail && result.deviation != .expected }

    /// A `<skipped>`: not run, or failed as the expectation file says.
    static func isSkipped(_ result: CaseResult) -> Bool {
        result.outcome == .skipped || (result.outcome == .fail && result.deviation == .expected)
    }

    private static func caseBody(_ result: CaseResult) -> String {
        let categories = "expected: \(result.expected.map(\.rawValue).joined(separator: ", "))\nobserved: \(result.observed.map(\.rawValue).joined(separator: ", "))"
        switch result.outcome {
        case .pass:
            return ""
        case .nonStrict:
            return "      <system-out>\(escape("non-strict: " + result.detail + "\n" + categories))</system-out>\n"
        case .flaky:
            // A pass for JUnit readers, with the miss spelled out for people.
            return "      <properties><property name=\"outcome\" value=\"flaky\"/></properties>\n"
                + "      <system-out>\(escape("flaky: " + result.detail + "\n" + categories))</system-out>\n"
        case .skipped:
            return "      <skipped message=\"\(escape(result.detail))\"/>\n"
        case .fail where result.deviation == .expected:
            let message = "expected deviation: " + (result.detail.split(separator: "\n").first.map(String.init) ?? "failed")
            return "      <skipped type=\"expected-deviation\" message=\"\(escape(message))\">\(escape(categories + "\n" + result.detail))</skipped>\n"
        case .fail:
            let text = [result.title, categories, result.detail, "wire log:"].joined(separator: "\n") + "\n" + result.wireLog.joined(separator: "\n")
            let message = result.detail.split(separator: "\n").first.map(String.init) ?? "failed"
            return "      <failure message=\"\(escape(message))\" type=\"\(result.deviation?.rawValue ?? "failure")\">\(escape(text))</failure>\n"
        }
    }

    /// Escapes text for XML content and attributes; drops characters XML 1.0 cannot carry.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out += "&#\(scalar.value);"
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    static func grouped(_ results: [CaseResult]) -> [(String, [CaseResult])] {
        var order: [String] = []
        var groups: [String: [CaseResult]] = [:]
        for result in results {
            if groups[result.suite] == nil { order.append(result.suite) }
            groups[result.suite, default: []].append(result)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}

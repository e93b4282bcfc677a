// SPDX-License-Identifier: MIT

/// The console report of `verify`: one line per exchange that failed (each difference below it),
/// per exchange at all with `verbose`, and the summary.
public enum VerifyConsole {
    public static func render(_ report: VerifyReport, verbose: Bool = false) -> String {
        var text = ""
        for recording in report.recordings {
            text += "\(recording.file) (recorded against \(recording.upstream)): \(recording.summary.line)\n"
            for verdict in recording.exchanges where verbose || verdict.outcome == .fail || verdict.outcome == .error {
                text += "  \(verdict.outcome.rawValue.uppercased()) #\(verdict.id) \(verdict.request) (\(verdict.endpoint))"
                text += verdict.note.map { ": \($0)" } ?? ""
                text += "\n"
                for difference in verdict.differences { text += "      \(difference)\n" }
            }
        }
        text += "verified against \(report.target) in \(String(format: "%.2f", report.durationSeconds)) s\n"
        text += report.summary.line + "\n"
        return text
    }
}

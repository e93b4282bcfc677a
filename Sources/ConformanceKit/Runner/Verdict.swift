// SPDX-License-Identifier: MIT

/// Decides a case's outcome from its failures and observed categories (pure).
///
/// - pass: no failures, every expected category observed, nothing observed outside
///   `expected ∪ tolerated` (`PNCancelledCategory` is ignored).
/// - non-strict: the only failures are missing statuses, and the observed categories match an
///   alternative (all its categories seen, nothing outside `alternative ∪ expected ∪ tolerated`).
/// - skipped: the client lacks something the case needs.
/// - fail: anything else.
enum Verdict {
    static func decide(_ testCase: ConformanceCase, failures: [StepFailure], observed: [StatusCategory]) -> (CaseOutcome, String) {
        if let unsupported = failures.first(where: { if case .unsupported = $0 { true } else { false } }) {
            return (.skipped, unsupported.text)
        }
        let seen = Set(observed).subtracting([.cancelled])
        let expected = Set(testCase.expected)
        let allowed = expected.union(testCase.tolerated)
        let hard = failures.filter { if case .failed = $0 { true } else { false } }
        let missing = expected.subtracting(seen)
        let unexpected = seen.subtracting(allowed)

        if failures.isEmpty, missing.isEmpty, unexpected.isEmpty {
            return (.pass, "")
        }
        if hard.isEmpty {
            for alternative in testCase.alternatives {
                let categories = Set(alternative.categories)
                if categories.isSubset(of: seen), seen.isSubset(of: categories.union(allowed)) {
                    return (.nonStrict, "alternative: \(alternative.reason)")
                }
            }
        }
        var lines = failures.map(\.text)
        if !missing.isEmpty { lines.append("missing: " + missing.sorted().map(\.rawValue).joined(separator: ", ")) }
        if !unexpected.isEmpty { lines.append("unexpected: " + unexpected.sorted().map(\.rawValue).joined(separator: ", ")) }
        return (.fail, uniqueLines(lines).joined(separator: "\n"))
    }
}

/// Removes repeated lines, keeping the first of each.
private func uniqueLines(_ lines: [String]) -> [String] {
    var seen = Set<String>()
    return lines.filter { seen.insert($0).inserted }
}

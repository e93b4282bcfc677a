// SPDX-License-Identifier: MIT

/// Evaluates a ``JournalExpectation`` against recorded requests (pure).
enum JournalCheck {
    static func holds(_ expectation: JournalExpectation, in entries: [JournalEntry]) -> Bool {
        switch expectation {
        case .count(let endpoint, let query, let atLeast, let atMost):
            let count = entries.count { $0.endpointName == endpoint && $0.queryMatches(query) }
            return count >= atLeast && (atMost.map { count <= $0 } ?? true)
        case .spacing(let endpoint, let query, let count, let minimumIntervalMs):
            let times = entries.filter { $0.endpointName == endpoint && $0.queryMatches(query) }.map(\.arrivalTime)
            guard times.count >= count else { return false }
            // 10% for timer jitter, and a microsecond for the arithmetic of arrival-time doubles.
            let minimum = Double(minimumIntervalMs) * 0.9 - 0.001
            return zip(times, times.dropFirst()).allSatisfy { ($1 - $0) * 1_000 >= minimum }
        case .followedBy(let after, let afterQuery, let endpoint, let query):
            guard let index = entries.firstIndex(where: { $0.endpointName == after && $0.queryMatches(afterQuery) }) else { return false }
            return entries[(index + 1)...].contains { $0.endpointName == endpoint && $0.queryMatches(query) }
        case .noneAfter(let after, let afterQuery, let endpoint, let query):
            guard let index = entries.firstIndex(where: { $0.endpointName == after && $0.queryMatches(afterQuery) }) else { return false }
            return !entries[(index + 1)...].contains { $0.endpointName == endpoint && $0.queryMatches(query) }
        case .pathContains(let endpoint, let substring, let present):
            return entries.contains { $0.endpointName == endpoint && $0.path.contains(substring) } == present
        case .cursorReused(let reused):
            let cursors = entries.filter { $0.endpointName == "subscribe" }.compactMap { $0.query["tt"] }.filter { $0 != "0" }
            return (Set(cursors).count < cursors.count) == reused
        }
    }
}

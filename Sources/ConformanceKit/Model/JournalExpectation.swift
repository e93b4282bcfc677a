// SPDX-License-Identifier: MIT

/// A condition on the requests the server recorded for the case's subscribe key.
public enum JournalExpectation: Sendable, Hashable {
    /// At least `atLeast` (and at most `atMost`) requests to the endpoint matching `query`
    /// (fault-plan query syntax: `"*"` present, `"!"` absent, `"!v"` not v).
    case count(endpoint: String, query: [String: String] = [:], atLeast: Int, atMost: Int? = nil)
    /// At least `count` requests to the endpoint matching `query`, consecutive ones at least `ms`
    /// apart (with 10% tolerance for timer jitter) — e.g. the reachability pings to `/time/0`, or
    /// a retry policy's delays between long-polls.
    case spacing(endpoint: String, query: [String: String] = [:], count: Int, minimumIntervalMs: Int)
    /// After the first request matching `after`, a request to `endpoint` matching `query`.
    case followedBy(after: String, afterQuery: [String: String], endpoint: String, query: [String: String])
    /// Whether two subscribe requests carry the same non-zero `tt`: a cursor reused after a
    /// disconnect (catch-up) or across a list change (keepTimeTokenOnListChange).
    case cursorReused(Bool)
    /// Whether some request to the endpoint has `substring` in its path.
    case pathContains(endpoint: String, substring: String, Bool)
    /// No request to `endpoint` matching `query` after the first request matching `after`.
    case noneAfter(after: String, afterQuery: [String: String], endpoint: String, query: [String: String])

    /// A one-line description for reports.
    public var summary: String {
        switch self {
        case .count(let endpoint, let query, let atLeast, let atMost):
            return "\(atLeast)\(atMost.map { "…\($0)" } ?? "+") \(endpoint) request(s)\(Self.describe(query))"
        case .spacing(let endpoint, let query, let count, let ms):
            return "\(count)+ \(endpoint) requests\(Self.describe(query)) at least \(ms) ms apart"
        case .followedBy(let after, let afterQuery, let endpoint, let query):
            return "\(after)\(Self.describe(afterQuery)) followed by \(endpoint)\(Self.describe(query))"
        case .cursorReused(let reused):
            return reused ? "a subscribe cursor (tt) sent again" : "no subscribe cursor (tt) sent twice"
        case .pathContains(let endpoint, let substring, let present):
            return "\(present ? "a" : "no") \(endpoint) request with \"\(substring)\" in its path"
        case .noneAfter(let after, let afterQuery, let endpoint, let query):
            return "no \(endpoint)\(Self.describe(query)) after \(after)\(Self.describe(afterQuery))"
        }
    }

    /// The expectation with `transform` applied to every query value and substring (placeholders).
    func substituting(_ transform: (String) -> String) -> JournalExpectation {
        func map(_ query: [String: String]) -> [String: String] { query.mapValues(transform) }
        switch self {
        case .count(let endpoint, let query, let atLeast, let atMost):
            return .count(endpoint: endpoint, query: map(query), atLeast: atLeast, atMost: atMost)
        case .followedBy(let after, let afterQuery, let endpoint, let query):
            return .followedBy(after: after, afterQuery: map(afterQuery), endpoint: endpoint, query: map(query))
        case .noneAfter(let after, let afterQuery, let endpoint, let query):
            return .noneAfter(after: after, afterQuery: map(afterQuery), endpoint: endpoint, query: map(query))
        case .pathContains(let endpoint, let substring, let present):
            return .pathContains(endpoint: endpoint, substring: transform(substring), present)
        case .spacing, .cursorReused:
            return self
        }
    }

    private static func describe(_ query: [String: String]) -> String {
        query.isEmpty ? "" : " [" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "]"
    }
}

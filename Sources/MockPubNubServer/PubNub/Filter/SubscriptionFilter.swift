// SPDX-License-Identifier: MIT
import HarnessJSON

/// A subscriber's parsed `filter-expr`, identified by its text (so waiters with the same filter
/// share one rendered body).
struct SubscriptionFilter: Sendable, Hashable {
    var text: String
    var expression: FilterExpression

    static func == (lhs: SubscriptionFilter, rhs: SubscriptionFilter) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Whether the subscriber receives `message`. Presence events are never filtered (INFERRED,
    /// spec §4); other messages are judged on their `meta`, payload and publisher.
    func admits(_ message: StoredMessage) -> Bool {
        guard message.kind != .presence else { return true }
        let subject = FilterSubject(
            meta: message.meta.flatMap { try? JSONValue.parse($0) },
            data: try? JSONValue.parse(message.payload),
            publisher: message.publisher)
        return expression.admits(subject)
    }
}

/// How a subscribe with an unparsable `filter-expr` is answered (a keyset feature).
public enum InvalidFilterAnswer: String, Sendable, Hashable, Codable {
    /// HTTP 481 with a Balancer-style body naming the problem. UNVERIFIED: an SDK test fixture
    /// shows 481 (with `{}`); the message text is the mock's.
    case reject
    /// The subscribe is accepted and the filter matches nothing (what some guidance describes).
    case matchNothing = "match-nothing"
}

extension SubscriptionFilter {
    /// The status of a refused filter expression.
    static let refusalStatus = 481

    /// The 481 answer for an unparsable expression.
    static func refusal(_ error: FilterParseError) -> HTTPResponse {
        .pubNub(refusalStatus, "{\"message\":" + PubNubJSON.quote("Invalid filter expression: " + error.description)
            + ",\"error\":true,\"service\":\"Balancer\",\"status\":481}")
    }

    /// A filter that admits no message but presence events (the `match-nothing` answer).
    /// Computed, not a stored `static let`: a global holding an indirect enum keeps its box
    /// pointer with the case tag in the spare bits, which LeakSanitizer reports as a leak.
    static var nothing: SubscriptionFilter {
        SubscriptionFilter(
            text: "\u{0}invalid", expression: .compare(.string("a"), .equal, .string("b")))
    }
}

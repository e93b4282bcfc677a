// SPDX-License-Identifier: MIT
import Synchronization

/// The service's own choices, recorded → replayed: learned from earlier answers, substituted in
/// later requests (timetokens, eTags, page cursors, file ids, tokens). Thread-safe.
final class ValueMapper: Sendable {
    private struct Pair {
        var actual: String
        /// When the exchange that learned it ended in the recording.
        var endedMs: Double
    }

    private let pairs = Mutex<[String: Pair]>([:])

    /// Recorded timetokens closer than this (100 ms, in 100 ns units) are not checked for order:
    /// the recording's clock (the proxy's) and the service's differ by that much.
    static let orderTolerance: UInt64 = 1_000_000

    /// Records `values` learned from an exchange; returns the differences they reveal: a value
    /// that maps to another value than before, and timetokens whose order differs from the
    /// recording's (checked against values learned by exchanges that ended before this one began,
    /// and more than ``orderTolerance`` apart).
    func learn(_ values: [LearnedValue], startedMs: Double, endedMs: Double) -> [Difference] {
        pairs.withLock { pairs in
            var differences: [Difference] = []
            var orderReported = false
            for value in values {
                if let known = pairs[value.recorded] {
                    if known.actual != value.actual {
                        differences.append(Difference(.mapping, value.path, recorded: value.recorded, actual: value.actual,
                                                      note: "replayed earlier as \(known.actual)"))
                    }
                    continue
                }
                if !orderReported, let recorded = UInt64(value.recorded), let actual = UInt64(value.actual),
                    ValueFormat.isTimetoken(value.recorded), ValueFormat.isTimetoken(value.actual)
                {
                    for (otherRecorded, other) in pairs where other.endedMs <= startedMs {
                        guard let r = UInt64(otherRecorded), let a = UInt64(other.actual), ValueFormat.isTimetoken(otherRecorded),
                            max(r, recorded) - min(r, recorded) > Self.orderTolerance
                        else { continue }
                        if (r < recorded) != (a < actual) {
                            differences.append(Difference(.order, value.path, recorded: value.recorded, actual: value.actual,
                                                          note: "recorded \(r < recorded ? "after" : "before") \(otherRecorded), replayed \(a < actual ? "after" : "before") \(other.actual)"))
                            orderReported = true
                            break
                        }
                    }
                }
                pairs[value.recorded] = Pair(actual: value.actual, endedMs: endedMs)
            }
            return differences
        }
    }

    /// What the values learned so far substitute (a snapshot for building one request).
    func substitutions() -> Substitutions {
        Substitutions(pairs.withLock { $0.mapValues(\.actual) })
    }
}

/// Learned values to put into a request in place of the recorded ones (pure).
struct Substitutions: Sendable {
    /// Recorded → replayed.
    let exact: [String: String]
    /// The pairs long enough to be replaced inside other text (file ids in a file message,
    /// timetokens in a URL), longest first.
    private let inside: [(recorded: String, actual: String)]
    /// Learned tokens, replayed → placeholder (to map answers back).
    let tokensBack: [(actual: String, placeholder: String)]

    /// Values at least this long are replaced inside other text too.
    static let insideLength = 16

    init(_ exact: [String: String] = [:]) {
        self.exact = exact
        inside = exact.filter { $0.key.utf8.count >= Self.insideLength && $0.key != $0.value }
            .map { (recorded: $0.key, actual: $0.value) }.sorted { $0.recorded.utf8.count > $1.recorded.utf8.count }
        tokensBack = exact.filter { $0.key.hasPrefix("{token-") }.map { (actual: $0.value, placeholder: $0.key) }
    }

    /// A whole value substituted: exactly, as a timetoken one off a learned one (the "start = tt - 1"
    /// idiom), or with learned values inside it.
    func value(_ text: String) -> String {
        if let actual = exact[text] { return actual }
        if ValueFormat.isTimetoken(text), let recorded = UInt64(text) {
            for offset in [-1, 1] as [Int64] {
                let neighbour = String(Int64(recorded) + offset)
                if let actual = exact[neighbour], let value = Int64(actual) { return String(value - offset) }
            }
        }
        return inside(text)
    }

    /// `text` with every long learned value replaced wherever it occurs.
    func inside(_ text: String) -> String {
        var out = text
        for (recorded, actual) in self.inside where out.contains(recorded) { out = out.replacingOccurrences(of: recorded, with: actual) }
        return out
    }

    /// A replayed answer's tokens mapped back to their placeholders.
    func mapBackTokens(_ text: String) -> String {
        var out = text
        for (actual, placeholder) in tokensBack where out.contains(actual) { out = out.replacingOccurrences(of: actual, with: placeholder) }
        return out
    }
}

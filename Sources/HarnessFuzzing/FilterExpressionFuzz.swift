// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPubNubServer

/// Fuzz entry for the subscribe filter parser and evaluator (`filter-expr`).
///
/// Invariants:
/// - Parsing never traps; a refusal names an offset within the input.
/// - An accepted expression's canonical text parses to the same expression (unless the canonical
///   form, which adds parentheses, passes the nesting or length limit).
/// - Evaluation is total and consistent: on a fixed message, `!(e)` admits exactly when `e` does
///   not, and `e || e`, `e && e` agree with `e`.
enum FilterExpressionFuzz {
    static let subject = FilterSubject(
        meta: try? JSONValue.parse("{\"a\":1,\"b\":\"x-y\",\"c\":[1,\"z\"],\"d\":{\"e\":2.5},\"level\":3,\"region\":\"us\"}"),
        data: try? JSONValue.parse("{\"text\":\"hello\",\"n\":-4}"),
        publisher: "pub")

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let expression: FilterExpression
        do {
            expression = try FilterParser.parse(text)
        } catch {
            guard error.offset >= 0, error.offset <= max(text.utf8.count, FilterParser.maxLength) else {
                throw FuzzFailure(.filterExpression, "a refusal points into the input", "\(error) for \(text.debugDescription)")
            }
            return
        }
        let canonical = expression.canonicalText
        if let again = try? FilterParser.parse(canonical) {
            guard again == expression else {
                throw FuzzFailure(.filterExpression, "canonical text parses to the same expression",
                                  "\(text.debugDescription) -> \(canonical.debugDescription)")
            }
        } else if canonical.utf8.count <= FilterParser.maxLength / 2 && depth(expression) < FilterParser.maxDepth / 2 {
            throw FuzzFailure(.filterExpression, "canonical text parses", "\(text.debugDescription) -> \(canonical.debugDescription)")
        }
        let admitted = expression.admits(subject)
        guard FilterExpression.not(expression).admits(subject) == !admitted,
            FilterExpression.or(expression, expression).admits(subject) == admitted,
            FilterExpression.and(expression, expression).admits(subject) == admitted
        else {
            throw FuzzFailure(.filterExpression, "evaluation is consistent", text.debugDescription)
        }
    }

    static func depth(_ expression: FilterExpression) -> Int {
        switch expression {
        case .or(let a, let b), .and(let a, let b): 1 + max(depth(a), depth(b))
        case .not(let inner): 1 + depth(inner)
        case .compare: 1
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessJSON

/// The App Context filter language (`filter=` on list endpoints, spec modern §1.8), pure: a
/// parser to an expression tree and an evaluator over a field resolver.
///
/// Grammar (precedence low to high): `a || b`, `a && b`, `!a`, `( … )`, comparisons
/// `field OP literal` with `==` `!=` `<` `<=` `>` `>=` and `LIKE` (any case; `*` matches any run of
/// characters). Fields are dotted names (`name`, `custom.role`, `channel.custom.public`); literals
/// are double- or single-quoted strings (`\` escapes the next character), numbers, `true`, `false`
/// and `null`.
///
/// UNVERIFIED (no recording; docs and pubnub/skills name the operators only): `LIKE` compares case
/// sensitively; ordering operators compare strings by bytes and numbers by value and are false
/// across types; a missing field equals only `null`.
enum ObjectsFilter {
    /// A parsed filter.
    indirect enum Expression: Sendable, Hashable {
        case and(Expression, Expression)
        case or(Expression, Expression)
        case not(Expression)
        case compare(field: String, op: Operator, value: JSONValue)
    }

    enum Operator: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case like = "LIKE"
    }

    /// Why a filter does not parse, with the byte offset where it went wrong.
    struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at position \(offset)" }
    }

    /// The deepest nesting of parentheses and `!` accepted (a hostile filter cannot exhaust the stack).
    static let maxDepth = 32

    static func parse(_ text: String) -> Result<Expression, ParseError> {
        var parser = Parser(bytes: Array(text.utf8))
        do throws(ParseError) {
            let expression = try parser.parseOr(depth: 0)
            parser.skipSpaces()
            guard parser.position == parser.bytes.count else { throw parser.error("unexpected input") }
            return .success(expression)
        } catch {
            return .failure(error)
        }
    }

    /// Whether `expression` holds for a record whose fields `resolve` reads (`nil` = no such field).
    static func matches(_ expression: Expression, _ resolve: (String) -> JSONValue?) -> Bool {
        switch expression {
        case .and(let a, let b): return matches(a, resolve) && matches(b, resolve)
        case .or(let a, let b): return matches(a, resolve) || matches(b, resolve)
        case .not(let a): return !matches(a, resolve)
        case .compare(let field, let op, let literal):
            let value = resolve(field) ?? .null
            switch op {
            case .equal: return equal(value, literal)
            case .notEqual: return !equal(value, literal)
            case .like:
                guard case .string(let text) = value, case .string(let pattern) = literal else { return false }
                return like(Array(text.utf8), Array(pattern.utf8))
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                guard let order = compare(value, literal) else { return false }
                switch op {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                default: return order >= 0
                }
            }
        }
    }

    private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let order = compare(a, b) { return order == 0 }
        return a == b
    }

    /// -1, 0, 1 for two strings (bytes) or two numbers (value); `nil` otherwise.
    private static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x == y ? 0 : (x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1)
        case (.number, .number):
            guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
            return x == y ? 0 : (x < y ? -1 : 1)
        default:
            return nil
        }
    }

    /// `*` matches any run of bytes; everything else itself (iterative, with one backtrack point).
    static func like(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
        let star = UInt8(ascii: "*")
        var t = 0, p = 0, starAt = -1, resume = 0
        while t < text.count {
            if p < pattern.count && pattern[p] == star {
                starAt = p
                resume = t
                p += 1
            } else if p < pattern.count && pattern[p] == text[t] {
                p += 1
                t += 1
            } else if starAt >= 0 {
                p = starAt + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> ParseError { ParseError(offset: position, message: message) }

        mutating func skipSpaces() {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        }

        mutating func take(_ token: String) -> Bool {
            skipSpaces()
            let t = Array(token.utf8)
            guard position + t.count <= bytes.count, Array(bytes[position..<position + t.count]) == t else { return false }
            position += t.count
            return true
        }

        mutating func parseOr(depth: Int) throws(ParseError) -> Expression {
            var left = try parseAnd(depth: depth)
            while take("||") { left = .or(left, try parseAnd(depth: depth)) }
            return left
        }

        mutating func parseAnd(depth: Int) throws(ParseError) -> Expression {
            var left = try parseUnary(depth: depth)
            while take("&&") { left = .and(left, try parseUnary(depth: depth)) }
            return left
        }

        mutating func parseUnary(depth: Int) throws(ParseError) -> Expression {
            guard depth < ObjectsFilter.maxDepth else { throw error("expression nested too deeply") }
            skipSpaces()
            if position < bytes.count, bytes[position] == UInt8(ascii: "!"),
                position + 1 >= bytes.count || bytes[position + 1] != UInt8(ascii: "=") {
                position += 1
                return .not(try parseUnary(depth: depth + 1))
            }
            if take("(") {
                let inner = try parseOr(depth: depth + 1)
                guard take(")") else { throw error("expected ')'") }
                return inner
            }
            return try parseComparison()
        }

        mutating func parseComparison() throws(ParseError) -> Expression {
            skipSpaces()
            let field = fieldName()
            guard !field.isEmpty else { throw error("expected a field name") }
            skipSpaces()
            let op: Operator
            if take("==") { op = .equal } else if take("!=") { op = .notEqual } else if take("<=") { op = .lessOrEqual }
            else if take(">=") { op = .greaterOrEqual } else if take("<") { op = .less } else if take(">") { op = .greater }
            else if takeKeyword("like") { op = .like } else { throw error("expected an operator after \(field)") }
            let value = try literal()
            if op == .like, value.stringValue == nil { throw error("LIKE needs a string") }
            return .compare(field: field, op: op, value: value)
        }

        mutating func fieldName() -> String {
            let start = position
            while position < bytes.count {
                let b = bytes[position]
                let isName = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
                guard isName else { break }
                position += 1
            }
            let name = String(decoding: bytes[start..<position], as: UTF8.self)
            if name.hasPrefix(".") || name.hasSuffix(".") || name.contains("..") { position = start; return "" }
            return name
        }

        mutating func takeKeyword(_ word: String) -> Bool {
            skipSpaces()
            let w = Array(word.utf8)
            guard position + w.count <= bytes.count else { return false }
            for (offset, byte) in w.enumerated() where bytes[position + offset] | 0x20 != byte { return false }
            let after = position + w.count
            if after < bytes.count, isWordByte(bytes[after]) { return false }
            position = after
            return true
        }

        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_")
        }

        mutating func literal() throws(ParseError) -> JSONValue {
            skipSpaces()
            guard position < bytes.count else { throw error("expected a value") }
            let first = bytes[position]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                position += 1
                var out: [UInt8] = []
                while position < bytes.count, bytes[position] != first {
                    if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count { position += 1 }
                    out.append(bytes[position])
                    position += 1
                }
                guard position < bytes.count else { throw error("unterminated string") }
                position += 1
                return .string(String(decoding: out, as: UTF8.self))
            }
            if takeKeyword("true") { return .bool(true) }
            if takeKeyword("false") { return .bool(false) }
            if takeKeyword("null") { return .null }
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            while position < bytes.count, (bytes[position] >= 0x30 && bytes[position] <= 0x39) || bytes[position] == UInt8(ascii: ".") {
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard !text.isEmpty, text != "-", Double(text) != nil else {
                position = start
                throw error("expected a quoted string, a number, true, false or null")
            }
            return .number(text)
        }
    }
}

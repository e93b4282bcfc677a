// SPDX-License-Identifier: MIT
import HarnessJSON

/// What a filter sees of one message: its `meta`, its payload and its publisher.
public struct FilterSubject: Sendable {
    public var meta: JSONValue?
    public var data: JSONValue?
    public var publisher: String?

    public init(meta: JSONValue?, data: JSONValue?, publisher: String?) {
        self.meta = meta
        self.data = data
        self.publisher = publisher
    }
}

extension FilterExpression {
    /// Whether `subject` passes the filter. Pure. Semantics (UNVERIFIED beyond the docs excerpt,
    /// spec §4, §9): a missing field compares false (so `!=` on it is true); `==` and `!=` compare
    /// numbers numerically (a numeric string counts as a number) and strings exactly; ordering
    /// compares numbers only; `LIKE` matches `*` as any run of characters, case-sensitively;
    /// `CONTAINS` is substring on strings and membership on arrays.
    public func admits(_ subject: FilterSubject) -> Bool {
        switch self {
        case .or(let left, let right): return left.admits(subject) || right.admits(subject)
        case .and(let left, let right): return left.admits(subject) && right.admits(subject)
        case .not(let inner): return !inner.admits(subject)
        case .compare(let left, let op, let right):
            guard let lhs = left.value(in: subject), let rhs = right.value(in: subject) else {
                return op == .notEqual
            }
            return Self.compare(lhs, op, rhs)
        }
    }

    static func compare(_ lhs: JSONValue, _ op: FilterOperator, _ rhs: JSONValue) -> Bool {
        switch op {
        case .equal: return equal(lhs, rhs)
        case .notEqual: return !equal(lhs, rhs)
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            guard let a = number(lhs), let b = number(rhs) else { return false }
            switch op {
            case .less: return a < b
            case .greater: return a > b
            case .lessOrEqual: return a <= b
            default: return a >= b
            }
        case .like:
            guard let string = Self.text(lhs), let pattern = Self.text(rhs) else { return false }
            return FilterGlob.matches(Array(string.utf8), pattern: Array(pattern.utf8))
        case .contains:
            if case .array(let items) = lhs { return items.contains { equal($0, rhs) } }
            guard let string = Self.text(lhs), let part = Self.text(rhs) else { return false }
            return part.isEmpty || string.contains(part)
        }
    }

    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if let a = number(lhs), let b = number(rhs) { return a == b }
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.bool(let a), .string(let b)), (.string(let b), .bool(let a)): return String(a) == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// A number, or a string holding one.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let text): return Double(text)
        case .string(let text): return text.isEmpty ? nil : Double(text)
        default: return nil
        }
    }

    /// A string, or a number's literal.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        default: return nil
        }
    }
}

extension FilterOperand {
    func value(in subject: FilterSubject) -> JSONValue? {
        switch self {
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .path(let path): return path.value(in: subject)
        case .modulo(let left, let right):
            guard let a = left.value(in: subject).flatMap(FilterExpression.number),
                let b = right.value(in: subject).flatMap(FilterExpression.number), b != 0
            else { return nil }
            return .double(a.truncatingRemainder(dividingBy: b))
        }
    }
}

extension FilterPath {
    func value(in subject: FilterSubject) -> JSONValue? {
        var current: JSONValue?
        switch root {
        case .uuid: return subject.publisher.map(JSONValue.string)
        case .meta: current = subject.meta
        case .data: current = subject.data
        }
        for step in steps {
            switch step {
            case .member(let name): current = current?[name]
            case .index(let index): current = current?[index]
            }
            if current == nil { return nil }
        }
        return current
    }
}

/// `*` wildcard matching of `LIKE` (any run of bytes, including none).
enum FilterGlob {
    static func matches(_ text: [UInt8], pattern: [UInt8]) -> Bool {
        var t = 0, p = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < pattern.count && pattern[p] != UInt8(ascii: "*") && pattern[p] == text[t] {
                t += 1
                p += 1
            } else if p < pattern.count && pattern[p] == UInt8(ascii: "*") {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}

// SPDX-License-Identifier: MIT

/// A place in a JSON document: the keys and indexes from the root (`$.m[0].p.t`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public static let root = JSONPath()

    public func appending(_ component: Component) -> JSONPath { JSONPath(components + [component]) }

    /// `$`, then `.key` (or `["key"]` when it is not a plain name) and `[index]` per step.
    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key) where JSONPathPattern.isPlainName(key): text += "." + key
            case .key(let key): text += "[\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A pattern over ``JSONPath``s, as comparison rules write them: `$` the root, `.name` or
/// `["name"]` a member, `[3]` an element, `[*]` every element, `.*` every member, `..name` the
/// member `name` at any depth below.
public struct JSONPathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case anyElement
        case anyMember
        case descendant(String)
    }

    let steps: [Step]
    public let description: String

    /// Parses `text`; throws ``RecordingError/invalidRule(_:reason:)`` when it is not a pattern.
    public init(_ text: String) throws(RecordingError) {
        description = text
        var steps: [Step] = []
        let chars = Array(text)
        guard chars.first == "$" else { throw .invalidRule(text, reason: "a path starts with $") }
        var index = 1
        func name() -> String {
            var out = ""
            while index < chars.count, chars[index] != ".", chars[index] != "[" {
                out.append(chars[index])
                index += 1
            }
            return out
        }
        while index < chars.count {
            switch chars[index] {
            case ".":
                index += 1
                if index < chars.count, chars[index] == "." {
                    index += 1
                    let member = name()
                    guard !member.isEmpty else { throw .invalidRule(text, reason: "\"..\" needs a member name") }
                    steps.append(.descendant(member))
                } else {
                    let member = name()
                    guard !member.isEmpty else { throw .invalidRule(text, reason: "\".\" needs a member name or *") }
                    steps.append(member == "*" ? .anyMember : .member(member))
                }
            case "[":
                guard let close = chars[index...].firstIndex(of: "]") else { throw .invalidRule(text, reason: "unclosed [") }
                let inner = String(chars[(index + 1)..<close])
                index = close + 1
                if inner == "*" {
                    steps.append(.anyElement)
                } else if let position = Int(inner), position >= 0 {
                    steps.append(.index(position))
                } else if inner.count >= 2, inner.first == "\"", inner.last == "\"" {
                    steps.append(.member(String(inner.dropFirst().dropLast())))
                } else {
                    throw .invalidRule(text, reason: "[\(inner)] is neither an index, * nor a quoted name")
                }
            default:
                throw .invalidRule(text, reason: "unexpected \"\(chars[index])\"")
            }
        }
        self.steps = steps
    }

    /// Whether `path` is one of the places this pattern names.
    public func matches(_ path: JSONPath) -> Bool { Self.match(steps[...], path.components[...]) }

    private static func match(_ steps: ArraySlice<Step>, _ components: ArraySlice<JSONPath.Component>) -> Bool {
        guard let step = steps.first else { return components.isEmpty }
        if case .descendant(let member) = step {
            // Any number of components, then the member.
            var rest = components
            while !rest.isEmpty {
                if case .key(member) = rest.first!, match(steps.dropFirst(), rest.dropFirst()) { return true }
                rest = rest.dropFirst()
            }
            return false
        }
        guard let component = components.first else { return false }
        let fits: Bool = switch (step, component) {
        case (.member(let wanted), .key(let key)): wanted == key
        case (.anyMember, .key), (.anyElement, .index): true
        case (.index(let wanted), .index(let position)): wanted == position
        default: false
        }
        return fits && match(steps.dropFirst(), components.dropFirst())
    }

    /// A member name written after a dot: letters, digits, `_` and `-`, not starting with a digit.
    static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
    }
}

/// Compiled ``ComparisonRules``: the question each comparison asks of a path.
struct CompiledRules: Sendable {
    let formatOnly: [JSONPathPattern]
    let unordered: [JSONPathPattern]
    let learn: [JSONPathPattern]
    let ignore: [JSONPathPattern]

    init(_ rules: ComparisonRules) throws(RecordingError) {
        func compile(_ texts: [String]) throws(RecordingError) -> [JSONPathPattern] {
            var out: [JSONPathPattern] = []
            for text in texts { out.append(try JSONPathPattern(text)) }
            return out
        }
        formatOnly = try compile(rules.formatOnly)
        unordered = try compile(rules.unordered)
        learn = try compile(rules.learn)
        ignore = try compile(rules.ignore)
    }

    func isIgnored(_ path: JSONPath) -> Bool { ignore.contains { $0.matches(path) } }
    func isFormatOnly(_ path: JSONPath) -> Bool { formatOnly.contains { $0.matches(path) } || isLearned(path) }
    func isUnordered(_ path: JSONPath) -> Bool { unordered.contains { $0.matches(path) } }
    func isLearned(_ path: JSONPath) -> Bool { learn.contains { $0.matches(path) } }
}

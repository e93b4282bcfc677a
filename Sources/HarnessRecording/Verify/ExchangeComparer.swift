// SPDX-License-Identifier: MIT
import HarnessJSON

/// An answer as `verify` got it, ready to compare: the body without its content coding, and the
/// replay's fresh keys and names already mapped back to the recording's.
struct ReplayedAnswer: Sendable, Hashable {
    var status: Int
    var headers: [NameValue]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

/// A server-chosen value met at a `learn` path (or a token): the recorded value and the replayed one.
struct LearnedValue: Sendable, Hashable {
    var recorded: String
    var actual: String
    var path: String
}

/// Compares a replayed answer with the recorded one (pure: two answers and the rules in, the
/// differences and the values learned out): status, Content-Type and Content-Encoding,
/// cross-origin and caching fields, `Date`, `Location`, `ETag`, then the body: JSON by structure
/// (types, keys, array lengths), literal values, and the formats of server-chosen values.
enum ExchangeComparer {
    struct Result: Sendable {
        var differences: [Difference] = []
        var learned: [LearnedValue] = []
    }

    /// - Parameters:
    ///   - tokenShapes: the recorded token placeholders and their shapes (``RecordedKey/tokenShape``).
    ///   - known: values learned from earlier answers (recorded → replayed): a literal that differs
    ///     only by such a mapping is the same value (a file id an earlier answer chose, in an event).
    ///   - tokenRename: maps a name inside a replayed token back to the recording's.
    static func compare(
        recorded: RecordedResponse, replayed: ReplayedAnswer, rules: CompiledRules, tokenShapes: [String: [String]?],
        known: [String: String] = [:], tokenRename: @escaping (String) -> String = { $0 }
    ) -> Result {
        var result = Result()
        if recorded.status != replayed.status {
            result.differences.append(Difference(.status, "status", recorded: String(recorded.status), actual: String(replayed.status)))
        }
        result.differences += compareHeaders(recorded.headers, replayed.headers)
        var walker = JSONWalker(rules: rules, tokenShapes: tokenShapes, known: known, tokenRename: tokenRename)
        walker.compareBodies(recorded.bodyBytes, replayed.body)
        result.differences += walker.differences
        result.learned = walker.learned
        return result
    }

    // MARK: - Headers

    /// Fields compared by value (exactly), and fields whose presence (and format) is compared.
    static let valueFields = ["content-type", "content-encoding", "cache-control"]
    static let presenceFields = ["date", "location", "etag"]

    static func compareHeaders(_ recorded: [NameValue], _ replayed: [NameValue]) -> [Difference] {
        func values(_ fields: [NameValue]) -> [String: String] {
            var out: [String: String] = [:]
            for field in fields { out[field.name.lowercased()] = out[field.name.lowercased()].map { $0 + ", " + field.value } ?? field.value }
            return out
        }
        let old = values(recorded)
        let new = values(replayed)
        var differences: [Difference] = []
        let crossOrigin = Set(old.keys.filter { $0.hasPrefix("access-control-") } + new.keys.filter { $0.hasPrefix("access-control-") })
        for name in valueFields + crossOrigin.sorted() where old[name] != new[name] {
            differences.append(Difference(.header, "header " + ForwardedMessages.displayName(name), recorded: old[name], actual: new[name]))
        }
        for name in presenceFields {
            switch (old[name], new[name]) {
            case (nil, nil): continue
            case (let was?, nil):
                differences.append(Difference(.header, "header " + ForwardedMessages.displayName(name), recorded: was, actual: nil))
            case (nil, let now?):
                differences.append(Difference(.header, "header " + ForwardedMessages.displayName(name), recorded: nil, actual: now))
            case (let was?, let now?):
                let ok = switch name {
                case "date": HTTPDateFormat.isValid(now)
                case "location": ValueFormat.of(.string(now)) == .url || now.hasPrefix("/")
                default: now.hasPrefix("\"") == was.hasPrefix("\"")
                }
                if !ok {
                    differences.append(Difference(.header, "header " + ForwardedMessages.displayName(name), recorded: was, actual: now,
                                                  note: "another format"))
                }
            }
        }
        return differences
    }
}

/// `Date` values: `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7 IMF-fixdate).
enum HTTPDateFormat {
    static func isValid(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 29, b[3] == 0x2C, b[4] == 0x20, b[25...] == Array(" GMT".utf8)[...] else { return false }
        func digits(_ range: ClosedRange<Int>) -> Bool { range.allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 } }
        return digits(5...6) && digits(12...15) && digits(17...18) && b[19] == 0x3A && digits(20...21) && b[22] == 0x3A && digits(23...24)
    }
}

/// The body comparison: a walk over both JSON trees that collects differences and learned values.
struct JSONWalker {
    let rules: CompiledRules
    let tokenShapes: [String: [String]?]
    let known: [String: String]
    let tokenRename: (String) -> String
    var differences: [Difference] = []
    var learned: [LearnedValue] = []

    init(rules: CompiledRules, tokenShapes: [String: [String]?], known: [String: String], tokenRename: @escaping (String) -> String) {
        self.rules = rules
        self.tokenShapes = tokenShapes
        self.known = known
        self.tokenRename = tokenRename
    }

    mutating func compareBodies(_ recorded: [UInt8], _ replayed: [UInt8]) {
        if recorded.isEmpty && replayed.isEmpty { return }
        guard !rules.isIgnored(.root) else { return }
        if let old = try? JSONValue.parse(recorded) {
            guard let new = try? JSONValue.parse(replayed) else {
                differences.append(Difference(.body, "$", recorded: Self.excerpt(recorded), actual: Self.excerpt(replayed),
                                              note: "the replayed body is not JSON"))
                return
            }
            compare(old, new, at: .root)
            return
        }
        if recorded != replayed {
            let isText = String(validating: recorded, as: UTF8.self) != nil
            differences.append(Difference(.body, "$", recorded: Self.excerpt(recorded), actual: Self.excerpt(replayed),
                                          note: isText ? "text differs" : "\(recorded.count) bytes recorded, \(replayed.count) replayed"))
        }
    }

    private mutating func compare(_ old: JSONValue, _ new: JSONValue, at path: JSONPath) {
        if rules.isIgnored(path) { return }
        if case .string(let text) = old, let shape = tokenShapes[text] {
            compareToken(placeholder: text, shape: shape, new, at: path)
            return
        }
        if rules.isFormatOnly(path) {
            let oldFormat = ValueFormat.of(old)
            let newFormat = ValueFormat.of(new)
            if oldFormat != newFormat {
                differences.append(Difference(.format, path.description, recorded: old.jsonText, actual: new.jsonText,
                                              note: "\(oldFormat.rawValue) recorded, \(newFormat.rawValue) replayed"))
            } else if rules.isLearned(path), let was = Self.scalarText(old), let now = Self.scalarText(new) {
                learned.append(LearnedValue(recorded: was, actual: now, path: path.description))
            }
            return
        }
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                let child = path.appending(.key(key))
                if let other = b[key] {
                    compare(value, other, at: child)
                } else if !rules.isIgnored(child) {
                    differences.append(Difference(.missing, child.description, recorded: value.jsonText, actual: nil))
                }
            }
            for (key, value) in b where a[key] == nil {
                let child = path.appending(.key(key))
                if !rules.isIgnored(child) { differences.append(Difference(.extra, child.description, recorded: nil, actual: value.jsonText)) }
            }
        case (.array(let a), .array(let b)):
            if rules.isUnordered(path) {
                compareUnordered(a, b, at: path)
                return
            }
            if a.count != b.count {
                differences.append(Difference(.length, path.description, recorded: String(a.count), actual: String(b.count),
                                              note: "\(a.count) elements recorded, \(b.count) replayed"))
            }
            for index in 0..<min(a.count, b.count) { compare(a[index], b[index], at: path.appending(.index(index))) }
        default:
            if old.typeName != new.typeName {
                differences.append(Difference(.type, path.description, recorded: old.jsonText, actual: new.jsonText,
                                              note: "\(old.typeName) recorded, \(new.typeName) replayed"))
            } else if old != new, !isKnownMapping(old, new) {
                differences.append(Difference(.value, path.description, recorded: old.jsonText, actual: new.jsonText))
            }
        }
    }

    /// Whether `new` is what an earlier answer mapped `old` to.
    private func isKnownMapping(_ old: JSONValue, _ new: JSONValue) -> Bool {
        guard let was = Self.scalarText(old), let now = Self.scalarText(new) else { return false }
        return known[was] == now
    }

    private mutating func compareToken(placeholder: String, shape: [String]?, _ new: JSONValue, at path: JSONPath) {
        guard case .string(let text) = new, let replayedShape = TokenShape.of(text, rename: tokenRename) else {
            differences.append(Difference(.format, path.description, recorded: placeholder, actual: new.jsonText,
                                          note: "a token recorded, not one replayed"))
            return
        }
        learned.append(LearnedValue(recorded: placeholder, actual: text, path: path.description))
        guard let shape, shape != replayedShape else { return }
        let missing = Set(shape).subtracting(replayedShape).sorted()
        let extra = Set(replayedShape).subtracting(shape).sorted()
        differences.append(Difference(.format, path.description, recorded: placeholder, actual: "(a token)",
                                      note: "token keys differ: missing \(missing), extra \(extra)"))
    }

    /// An unordered array: the same elements, in any order (each compared as canonical JSON).
    private mutating func compareUnordered(_ a: [JSONValue], _ b: [JSONValue], at path: JSONPath) {
        var remaining: [String: Int] = [:]
        for item in b { remaining[Self.canonical(item), default: 0] += 1 }
        var missing: [String] = []
        for item in a {
            let key = Self.canonical(item)
            if let count = remaining[key], count > 0 { remaining[key] = count - 1 } else { missing.append(key) }
        }
        let extra = remaining.flatMap { key, count in Array(repeating: key, count: count) }.sorted()
        guard !missing.isEmpty || !extra.isEmpty else { return }
        differences.append(Difference(a.count == b.count ? .value : .length, path.description,
                                      recorded: "[" + missing.joined(separator: ",") + "]", actual: "[" + extra.joined(separator: ",") + "]",
                                      note: "unordered: elements only recorded, elements only replayed"))
    }

    /// JSON text with object members sorted by key (equal values, equal text).
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).jsonText + ":" + canonical($0.value) }
                .joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
        case .number(let text): return Int64(text).map(String.init) ?? Double(text).map { JSONValue.double($0).jsonText } ?? text
        default: return value.jsonText
        }
    }

    /// A string's text or a number's literal; nil for other values.
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text), .number(let text): text
        default: nil
        }
    }

    /// At most 200 characters of a body, for a difference.
    static func excerpt(_ bytes: [UInt8]) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "(\(bytes.count) bytes)" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

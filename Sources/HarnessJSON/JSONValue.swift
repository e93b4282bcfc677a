// SPDX-License-Identifier: MIT

/// A JSON value (RFC 8259) as the harness reads and writes it: numbers keep their literal text, so
/// a 17-digit timetoken or a 64-bit seed survives exactly, and object members keep document order.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number as its JSON literal, e.g. `"17113796871100314"` or `"0.25"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object(JSONObject)

    /// A number from an integer.
    public static func int(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// A number from a double: integral values print as integers, NaN and infinities (which JSON
    /// cannot express) as `null`.
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// The member `key` of an object (first occurrence), or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    /// The string, or `nil` for other values.
    public var stringValue: String? { if case .string(let text) = self { return text }; return nil }
    /// The boolean, or `nil`.
    public var boolValue: Bool? { if case .bool(let flag) = self { return flag }; return nil }
    /// The elements of an array, or `nil`.
    public var arrayValue: [JSONValue]? { if case .array(let items) = self { return items }; return nil }
    /// The members of an object, or `nil`.
    public var objectValue: JSONObject? { if case .object(let members) = self { return members }; return nil }

    /// The number exactly as an integer (`17`, also `1.7e1`'s integral value is not taken), or `nil`.
    public var int64Value: Int64? { if case .number(let text) = self { return Int64(text) }; return nil }
    /// ``int64Value`` as `Int`.
    public var intValue: Int? { int64Value.map(Int.init) }
    /// The number as a double (approximate above 2^53), or `nil`.
    public var doubleValue: Double? { if case .number(let text) = self { return Double(text) }; return nil }
    /// A timetoken given either as a JSON number or as a string of digits, exactly.
    public var timetokenValue: UInt64? {
        switch self {
        case .number(let text), .string(let text): UInt64(text)
        default: nil
        }
    }

    /// The type name used in error messages (`"a string"`).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Whether `self` contains `pattern`: objects need every member of the pattern (recursively),
    /// arrays need the same length and element-wise containment, scalars need equality.
    public func contains(_ pattern: JSONValue) -> Bool {
        switch (self, pattern) {
        case (.object(let actual), .object(let wanted)):
            wanted.allSatisfy { key, value in actual[key].map { $0.contains(value) } ?? false }
        case (.array(let actual), .array(let wanted)):
            actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.contains($1) }
        default:
            self == pattern
        }
    }
}

/// Equality is JSON's: numbers by value (`1` equals `1.0`; integers compare exactly), objects
/// regardless of member order.
extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b || Self.sameNumber(a, b)
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }

    private static func sameNumber(_ a: String, _ b: String) -> Bool {
        if let x = Int64(a), let y = Int64(b) { return x == y }
        guard let x = Double(a), let y = Double(b) else { return false }
        return x == y
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        case .number(let text): hasher.combine(Double(text) ?? 0)
        case .string(let text): hasher.combine(text)
        case .array(let items): hasher.combine(items)
        case .object(let members): hasher.combine(members)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

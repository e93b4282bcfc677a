// SPDX-License-Identifier: MIT

/// A JSON value. Integers are kept exact (17-digit timetokens do not fit a Double's mantissa).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array, or nil.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    /// The string, or nil for other values.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The integer (also from an integral double), or nil.
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.0e18: return Int64(d)
        default: return nil
        }
    }
    /// The boolean, or nil.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The members of an object, or nil.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }

    /// A timetoken given either as a JSON number or as a string of digits.
    public var timetokenValue: UInt64? {
        switch self {
        case .int(let i) where i >= 0: return UInt64(i)
        case .string(let s): return UInt64(s)
        default: return nil
        }
    }

    /// Compact JSON text with object keys sorted (deterministic).
    public var jsonText: String {
        var out = ""
        JSONWriter.write(self, into: &out)
        return out
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// Parses JSON bytes.
    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .double(value) }
}

/// Why JSON text could not be parsed.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset where parsing failed.
    public let offset: Int
    public let reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

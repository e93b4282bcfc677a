// SPDX-License-Identifier: MIT
internal import PubNubCrypto

/// A JSON value with ordered object members and numbers kept as their literal text.
///
/// The fault layer's own JSON: plans are decoded from it with field-path errors, and admin
/// responses and journal entries are written from it with a stable key order. Numbers keep
/// their text so a 64-bit seed survives exactly.
public enum FaultJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number as its JSON literal, e.g. `"17"` or `"0.25"`.
    case number(String)
    case string(String)
    case array([FaultJSON])
    /// Members in document order.
    case object([(String, FaultJSON)])

    public static func == (lhs: FaultJSON, rhs: FaultJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let text): hasher.combine(text)
        case .string(let text): hasher.combine(text)
        case .array(let items): hasher.combine(items)
        case .object(let members):
            for (name, value) in members {
                hasher.combine(name)
                hasher.combine(value)
            }
        }
    }

    /// A number from an integer.
    public static func int<T: BinaryInteger>(_ value: T) -> FaultJSON { .number(String(value)) }

    /// A number from a double (`0` for NaN and infinities, which JSON cannot express).
    public static func double(_ value: Double) -> FaultJSON { .number(value.isFinite ? String(value) : "0") }

    /// The member named `name` of an object (first occurrence).
    public subscript(_ name: String) -> FaultJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == name })?.1
    }

    /// The type name used in error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

// MARK: - Writing

extension FaultJSON {
    /// The compact JSON text (no spaces), members in order.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The compact JSON text as UTF-8 bytes.
    public var bytes: [UInt8] { Array(text.utf8) }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(name, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Writes `text` as a JSON string literal (RFC 8259 §7).
    static func writeString(_ text: String, to out: inout String) {
        out += JSONText.stringLiteral(text)
    }
}

// MARK: - Codable bridge

/// Through `Codable` (e.g. `JSONDecoder`), object members come in the decoder's key order, which
/// need not be the document's; `FaultJSON.parse` keeps the document order.
extension FaultJSON: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var members: [(String, FaultJSON)] = []
            for key in keyed.allKeys {
                members.append((key.stringValue, try keyed.decode(FaultJSON.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [FaultJSON] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(FaultJSON.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(UInt64.self) {
            self = .number(String(value))
        } else if let value = try? single.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? single.decode(Double.self) {
            self = .number(String(value))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            var single = encoder.singleValueContainer()
            if let value = UInt64(text) {
                try single.encode(value)
            } else if let value = Int64(text) {
                try single.encode(value)
            } else {
                try single.encode(Double(text) ?? 0)
            }
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let items):
            var unkeyed = encoder.unkeyedContainer()
            for item in items { try unkeyed.encode(item) }
        case .object(let members):
            var keyed = encoder.container(keyedBy: Key.self)
            for (name, value) in members { try keyed.encode(value, forKey: Key(stringValue: name)) }
        }
    }
}

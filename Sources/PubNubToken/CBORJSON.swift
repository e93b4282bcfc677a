// SPDX-License-Identifier: MIT
import HarnessJSON

/// Conversions between JSON values and CBOR items for token metadata.
public enum CBORJSON {
    /// JSON to CBOR: integers that fit 64 bits as integers, other numbers as floats, object keys as text.
    public static func cbor(_ value: JSONValue) -> CBORValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text):
            if let integer = Int64(text) { return .int(integer) }
            return .float(Double(text) ?? 0)
        case .string(let text): return .text(text)
        case .array(let items): return .array(items.map(cbor))
        case .object(let members): return .map(members.map { CBORMapEntry(.text($0.key), cbor($0.value)) })
        }
    }

    /// CBOR to JSON: byte strings become text (UTF-8), map keys their text.
    public static func json(_ value: CBORValue) -> JSONValue {
        switch value {
        case .unsigned, .negative:
            if let integer = value.int64Value { return .int(integer) }
            if case .unsigned(let n) = value { return .number(String(n)) }
            if case .negative(let n) = value { return .number("-" + String(UInt64(n) &+ 1)) }
            return .null
        case .float(let number): return .double(number)
        case .bytes(let raw): return .string(String(decoding: raw, as: UTF8.self))
        case .text(let text): return .string(text)
        case .array(let items): return .array(items.map(json))
        case .map(let entries):
            return .object(JSONObject(entries.map { entry -> (String, JSONValue) in
                switch entry.key {
                case .text(let name): (name, json(entry.value))
                case .bytes(let raw): (String(decoding: raw, as: UTF8.self), json(entry.value))
                default: (String(describing: json(entry.key)), json(entry.value))
                }
            }))
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        }
    }
}

// SPDX-License-Identifier: MIT

/// One CBOR data item (RFC 8949), the subset Access Manager tokens use: integers, byte and text
/// strings, arrays, maps with their keys in order, booleans, null and floats.
public indirect enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// A negative integer `-1 - n`, stored as `n` (major type 1).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// A map, its entries in encoded order (keys may repeat in malformed input; readers take the first).
    case map([CBORMapEntry])
    case bool(Bool)
    case null
    case float(Double)

    /// An integer item for `value` (major type 0 or 1).
    public static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The integer value, if this is an integer that fits `Int64`.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The value under the byte-string key `key` (Access Manager tokens key their maps with byte strings).
    public subscript(bytesKey key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .bytes(Array(key.utf8)) }?.value
    }

    /// The map's keys read as UTF-8 text whether encoded as byte or text strings; `nil` for other key kinds.
    public var textKeyedEntries: [(key: String, value: CBORValue)]? {
        guard case .map(let entries) = self else { return nil }
        var out: [(key: String, value: CBORValue)] = []
        for entry in entries {
            switch entry.key {
            case .text(let name): out.append((name, entry.value))
            case .bytes(let raw): out.append((String(decoding: raw, as: UTF8.self), entry.value))
            default: return nil
            }
        }
        return out
    }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    public var key: CBORValue
    public var value: CBORValue

    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}

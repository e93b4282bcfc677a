// SPDX-License-Identifier: MIT
internal import CCBOR

#if canImport(Glibc)
import Glibc
#endif

/// Why CBOR bytes could not be read.
public enum CBORError: Error, Sendable, Hashable {
    /// libcbor refused the bytes (truncated, malformed, or an unsupported form such as indefinite lengths).
    case malformed
    /// Bytes follow the first data item.
    case trailingBytes
    /// Nesting deeper than the reader allows.
    case tooDeep
}

/// Encodes and decodes `CBORValue` with libcbor. Integers and lengths take their shortest form,
/// as the live service's tokens do.
public enum CBORCodec {
    /// The deepest nesting `decode` accepts (token metadata is user JSON).
    public static let maxDepth = 64

    /// The encoded bytes of `value`.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        guard let item = build(value) else { return [] }
        var itemRef: UnsafeMutablePointer<cbor_item_t>? = item
        defer { cbor_decref(&itemRef) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size = 0
        let written = cbor_serialize_alloc(item, &buffer, &size)
        defer { free(buffer) }
        guard written > 0, let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: written))
    }

    /// The single data item in `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        guard !bytes.isEmpty else { throw .malformed }
        guard CBORPrecheck.isPlausible(bytes) else { throw .malformed }
        var result = cbor_load_result()
        let loaded = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard var item = loaded, result.error.code == CBOR_ERR_NONE else {
            var leaked = loaded
            if leaked != nil { cbor_decref(&leaked) }
            throw .malformed
        }
        defer {
            var ref: UnsafeMutablePointer<cbor_item_t>? = item
            cbor_decref(&ref)
        }
        guard result.read == bytes.count else { throw .trailingBytes }
        return try value(of: &item, depth: 0)
    }

    private static func value(of item: inout UnsafeMutablePointer<cbor_item_t>, depth: Int) throws(CBORError) -> CBORValue {
        guard depth <= maxDepth else { throw .tooDeep }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            guard cbor_bytestring_is_definite(item) else { throw .malformed }
            let count = cbor_bytestring_length(item)
            guard count > 0, let handle = cbor_bytestring_handle(item) else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: handle, count: count)))
        case CBOR_TYPE_STRING:
            guard cbor_string_is_definite(item) else { throw .malformed }
            let count = cbor_string_length(item)
            guard count > 0, let handle = cbor_string_handle(item) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: handle, count: count), as: UTF8.self))
        case CBOR_TYPE_ARRAY:
            guard cbor_array_is_definite(item) else { throw .malformed }
            let count = cbor_array_size(item)
            guard count > 0, let handle = cbor_array_handle(item) else { return .array([]) }
            var out: [CBORValue] = []
            out.reserveCapacity(count)
            for index in 0..<count {
                guard var child = handle[index] else { throw .malformed }
                out.append(try value(of: &child, depth: depth + 1))
            }
            return .array(out)
        case CBOR_TYPE_MAP:
            guard cbor_map_is_definite(item) else { throw .malformed }
            let count = cbor_map_size(item)
            guard count > 0, let handle = cbor_map_handle(item) else { return .map([]) }
            var out: [CBORMapEntry] = []
            out.reserveCapacity(count)
            for index in 0..<count {
                guard var key = handle[index].key, var child = handle[index].value else { throw .malformed }
                out.append(CBORMapEntry(try value(of: &key, depth: depth + 1), try value(of: &child, depth: depth + 1)))
            }
            return .map(out)
        case CBOR_TYPE_TAG:
            // Tags are not part of the token format; the tagged item stands for itself.
            guard var tagged = cbor_tag_item(item) else { throw .malformed }
            defer {
                var ref: UnsafeMutablePointer<cbor_item_t>? = tagged
                cbor_decref(&ref)
            }
            return try value(of: &tagged, depth: depth + 1)
        default:
            if cbor_float_ctrl_is_ctrl(item) {
                switch cbor_ctrl_value(item) {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22, 23: return .null
                default: throw .malformed
                }
            }
            return .float(cbor_float_get_float(item))
        }
    }

    /// A libcbor item for `value` (reference count 1), or `nil` when libcbor cannot allocate.
    private static func build(_ value: CBORValue) -> UnsafeMutablePointer<cbor_item_t>? {
        switch value {
        case .unsigned(let n):
            if n <= UInt64(UInt8.max) { return cbor_build_uint8(UInt8(n)) }
            if n <= UInt64(UInt16.max) { return cbor_build_uint16(UInt16(n)) }
            if n <= UInt64(UInt32.max) { return cbor_build_uint32(UInt32(n)) }
            return cbor_build_uint64(n)
        case .negative(let n):
            if n <= UInt64(UInt8.max) { return cbor_build_negint8(UInt8(n)) }
            if n <= UInt64(UInt16.max) { return cbor_build_negint16(UInt16(n)) }
            if n <= UInt64(UInt32.max) { return cbor_build_negint32(UInt32(n)) }
            return cbor_build_negint64(n)
        case .bytes(let raw):
            return raw.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress, $0.count) }
        case .text(let text):
            var raw = Array(text.utf8CString)
            let count = raw.count - 1  // without the terminating NUL
            return raw.withUnsafeMutableBufferPointer { cbor_build_stringn($0.baseAddress, count) }
        case .array(let items):
            guard let array = cbor_new_definite_array(items.count) else { return nil }
            for element in items {
                var child = build(element)
                guard let built = child, cbor_array_push(array, built) else {
                    cbor_decref(&child)
                    var ref: UnsafeMutablePointer<cbor_item_t>? = array
                    cbor_decref(&ref)
                    return nil
                }
                cbor_decref(&child)
            }
            return array
        case .map(let entries):
            guard let map = cbor_new_definite_map(entries.count) else { return nil }
            for entry in entries {
                var key = build(entry.key), child = build(entry.value)
                defer {
                    cbor_decref(&key)
                    cbor_decref(&child)
                }
                guard let builtKey = key, let builtValue = child,
                    cbor_map_add(map, cbor_pair(key: builtKey, value: builtValue))
                else {
                    var ref: UnsafeMutablePointer<cbor_item_t>? = map
                    cbor_decref(&ref)
                    return nil
                }
            }
            return map
        case .bool(let flag):
            return cbor_build_bool(flag)
        case .null:
            return cbor_new_null()
        case .float(let number):
            return cbor_build_float8(number)
        }
    }
}

// SPDX-License-Identifier: MIT
import HarnessJSON

/// The format of a value the service chooses: what `verify` compares where the value itself
/// cannot match (a timetoken of another run, an update time, an eTag, a token).
enum ValueFormat: String, Sendable, Hashable {
    /// 17 decimal digits (a number, or a string of them): a timetoken.
    case timetoken
    /// An ISO 8601 date and time (`2026-11-30T08:15:02.123456Z`).
    case isoTime = "iso-time"
    /// A UUID (8-4-4-4-12 hex digits).
    case uuid
    /// 32 hex digits (an App Context eTag).
    case hex32
    /// An Access Manager v3 token (its placeholder in a recording).
    case token
    /// An absolute http(s) URL.
    case url
    /// Any other integer.
    case integer
    /// Any other number.
    case number
    /// Any other string.
    case string
    case bool
    case null
    case array
    case object

    /// The format of `value`; `tokenPlaceholder` says whether a string is a recording's token placeholder.
    static func of(_ value: JSONValue, isToken: (String) -> Bool = { _ in false }) -> ValueFormat {
        switch value {
        case .null: return .null
        case .bool: return .bool
        case .array: return .array
        case .object: return .object
        case .number(let text):
            if isTimetoken(text) { return .timetoken }
            return Int64(text) != nil ? .integer : .number
        case .string(let text):
            if isTimetoken(text) { return .timetoken }
            if isToken(text) { return .token }
            if isISOTime(text) { return .isoTime }
            if isUUID(text) { return .uuid }
            if text.utf8.count == 32, text.utf8.allSatisfy(isHex) { return .hex32 }
            let lower = text.prefix(8).lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .url }
            return .string
        }
    }

    static func isTimetoken(_ text: String) -> Bool { text.utf8.count == 17 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }

    /// `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`.
    static func isISOTime(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return false }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 } }
        guard digits(0..<4), b[4] == 0x2D, digits(5..<7), b[7] == 0x2D, digits(8..<10), b[10] == 0x54,
            digits(11..<13), b[13] == 0x3A, digits(14..<16), b[16] == 0x3A, digits(17..<19)
        else { return false }
        var index = 19
        if index < b.count, b[index] == 0x2E {
            index += 1
            let start = index
            while index < b.count, b[index] >= 0x30 && b[index] <= 0x39 { index += 1 }
            guard index > start else { return false }
        }
        if index == b.count - 1, b[index] == 0x5A { return true }
        return index == b.count - 6 && (b[index] == 0x2B || b[index] == 0x2D) && digits((index + 1)..<(index + 3)) && b[index + 3] == 0x3A
            && digits((index + 4)..<(index + 6))
    }

    static func isUUID(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 36 else { return false }
        return b.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? b[$0] == 0x2D : isHex(b[$0]) }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

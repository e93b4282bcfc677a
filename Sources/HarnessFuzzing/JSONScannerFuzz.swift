// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer

/// Fuzz entry for the payload JSON scanner (the server's validation of published messages and
/// stored JSON, reached through `PubNubJSON`).
///
/// Invariants:
/// - On ASCII input the scanner agrees with Foundation's `JSONSerialization` (fragments allowed),
///   except where the platform parser departs from RFC 8259 (see `platformDeparture`).
/// - An accepted value round-trips: wrapped as an array element and as an object member it is
///   still valid, and the member's raw text is exactly the value without surrounding whitespace.
/// - `objectMembers` succeeds only on accepted objects; rebuilt from its (key, raw value) pairs,
///   the object yields the same pairs again.
enum JSONScannerFuzz {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let accepted = PubNubJSON.isValid(text)
        if input.allSatisfy({ $0 < 0x80 }) {
            let platform = (try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])) != nil
            if accepted != platform, platformDeparture(input, platformAccepts: platform) == nil {
                throw FuzzFailure(
                    .jsonScanner, accepted ? "accepts only JSON" : "accepts all JSON",
                    "scanner \(accepted), JSONSerialization \(platform): \(text.debugDescription)")
            }
        }
        let members = PubNubJSON.objectMembers(text)
        if members != nil && !accepted {
            throw FuzzFailure(.jsonScanner, "object members only of valid JSON", text.debugDescription)
        }
        // Wrapping adds a level; at the nesting limit that level is refused, as it must be.
        guard accepted, maxNesting(input) < 510 else { return }
        let value = trimmed(text)
        guard PubNubJSON.isValid("[" + text + "]"), PubNubJSON.isValid("[1," + text + "]") else {
            throw FuzzFailure(.jsonScanner, "a valid value is a valid array element", text.debugDescription)
        }
        guard let wrapped = PubNubJSON.objectMembers("{\"v\":" + text + "}"), wrapped.count == 1,
            wrapped[0].key == "v", wrapped[0].value == value
        else {
            throw FuzzFailure(.jsonScanner, "a valid value is an object member with the same text", text.debugDescription)
        }
        if value.hasPrefix("{"), members == nil, !hasSurrogateEscape(input) {
            throw FuzzFailure(.jsonScanner, "a valid object has members", text.debugDescription)
        }
        if let members {
            let rebuilt = "{" + members.map { PubNubJSON.quote($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
            guard let again = PubNubJSON.objectMembers(rebuilt),
                again.map(\.key) == members.map(\.key), again.map(\.value) == members.map(\.value)
            else {
                throw FuzzFailure(.jsonScanner, "members rebuild to the same members", "\(text.debugDescription) -> \(rebuilt.debugDescription)")
            }
        }
    }

    /// Why the platform parser may disagree with an RFC 8259 scanner on `input`, or `nil` if it may not:
    /// - it refuses a `\uD800`–`\uDFFF` escape that is not a well-formed pair (RFC 8259 §8.2 leaves
    ///   such strings to the implementation; the scanner accepts them as the grammar does);
    /// - it refuses numbers outside the `Double` range (the grammar has no range);
    /// - it refuses nesting deeper than 512, like the scanner, but counts differently at the edge;
    /// - it accepts a trailing comma in an array or object, which RFC 8259 does not allow;
    /// - it reads input with a NUL among its first four bytes as UTF-16 or UTF-32 (the encoding
    ///   detection of RFC 4627 §3), where the scanner reads UTF-8 only (`\0"\0"` is `""` to it).
    static func platformDeparture(_ input: [UInt8], platformAccepts: Bool) -> String? {
        if input.prefix(4).contains(0) { return "read as UTF-16 or UTF-32" }
        if platformAccepts {
            return hasTrailingComma(input) ? "trailing comma" : nil
        }
        if hasSurrogateEscape(input) { return "surrogate escape" }
        if hasHugeNumber(input) { return "number outside Double" }
        if maxNesting(input) >= 500 { return "nesting depth" }
        return nil
    }

    static func trimmed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    static func hasSurrogateEscape(_ input: [UInt8]) -> Bool {
        guard input.count >= 4 else { return false }
        for index in 0..<(input.count - 3) where input[index] == UInt8(ascii: "\\") && input[index + 1] | 0x20 == UInt8(ascii: "u") {
            if input[index + 2] | 0x20 == UInt8(ascii: "d"), (0x38...0x39).contains(input[index + 3]) || (0x61...0x66).contains(input[index + 3] | 0x20) {
                return true
            }
        }
        return false
    }

    /// An exponent of three or more digits, or a run of 300 or more digits.
    static func hasHugeNumber(_ input: [UInt8]) -> Bool {
        var digits = 0
        var afterExponent = false
        for byte in input {
            if (0x30...0x39).contains(byte) {
                digits += 1
                if digits >= 300 || (afterExponent && digits >= 3) { return true }
            } else if byte | 0x20 == UInt8(ascii: "e") {
                afterExponent = true
                digits = 0
            } else if afterExponent && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && digits == 0 {
                continue
            } else {
                afterExponent = false
                digits = 0
            }
        }
        return false
    }

    /// A `,` followed by optional whitespace and a closing bracket or brace.
    static func hasTrailingComma(_ input: [UInt8]) -> Bool {
        var afterComma = false
        for byte in input {
            switch byte {
            case UInt8(ascii: ","): afterComma = true
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
            default: afterComma = false
            }
        }
        return false
    }

    /// The deepest bracket nesting, counting brackets outside and inside strings alike (an upper bound).
    static func maxNesting(_ input: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        for byte in input {
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            }
        }
        return deepest
    }
}

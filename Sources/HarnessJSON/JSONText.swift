// SPDX-License-Identifier: MIT

/// The one JSON escaper and writer of the package, and the validity check built on ``JSONScanner``.
package enum JSONText {
    /// Whether `text` is one complete JSON text (RFC 8259 §2: any value, whitespace allowed around
    /// it). Nesting deeper than `maxDepth` counts as invalid rather than risking the stack.
    package static func isValid(_ text: String, maxDepth: Int = 512) -> Bool {
        if let plain = isPlainStringLiteral(text) { return plain }
        var scanner = JSONScanner(Array(text.utf8), maxDepth: maxDepth)
        return (try? scanner.scanDocument()) != nil
    }

    /// `true` when `text` is a string literal without escapes (`"…"` with no `"`, `\` or control
    /// character inside: valid, as `text` is UTF-8), the most frequent published message; `nil`
    /// when the scanner has to decide.
    private static func isPlainStringLiteral(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\""), bytes[bytes.count - 1] == UInt8(ascii: "\"") else { return nil }
            for index in 1..<(bytes.count - 1) {
                let byte = bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return nil }
            }
            return true
        }
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\b \f \n \r \t`
    /// or `\u00XX`, everything else (including `/` and non-ASCII) as-is, like JavaScript's `JSON.stringify`.
    package static func stringLiteral(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendStringLiteral(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (see `stringLiteral`) to `out`, byte by byte: every
    /// escape is ASCII, and the bytes of multi-byte characters are copied unchanged.
    package static func appendStringLiteral(_ text: String, to out: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied in one piece.
        var text = text
        let plain = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == backslash }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == backslash {
                appendEscape(byte, to: &out)
            } else {
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The number of bytes `appendStringLiteral` writes for `text` (quotes included).
    package static func stringLiteralCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = bytes.count + 2
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                count += escapeLength(byte) - 1
            }
            return count
        }
    }

    /// Writes `text` as a JSON string literal (the bytes `appendStringLiteral` appends) at `out`,
    /// which has room for `stringLiteralCount(text)` bytes; returns how many it wrote.
    package static func writeStringLiteral(_ text: String, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            out[0] = UInt8(ascii: "\"")
            var count = 1
            var plainStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                // The plain run before it in one copy, then its escape.
                if index > plainStart, let base = bytes.baseAddress {
                    (out + count).update(from: base + plainStart, count: index - plainStart)
                    count += index - plainStart
                }
                plainStart = index + 1
                var escape: [UInt8] = []
                appendEscape(byte, to: &escape)
                for escaped in escape {
                    out[count] = escaped
                    count += 1
                }
            }
            if bytes.count > plainStart, let base = bytes.baseAddress {
                (out + count).update(from: base + plainStart, count: bytes.count - plainStart)
                count += bytes.count - plainStart
            }
            out[count] = UInt8(ascii: "\"")
            return count + 1
        }
    }

    /// The length of the escape of `byte` (a control character, `"` or `\\`).
    private static func escapeLength(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09: 2
        default: 6
        }
    }

    /// Appends the escape of `byte` (a control character, `"` or `\\`), as `appendStringLiteral` writes it.
    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        let short: UInt8? = switch byte {
        case UInt8(ascii: "\""), backslash: byte
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        default: nil
        }
        if let short {
            out.append(backslash)
            out.append(short)
        } else {
            out.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
    }

    /// Appends the compact text of `value` (no spaces, members in order) to `out`.
    package static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): appendStringLiteral(text, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                appendStringLiteral(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

extension JSONValue {
    /// The compact JSON text (no spaces), members in document order.
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// ``jsonText`` as UTF-8 bytes.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        JSONText.append(self, to: &out)
        return out
    }
}

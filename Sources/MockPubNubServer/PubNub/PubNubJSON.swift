// SPDX-License-Identifier: MIT
internal import PubNubCrypto

/// Minimal JSON text handling: string quoting for the hand-written bodies, and a strict
/// RFC 8259 scanner that validates payloads and splits objects into raw member texts, so stored
/// JSON is re-emitted byte for byte (never re-serialised).
enum PubNubJSON {
    /// `text` as a JSON string literal (quotes included).
    static func quote(_ text: String) -> String {
        JSONText.stringLiteral(text)
    }

    /// A JSON array of string literals with `separator` between items.
    static func stringArray(_ items: [String], separator: String = ", ") -> String {
        "[" + items.map(quote).joined(separator: separator) + "]"
    }

    /// Whether `text` is exactly one JSON value (surrounding whitespace allowed).
    static func isValid(_ text: String) -> Bool {
        var scanner = JSONScanner(Array(text.utf8))
        return scanner.scanDocument() != nil
    }

    /// The decoded string of a raw JSON string literal (quotes included); `nil` for other values.
    static func stringValue(_ raw: String) -> String? {
        let bytes = Array(raw.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), isValid(raw) else { return nil }
        return JSONScanner.decodeString(bytes[1..<(bytes.count - 1)])
    }

    /// The members of a JSON object as (decoded key, raw value text), in order; `nil` if `text`
    /// is not a JSON object.
    static func objectMembers(_ text: String) -> [(key: String, value: String)]? {
        var scanner = JSONScanner(Array(text.utf8))
        return scanner.scanObjectMembers()
    }
}

/// A strict recursive-descent JSON scanner over UTF-8 bytes (depth-limited).
struct JSONScanner {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maxDepth = 512

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Scans one value and trailing whitespace; returns the value's byte range.
    mutating func scanDocument() -> Range<Int>? {
        skipWhitespace()
        guard let range = scanValue() else { return nil }
        skipWhitespace()
        return index == bytes.count ? range : nil
    }

    mutating func scanObjectMembers() -> [(key: String, value: String)]? {
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [(key: String, value: String)] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard let keyRange = scanString() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let valueRange = scanValue() else { return nil }
                guard let key = Self.decodeString(bytes[keyRange]) else { return nil }
                members.append((key, String(decoding: bytes[valueRange], as: UTF8.self)))
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func scanValue() -> Range<Int>? {
        let start = index
        guard let byte = peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"): guard scanContainer(close: UInt8(ascii: "}"), members: true) else { return nil }
        case UInt8(ascii: "["): guard scanContainer(close: UInt8(ascii: "]"), members: false) else { return nil }
        case UInt8(ascii: "\""): guard scanString() != nil else { return nil }
        case UInt8(ascii: "t"): guard scanLiteral("true") else { return nil }
        case UInt8(ascii: "f"): guard scanLiteral("false") else { return nil }
        case UInt8(ascii: "n"): guard scanLiteral("null") else { return nil }
        default: guard scanNumber() else { return nil }
        }
        return start..<index
    }

    private mutating func scanContainer(close: UInt8, members: Bool) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return false }
        index += 1
        skipWhitespace()
        if consume(close) { return true }
        while true {
            skipWhitespace()
            if members {
                guard scanString() != nil else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard scanValue() != nil else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            return consume(close)
        }
    }

    /// Scans a string literal; returns the range of its content (without quotes).
    private mutating func scanString() -> Range<Int>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return start..<(index - 1)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = peek else { return nil }
                if escape == UInt8(ascii: "u") {
                    guard index + 4 < bytes.count,
                        bytes[(index + 1)...(index + 4)].allSatisfy(Self.isHexDigit)
                    else { return nil }
                    index += 5
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escape) else { return nil }
                    index += 1
                }
            default:
                guard byte >= 0x20 else { return nil }
                index += 1
            }
        }
        return nil
    }

    private mutating func scanLiteral(_ word: String) -> Bool {
        let literal = Array(word.utf8)
        guard index + literal.count <= bytes.count, Array(bytes[index..<(index + literal.count)]) == literal else {
            return false
        }
        index += literal.count
        return true
    }

    private mutating func scanNumber() -> Bool {
        _ = consume(UInt8(ascii: "-"))
        guard let first = peek, Self.isDigit(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if consume(UInt8(ascii: ".")) {
            guard let digit = peek, Self.isDigit(digit) else { return false }
            skipDigits()
        }
        if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek, Self.isDigit(digit) else { return false }
            skipDigits()
        }
        return true
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// Decodes the content of a validated string literal.
    static func decodeString(_ content: ArraySlice<UInt8>) -> String? {
        guard content.contains(UInt8(ascii: "\\")) else { return String(validating: Array(content), as: UTF8.self) }
        var units: [UInt16] = []
        let text = Array(content)
        var i = 0
        var out = [UInt8]()
        func flushUnits() -> Bool {
            guard !units.isEmpty else { return true }
            var decoded = ""
            var iterator = units.makeIterator()
            var utf16 = UTF16()
            loop: while true {
                switch utf16.decode(&iterator) {
                case .scalarValue(let scalar): decoded.unicodeScalars.append(scalar)
                case .emptyInput: break loop
                case .error: return false
                }
            }
            out.append(contentsOf: decoded.utf8)
            units.removeAll()
            return true
        }
        while i < text.count {
            let byte = text[i]
            if byte == UInt8(ascii: "\\") {
                let escape = text[i + 1]
                if escape == UInt8(ascii: "u") {
                    guard let value = UInt16(String(decoding: text[(i + 2)...(i + 5)], as: UTF8.self), radix: 16)
                    else { return nil }
                    units.append(value)
                    i += 6
                    continue
                }
                guard flushUnits() else { return nil }
                switch escape {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                default: out.append(escape)
                }
                i += 2
            } else {
                guard flushUnits() else { return nil }
                out.append(byte)
                i += 1
            }
        }
        guard flushUnits() else { return nil }
        return String(validating: out, as: UTF8.self)
    }
}

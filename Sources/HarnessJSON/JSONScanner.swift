// SPDX-License-Identifier: MIT

/// The one strict RFC 8259 scanner of the package: recursive descent over UTF-8 bytes with a
/// nesting limit. It validates without building anything (`scanDocument`), splits an object into
/// raw member spans (`objectMemberSpans`, so stored JSON is re-emitted byte for byte), or builds a
/// ``JSONValue`` (`parseDocument`). Errors carry the byte offset.
package struct JSONScanner {
    package let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private let maxDepth: Int

    package init(_ bytes: [UInt8], maxDepth: Int = 512) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Scans exactly one value (whitespace around it allowed); returns the value's byte range.
    package mutating func scanDocument() throws(JSONSyntaxError) -> Range<Int> {
        try document { (scanner: inout Self) throws(JSONSyntaxError) in try scanner.skipValue() }
    }

    /// Parses exactly one value (whitespace around it allowed).
    package mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        try document { (scanner: inout Self) throws(JSONSyntaxError) in try scanner.readValue() }
    }

    /// The members of a top-level object as (decoded name, raw byte range of the value), in order.
    package mutating func objectMemberSpans() throws(JSONSyntaxError) -> [(key: String, value: Range<Int>)] {
        try document { (scanner: inout Self) throws(JSONSyntaxError) in
            guard scanner.peek == UInt8(ascii: "{") else { throw scanner.error("an object") }
            var members: [(key: String, value: Range<Int>)] = []
            try scanner.container(close: UInt8(ascii: "}")) { (scanner: inout Self, key) throws(JSONSyntaxError) in
                members.append((try scanner.decode(key!), try scanner.skipValue()))
            }
            return members
        }
    }

    // MARK: - Values

    private mutating func document<T>(_ body: (inout Self) throws(JSONSyntaxError) -> T) throws(JSONSyntaxError) -> T {
        skipWhitespace()
        let result = try body(&self)
        skipWhitespace()
        guard index == bytes.count else { throw error("end of input") }
        return result
    }

    private mutating func skipValue() throws(JSONSyntaxError) -> Range<Int> {
        let start = index
        switch peek {
        case UInt8(ascii: "{"):
            try container(close: UInt8(ascii: "}")) { (scanner: inout Self, _) throws(JSONSyntaxError) in _ = try scanner.skipValue() }
        case UInt8(ascii: "["):
            try container(close: UInt8(ascii: "]")) { (scanner: inout Self, _) throws(JSONSyntaxError) in _ = try scanner.skipValue() }
        case UInt8(ascii: "\""): _ = try scanString()
        default: try skipScalar()
        }
        return start..<index
    }

    private mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        switch peek {
        case UInt8(ascii: "{"):
            var members: [(String, JSONValue)] = []
            try container(close: UInt8(ascii: "}")) { (scanner: inout Self, key) throws(JSONSyntaxError) in
                members.append((try scanner.decode(key!), try scanner.readValue()))
            }
            return .object(JSONObject(members))
        case UInt8(ascii: "["):
            var items: [JSONValue] = []
            try container(close: UInt8(ascii: "]")) { (scanner: inout Self, _) throws(JSONSyntaxError) in
                items.append(try scanner.readValue())
            }
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try decode(try scanString()))
        default:
            return try scanScalar()
        }
    }

    /// Walks an object (`close` = `}`; `element` gets each member name's span) or an array
    /// (`close` = `]`; no name), calling `element` with the scanner at each value.
    private mutating func container(
        close: UInt8, _ element: (inout Self, StringSpan?) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        let isObject = close == UInt8(ascii: "}")
        depth += 1
        defer { depth -= 1 }
        guard depth <= maxDepth else { throw error("at most \(maxDepth) levels of nesting") }
        index += 1
        skipWhitespace()
        if consume(close) { return }
        while true {
            skipWhitespace()
            var key: StringSpan?
            if isObject {
                guard peek == UInt8(ascii: "\"") else { throw error("a member name") }
                key = try scanString()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw error("`:`") }
                skipWhitespace()
            }
            try element(&self, key)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(close) else { throw error(isObject ? "`,` or `}`" : "`,` or `]`") }
            return
        }
    }

    /// Validates `true`, `false`, `null` or a number without building it.
    private mutating func skipScalar() throws(JSONSyntaxError) {
        switch peek ?? 0 {
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try skipNumber()
        default: throw error("a value")
        }
    }

    /// `true`, `false`, `null` or a number.
    private mutating func scanScalar() throws(JSONSyntaxError) -> JSONValue {
        let first = peek ?? 0
        guard first != UInt8(ascii: "-"), !Self.isDigit(first) else { return try scanNumber() }
        try skipScalar()  // one of the literals `true`, `false`, `null`: its first letter says which
        return first == UInt8(ascii: "n") ? .null : .bool(first == UInt8(ascii: "t"))
    }

    private mutating func skipLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("`\(word)`") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw error("`\(word)`") }
        index += count
    }

    private mutating func scanNumber() throws(JSONSyntaxError) -> JSONValue {
        .number(String(decoding: bytes[try skipNumber()], as: UTF8.self))
    }

    private mutating func skipNumber() throws(JSONSyntaxError) -> Range<Int> {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard let first = peek, Self.isDigit(first) else { throw error("a digit") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if consume(UInt8(ascii: ".")) {
            guard let digit = peek, Self.isDigit(digit) else { throw error("a digit after `.`") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek, Self.isDigit(digit) else { throw error("an exponent digit") }
            skipDigits()
        }
        return start..<index
    }

    // MARK: - Strings

    /// The content of a scanned string literal: its bytes without the quotes, and whether it has escapes.
    private typealias StringSpan = (content: Range<Int>, escaped: Bool)

    /// Validates a string literal without decoding it.
    private mutating func scanString() throws(JSONSyntaxError) -> StringSpan {
        index += 1
        let start = index
        var escaped = false
        while true {
            guard let byte = peek else { throw error("`\"` closing the string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return (start..<(index - 1), escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                guard let escape = peek else { throw error("an escape") }
                if escape == UInt8(ascii: "u") {
                    for offset in 1...4 where index + offset >= bytes.count || !Self.isHexDigit(bytes[index + offset]) {
                        index = min(index + offset, bytes.count)
                        throw error("4 hex digits")
                    }
                    index += 5
                } else {
                    guard Self.shortEscapes.contains(escape) else { throw error("a valid escape") }
                    index += 1
                }
            case 0..<0x20:
                throw error("no control character inside a string")
            default:
                index += 1
            }
        }
    }

    private static let shortEscapes: [UInt8] = Array("\"\\/bfnrt".utf8)

    /// The decoded text of a scanned string literal.
    private func decode(_ span: StringSpan) throws(JSONSyntaxError) -> String {
        span.escaped ? try decodeEscapes(span.content) : try utf8(span.content)
    }

    private func utf8(_ range: Range<Int>) throws(JSONSyntaxError) -> String {
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw JSONSyntaxError(offset: range.lowerBound, expected: "UTF-8 text")
        }
        return text
    }

    /// Decodes the content of a scanned string literal that has escapes.
    private func decodeEscapes(_ range: Range<Int>) throws(JSONSyntaxError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                position += 1
                continue
            }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex4(at: position)
                position += 4
                if (0xD800..<0xDC00).contains(code) {
                    guard position + 6 <= range.upperBound, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u"), (0xDC00..<0xE000).contains(hex4(at: position + 2))
                    else { throw JSONSyntaxError(offset: position, expected: "a low surrogate escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (hex4(at: position + 2) - 0xDC00)
                    position += 6
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw JSONSyntaxError(offset: position - 4, expected: "a valid code point")
                }
                out.append(contentsOf: String(scalar).utf8)
            default: out.append(escape)
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw JSONSyntaxError(offset: range.lowerBound, expected: "UTF-8 text")
        }
        return text
    }

    private func hex4(at position: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[position..<(position + 4)] {
            let digit = byte | 0x20
            value = value << 4 | UInt32(Self.isDigit(byte) ? byte - 0x30 : digit - UInt8(ascii: "a") + 10)
        }
        return value
    }

    // MARK: - Bytes

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func error(_ expected: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, expected: expected) }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}

extension JSONValue {
    /// Parses JSON text: one value, whitespace around it allowed, nesting at most `maxDepth` deep.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    /// Parses JSON bytes (an array, `Data`, a slice; see ``parse(_:maxDepth:)``).
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONValue {
        var scanner = JSONScanner(Array(bytes), maxDepth: maxDepth)
        return try scanner.parseDocument()
    }
}

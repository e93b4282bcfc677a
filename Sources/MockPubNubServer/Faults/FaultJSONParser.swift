// SPDX-License-Identifier: MIT

/// Why JSON text could not be parsed: the byte offset and what was expected there.
public struct FaultJSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset of the offending byte from the start of the text.
    public var offset: Int
    /// What the parser expected.
    public var expected: String

    public var description: String { "invalid JSON at byte \(offset): expected \(expected)" }
}

extension FaultJSON {
    /// Parses RFC 8259 JSON text; one value, surrounded by optional whitespace.
    ///
    /// Nesting is limited to 64 levels so hostile input cannot exhaust the stack.
    public static func parse(_ bytes: [UInt8]) throws(FaultJSONSyntaxError) -> FaultJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("end of input") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maxDepth = 64

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ expected: String) -> FaultJSONSyntaxError {
            FaultJSONSyntaxError(offset: index, expected: expected)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func expect(_ literal: String, value: FaultJSON) throws(FaultJSONSyntaxError) -> FaultJSON {
            for byte in literal.utf8 {
                guard current == byte else { throw error("`\(literal)`") }
                index += 1
            }
            return value
        }

        mutating func value(depth: Int) throws(FaultJSONSyntaxError) -> FaultJSON {
            guard depth < Self.maxDepth else { throw error("at most \(Self.maxDepth) levels of nesting") }
            guard let byte = current else { throw error("a value") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
            case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
            case UInt8(ascii: "n"): return try expect("null", value: .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("a value")
            }
        }

        mutating func object(depth: Int) throws(FaultJSONSyntaxError) -> FaultJSON {
            index += 1
            var members: [(String, FaultJSON)] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("a member name") }
                let name = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("`:`") }
                index += 1
                skipWhitespace()
                members.append((name, try value(depth: depth + 1)))
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw error("`,` or `}`")
                }
            }
        }

        mutating func array(depth: Int) throws(FaultJSONSyntaxError) -> FaultJSON {
            index += 1
            var items: [FaultJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                } else {
                    throw error("`,` or `]`")
                }
            }
        }

        mutating func number() throws(FaultJSONSyntaxError) -> FaultJSON {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw error("a digit") }
            if current == UInt8(ascii: ".") {
                index += 1
                guard try digits() > 0 else { throw error("a digit after `.`") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard try digits() > 0 else { throw error("an exponent digit") }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func digits() throws(FaultJSONSyntaxError) -> Int {
            var count = 0
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                index += 1
                count += 1
            }
            return count
        }

        mutating func string() throws(FaultJSONSyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flush(_ parser: Parser, upTo end: Int, into view: inout String.UnicodeScalarView) throws(FaultJSONSyntaxError) {
                guard runStart < end else { return }
                guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                    throw parser.error("UTF-8 text")
                }
                view.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard let byte = current else { throw error("`\"` closing the string") }
                switch byte {
                case UInt8(ascii: "\""):
                    try flush(self, upTo: index, into: &scalars)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush(self, upTo: index, into: &scalars)
                    index += 1
                    scalars.append(try escape())
                    runStart = index
                case 0..<0x20:
                    throw error("no control character inside a string")
                default:
                    index += 1
                }
            }
        }

        mutating func escape() throws(FaultJSONSyntaxError) -> Unicode.Scalar {
            guard let byte = current else { throw error("an escape") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hex4()
                if (0xD800..<0xDC00).contains(first) {
                    guard current == UInt8(ascii: "\\") else { throw error("a low surrogate escape") }
                    index += 1
                    guard current == UInt8(ascii: "u") else { throw error("a low surrogate escape") }
                    index += 1
                    let second = try hex4()
                    guard (0xDC00..<0xE000).contains(second),
                        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                    else { throw error("a low surrogate") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("a valid code point") }
                return scalar
            default:
                index -= 1
                throw error("a valid escape")
            }
        }

        mutating func hex4() throws(FaultJSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { throw error("4 hex digits") }
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("4 hex digits")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}

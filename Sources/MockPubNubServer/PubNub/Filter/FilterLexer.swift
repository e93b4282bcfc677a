// SPDX-License-Identifier: MIT

/// Splits a filter expression into tokens (pure).
enum FilterLexer {
    enum Token: Hashable {
        case name(String)
        case string(String)
        case number(String)
        case comparison(FilterOperator)
        case and, or, not, open, close, dot, percent
        case open_bracket, close_bracket

        var describe: String {
            switch self {
            case .name(let name): "name '\(name)'"
            case .string: "string literal"
            case .number(let text): "number \(text)"
            case .comparison(let op): "operator \(op.rawValue)"
            case .and: "'&&'"
            case .or: "'||'"
            case .not: "'!'"
            case .open: "'('"
            case .close: "')'"
            case .dot: "'.'"
            case .percent: "'%'"
            case .open_bracket: "'['"
            case .close_bracket: "']'"
            }
        }
    }

    struct Located: Hashable {
        var token: Token
        var offset: Int
    }

    static func tokens(_ text: String) throws(FilterParseError) -> [Located] {
        let bytes = Array(text.utf8)
        var result: [Located] = []
        var i = 0
        func at(_ k: Int) -> UInt8? { k < bytes.count ? bytes[k] : nil }
        while i < bytes.count {
            let byte = bytes[i]
            let start = i
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
                continue
            case UInt8(ascii: "("): result.append(Located(token: .open, offset: i)); i += 1
            case UInt8(ascii: ")"): result.append(Located(token: .close, offset: i)); i += 1
            case UInt8(ascii: "["): result.append(Located(token: .open_bracket, offset: i)); i += 1
            case UInt8(ascii: "]"): result.append(Located(token: .close_bracket, offset: i)); i += 1
            case UInt8(ascii: "."): result.append(Located(token: .dot, offset: i)); i += 1
            case UInt8(ascii: "%"): result.append(Located(token: .percent, offset: i)); i += 1
            case UInt8(ascii: "&"), UInt8(ascii: "|"):
                guard at(i + 1) == byte else { throw FilterParseError(message: "expected '\(Character(Unicode.Scalar(byte)))\(Character(Unicode.Scalar(byte)))'", offset: i) }
                result.append(Located(token: byte == UInt8(ascii: "&") ? .and : .or, offset: i))
                i += 2
            case UInt8(ascii: "="):
                guard at(i + 1) == UInt8(ascii: "=") else { throw FilterParseError(message: "expected '=='", offset: i) }
                result.append(Located(token: .comparison(.equal), offset: i))
                i += 2
            case UInt8(ascii: "!"):
                if at(i + 1) == UInt8(ascii: "=") {
                    result.append(Located(token: .comparison(.notEqual), offset: i))
                    i += 2
                } else {
                    result.append(Located(token: .not, offset: i))
                    i += 1
                }
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                let orEqual = at(i + 1) == UInt8(ascii: "=")
                let op: FilterOperator = byte == UInt8(ascii: "<") ? (orEqual ? .lessOrEqual : .less) : (orEqual ? .greaterOrEqual : .greater)
                result.append(Located(token: .comparison(op), offset: i))
                i += orEqual ? 2 : 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                var value: [UInt8] = []
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == byte { closed = true; i += 1; break }
                    if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                        value.append(bytes[i + 1])
                        i += 2
                        continue
                    }
                    value.append(bytes[i])
                    i += 1
                }
                guard closed else { throw FilterParseError(message: "unterminated string literal", offset: start) }
                result.append(Located(token: .string(String(decoding: value, as: UTF8.self)), offset: start))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                i += 1
                while let next = at(i), isDigit(next) || next == UInt8(ascii: ".") { i += 1 }
                let literal = String(decoding: bytes[start..<i], as: UTF8.self)
                guard Double(literal) != nil, literal != "-" else {
                    throw FilterParseError(message: "invalid number '\(literal)'", offset: start)
                }
                result.append(Located(token: .number(literal), offset: start))
            default:
                guard isNameStart(byte) else {
                    throw FilterParseError(message: "unexpected character '\(Character(Unicode.Scalar(byte)))'", offset: i)
                }
                while let next = at(i), isNameStart(next) || isDigit(next) { i += 1 }
                let name = String(decoding: bytes[start..<i], as: UTF8.self)
                switch name.uppercased() {
                case "LIKE": result.append(Located(token: .comparison(.like), offset: start))
                case "CONTAINS": result.append(Located(token: .comparison(.contains), offset: start))
                default: result.append(Located(token: .name(name), offset: start))
                }
            }
        }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }
}

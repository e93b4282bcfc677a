// SPDX-License-Identifier: MIT

/// Parses filter expressions (grammar on `FilterExpression`). Pure; refuses expressions longer
/// than `maxLength` bytes or nested deeper than `maxDepth` (UNVERIFIED: the service's limits
/// are not documented).
public enum FilterParser {
    public static let maxLength = 2048
    public static let maxDepth = 32

    public static func parse(_ text: String) throws(FilterParseError) -> FilterExpression {
        guard text.utf8.count <= maxLength else {
            throw FilterParseError(message: "expression longer than \(maxLength) bytes", offset: maxLength)
        }
        var parser = Parser(tokens: try FilterLexer.tokens(text), end: text.utf8.count)
        let expression = try parser.expression(depth: 0)
        if let extra = parser.peek { throw FilterParseError(message: "unexpected \(extra.token.describe)", offset: extra.offset) }
        return expression
    }

    private struct Parser {
        let tokens: [FilterLexer.Located]
        let end: Int
        var position = 0

        var peek: FilterLexer.Located? { position < tokens.count ? tokens[position] : nil }
        var offset: Int { peek?.offset ?? end }

        mutating func take(_ token: FilterLexer.Token) -> Bool {
            guard peek?.token == token else { return false }
            position += 1
            return true
        }

        mutating func expression(depth: Int) throws(FilterParseError) -> FilterExpression {
            guard depth < FilterParser.maxDepth else { throw FilterParseError(message: "expression nested too deeply", offset: offset) }
            var left = try conjunction(depth: depth)
            while take(.or) { left = .or(left, try conjunction(depth: depth)) }
            return left
        }

        mutating func conjunction(depth: Int) throws(FilterParseError) -> FilterExpression {
            var left = try unary(depth: depth)
            while take(.and) { left = .and(left, try unary(depth: depth)) }
            return left
        }

        mutating func unary(depth: Int) throws(FilterParseError) -> FilterExpression {
            guard depth < FilterParser.maxDepth else { throw FilterParseError(message: "expression nested too deeply", offset: offset) }
            if take(.not) { return .not(try unary(depth: depth + 1)) }
            if take(.open) {
                let inner = try expression(depth: depth + 1)
                guard take(.close) else { throw FilterParseError(message: "expected ')'", offset: offset) }
                return inner
            }
            let left = try value()
            guard case .comparison(let op)? = peek?.token else {
                throw FilterParseError(message: "expected a comparison operator", offset: offset)
            }
            position += 1
            return .compare(left, op, try value())
        }

        mutating func value() throws(FilterParseError) -> FilterOperand {
            let left = try atom()
            guard take(.percent) else { return left }
            return .modulo(left, try atom())
        }

        mutating func atom() throws(FilterParseError) -> FilterOperand {
            guard let located = peek else { throw FilterParseError(message: "unexpected end of expression", offset: end) }
            position += 1
            switch located.token {
            case .string(let text): return .string(text)
            case .number(let text): return .number(text)
            case .name(let name): return .path(try path(first: name))
            default: throw FilterParseError(message: "unexpected \(located.token.describe)", offset: located.offset)
            }
        }

        mutating func path(first: String) throws(FilterParseError) -> FilterPath {
            var steps: [FilterPath.Step] = []
            let root: FilterRoot
            switch first {
            case "meta": root = .meta
            case "data": root = .data
            case "uuid": root = .uuid
            default:
                root = .meta
                steps.append(.member(first))
            }
            while let next = peek {
                switch next.token {
                case .dot:
                    position += 1
                    guard case .name(let name)? = peek?.token else { throw FilterParseError(message: "expected a field name", offset: offset) }
                    position += 1
                    steps.append(.member(name))
                case .open_bracket:
                    position += 1
                    switch peek?.token {
                    case .string(let key)?: steps.append(.member(key))
                    case .number(let text)?:
                        guard let index = Int(text), index >= 0 else { throw FilterParseError(message: "expected an array index", offset: offset) }
                        steps.append(.index(index))
                    default: throw FilterParseError(message: "expected a quoted key or an index", offset: offset)
                    }
                    position += 1
                    guard take(.close_bracket) else { throw FilterParseError(message: "expected ']'", offset: offset) }
                default:
                    return try checked(FilterPath(root: root, steps: steps), at: next.offset)
                }
            }
            return try checked(FilterPath(root: root, steps: steps), at: end)
        }

        /// `uuid` has no fields; `meta` and `data` need at least one.
        func checked(_ path: FilterPath, at offset: Int) throws(FilterParseError) -> FilterPath {
            if path.root == .uuid && !path.steps.isEmpty { throw FilterParseError(message: "uuid has no fields", offset: offset) }
            if path.root != .uuid && path.steps.isEmpty {
                throw FilterParseError(message: "expected a field of \(path.root.rawValue)", offset: offset)
            }
            return path
        }
    }
}

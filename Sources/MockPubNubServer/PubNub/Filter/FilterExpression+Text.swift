// SPDX-License-Identifier: MIT

extension FilterExpression {
    /// The expression in canonical text: fully parenthesised, double-quoted strings, explicit
    /// `meta` roots. Parsing it gives back an equal expression (the fuzz target checks this).
    public var canonicalText: String {
        switch self {
        case .or(let left, let right): "(" + left.canonicalText + " || " + right.canonicalText + ")"
        case .and(let left, let right): "(" + left.canonicalText + " && " + right.canonicalText + ")"
        case .not(let inner): "!(" + inner.canonicalText + ")"
        case .compare(let left, let op, let right): left.canonicalText + " " + op.rawValue + " " + right.canonicalText
        }
    }
}

extension FilterOperand {
    /// The operand in canonical text.
    public var canonicalText: String {
        switch self {
        case .string(let text): FilterOperand.quoted(text)
        case .number(let text): text
        case .path(let path): path.canonicalText
        case .modulo(let left, let right): left.canonicalText + " % " + right.canonicalText
        }
    }

    /// `text` in double quotes, with `"` and `\` escaped by a backslash.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}

extension FilterPath {
    /// The path in canonical text: member names as `["…"]` so any name survives.
    public var canonicalText: String {
        var text = root.rawValue
        for step in steps {
            switch step {
            case .member(let name): text += "[" + FilterOperand.quoted(name) + "]"
            case .index(let index): text += "[" + String(index) + "]"
            }
        }
        return text
    }
}

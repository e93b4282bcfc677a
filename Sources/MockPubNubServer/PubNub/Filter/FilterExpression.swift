// SPDX-License-Identifier: MIT

/// A parsed subscribe filter expression (`filter-expr`, spec §4).
///
/// Grammar (lowest precedence first; keywords are case-insensitive):
///
///     expression := and ( "||" and )*
///     and        := unary ( "&&" unary )*
///     unary      := "!" unary | "(" expression ")" | comparison
///     comparison := value operator value
///     operator   := "==" | "!=" | "<" | ">" | "<=" | ">=" | "LIKE" | "CONTAINS"
///     value      := atom ( "%" atom )?
///     atom       := path | string | number
///     path       := name ( "." name | "[" string "]" | "[" integer "]" )*
///
/// A path starts at `meta` (the publish `meta` object), `data` (the payload), or `uuid` (the
/// publisher); any other first name is a field of `meta` (INFERRED from older guidance, spec §4).
public indirect enum FilterExpression: Sendable, Hashable {
    case or(FilterExpression, FilterExpression)
    case and(FilterExpression, FilterExpression)
    case not(FilterExpression)
    case compare(FilterOperand, FilterOperator, FilterOperand)
}

/// The comparison operators of a filter expression.
public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case like = "LIKE"
    case contains = "CONTAINS"
}

/// One side of a comparison.
public indirect enum FilterOperand: Sendable, Hashable {
    case string(String)
    /// A number literal, as written.
    case number(String)
    case path(FilterPath)
    /// `value % divisor` (sampling, as the docs show).
    case modulo(FilterOperand, FilterOperand)
}

/// Where a path starts.
public enum FilterRoot: String, Sendable, Hashable {
    case meta, data, uuid
}

/// A path into a message: its root and the member names / array indices below it.
public struct FilterPath: Sendable, Hashable {
    public enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
    }

    public var root: FilterRoot
    public var steps: [Step]

    public init(root: FilterRoot, steps: [Step]) {
        self.root = root
        self.steps = steps
    }
}

/// Why a filter expression could not be parsed: what was wrong and at which character offset.
public struct FilterParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public var description: String { message + " at offset " + String(offset) }
}

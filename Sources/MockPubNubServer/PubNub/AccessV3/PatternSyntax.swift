// SPDX-License-Identifier: MIT

/// Checks and matches the regular expressions of token patterns (spec §2.1, §2.4).
///
/// The service refuses capturing groups and reports syntax errors in Python's `re` wording
/// (`Syntax error: multiple repeat.` recorded for `!<[^>]+>++`), so repeated quantifiers are
/// refused here before Swift's regex engine (which would read `++` as possessive) sees them.
enum PatternSyntax {
    /// The 400 detail for `pattern`, or `nil` when it is acceptable.
    static func problem(in pattern: String) -> String? {
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        var inClass = false
        /// Whether the previous token can take a quantifier / was itself a quantifier.
        var previous: Previous = .start
        while index < scalars.count {
            let c = scalars[index]
            if c == "\\" {
                index += 2
                previous = .atom
                continue
            }
            if inClass {
                if c == "]" { inClass = false; previous = .atom }
                index += 1
                continue
            }
            switch c {
            case "[":
                inClass = true
                // A `]` right after `[` or `[^` is literal.
                if index + 1 < scalars.count, scalars[index + 1] == "^" { index += 1 }
                if index + 1 < scalars.count, scalars[index + 1] == "]" { index += 1 }
            case "(":
                guard index + 1 < scalars.count, scalars[index + 1] == "?" else {
                    return "Only non-capturing groups are allowed. Try replacing `(` with `(?:`."
                }
                // `(?:`, `(?=`, `(?!`: skip the group's opening; a quantifier may not follow it.
                previous = .start
                index += 3
                continue
            case "|":
                previous = .start
            case ")":
                previous = .atom
            case "*", "+", "?", "{":
                if c == "{", !isCountedRepeat(scalars, from: index) {
                    previous = .atom
                    break
                }
                switch previous {
                case .start: return "Syntax error: nothing to repeat."
                case .quantifier where c == "?": previous = .lazy
                case .quantifier, .lazy: return "Syntax error: multiple repeat."
                case .atom: previous = .quantifier
                }
                if c == "{" { index = closingBrace(scalars, from: index) }
                index += 1
                continue
            default:
                previous = .atom
            }
            index += 1
        }
        if inClass { return "Syntax error: unterminated character set." }
        do {
            _ = try Regex(pattern)
        } catch {
            return "Syntax error: invalid expression."
        }
        return nil
    }

    /// Whether `pattern` finds a match in `name` (search semantics: anchors only where the
    /// pattern writes them; INFERRED, the live matching mode is not recorded).
    static func matches(_ pattern: String, _ name: String) -> Bool {
        guard problem(in: pattern) == nil, let regex = try? Regex(pattern) else { return false }
        return (try? regex.firstMatch(in: name)) != nil
    }

    private enum Previous {
        case start, atom, quantifier, lazy
    }

    /// `{n}`, `{n,}`, `{n,m}` at `index`.
    private static func isCountedRepeat(_ s: [Unicode.Scalar], from index: Int) -> Bool {
        var i = index + 1
        var digits = 0
        while i < s.count, s[i].properties.numericType != nil, ("0"..."9").contains(s[i]) { i += 1; digits += 1 }
        guard digits > 0, i < s.count else { return false }
        if s[i] == "}" { return true }
        guard s[i] == "," else { return false }
        i += 1
        while i < s.count, ("0"..."9").contains(s[i]) { i += 1 }
        return i < s.count && s[i] == "}"
    }

    private static func closingBrace(_ s: [Unicode.Scalar], from index: Int) -> Int {
        var i = index
        while i < s.count, s[i] != "}" { i += 1 }
        return i
    }
}

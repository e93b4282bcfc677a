// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// Credentials seen so far and their stable placeholders (`{sub-key-1}`, `{token-2}`): the same
/// value always gets the same placeholder, and the value itself is never kept in a recording.
struct SecretTable: Sendable {
    /// Values this short are replaced only where they stand alone (a whole path segment, query
    /// value or JSON string), not inside other text: `a` must not turn every `a` into `{auth-1}`.
    static let minimumSubstringLength = 6

    private(set) var entries: [RecordedKey] = []
    private var placeholderOf: [String: String] = [:]
    private var counts: [KeyKind: Int] = [:]
    /// Known values, longest first (so a token is replaced before a key it happens to contain).
    private var byLength: [(value: String, placeholder: String)] = []

    /// The placeholder of `value`, made when first seen.
    mutating func placeholder(for value: String, kind: KeyKind, tokenShape: [String]? = nil) -> String {
        if let known = placeholderOf[value] { return known }
        let index = (counts[kind] ?? 0) + 1
        counts[kind] = index
        let placeholder = kind.placeholder(index)
        placeholderOf[value] = placeholder
        entries.append(RecordedKey(placeholder: placeholder, kind: kind, tokenShape: tokenShape))
        let position = byLength.firstIndex { $0.value.utf8.count < value.utf8.count } ?? byLength.count
        byLength.insert((value, placeholder), at: position)
        return placeholder
    }

    /// The placeholder of a known value.
    func known(_ value: String) -> String? { placeholderOf[value] }

    /// Changes the table entry of `placeholder`.
    mutating func update(_ placeholder: String, _ change: (inout RecordedKey) -> Void) {
        guard let index = entries.firstIndex(where: { $0.placeholder == placeholder }) else { return }
        change(&entries[index])
    }

    /// `text` with every known value replaced: a whole-text match always, values of at least
    /// ``minimumSubstringLength`` wherever they occur (also percent-encoded), shorter ones where
    /// they are a whole JSON string (`"value"`).
    func scrub(_ text: String) -> String {
        if let whole = placeholderOf[text] { return whole }
        var out = text
        for (value, placeholder) in byLength {
            if value.utf8.count >= Self.minimumSubstringLength {
                if out.contains(value) { out = out.replacingOccurrences(of: value, with: placeholder) }
                let encoded = PercentCoding.encode(value)
                if encoded != value, out.contains(encoded) { out = out.replacingOccurrences(of: encoded, with: placeholder) }
            } else if !value.isEmpty {
                let quoted = "\"" + value + "\""
                if out.contains(quoted) { out = out.replacingOccurrences(of: quoted, with: "\"" + placeholder + "\"") }
            }
        }
        return out
    }
}

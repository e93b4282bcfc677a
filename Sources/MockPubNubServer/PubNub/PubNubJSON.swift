// SPDX-License-Identifier: MIT
import HarnessJSON

/// JSON text as the PubNub service needs it: string quoting for the hand-written bodies, and
/// validation and raw member spans from the package's scanner, so stored JSON is re-emitted byte
/// for byte (never re-serialised). Package access: the fuzz targets check it.
package enum PubNubJSON {
    /// `text` as a JSON string literal (quotes included).
    package static func quote(_ text: String) -> String {
        JSONText.stringLiteral(text)
    }

    /// A JSON array of string literals with `separator` between items.
    package static func stringArray(_ items: [String], separator: String = ", ") -> String {
        "[" + items.map(quote).joined(separator: separator) + "]"
    }

    /// Whether `text` is exactly one JSON value (surrounding whitespace allowed).
    package static func isValid(_ text: String) -> Bool {
        JSONText.isValid(text)
    }

    /// The decoded string of a raw JSON string literal (quotes included); `nil` for other values.
    package static func stringValue(_ raw: String) -> String? {
        (try? JSONValue.parse(raw))?.stringValue
    }

    /// The members of a JSON object as (decoded key, raw value text), in order; `nil` if `text`
    /// is not a JSON object.
    package static func objectMembers(_ text: String) -> [(key: String, value: String)]? {
        var scanner = JSONScanner(Array(text.utf8))
        guard let spans = try? scanner.objectMemberSpans() else { return nil }
        return spans.map { ($0.key, String(decoding: scanner.bytes[$0.value], as: UTF8.self)) }
    }
}

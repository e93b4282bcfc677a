// SPDX-License-Identifier: MIT

/// The payload JSON scanner (`PubNubJSON`) as the package's other modules reach it: the fuzz
/// entry points check it against the platform's JSON parser. Two calls, so the scanner can move
/// without its callers changing more than this file.
package enum PayloadJSON {
    /// Whether `text` is exactly one JSON value (surrounding whitespace allowed).
    package static func isValid(_ text: String) -> Bool {
        PubNubJSON.isValid(text)
    }

    /// The members of a JSON object as (decoded key, raw value text), in order; `nil` if `text` is
    /// not a JSON object.
    package static func objectMembers(_ text: String) -> [(key: String, value: String)]? {
        PubNubJSON.objectMembers(text)
    }

    /// `text` as a JSON string literal (quotes included).
    package static func quote(_ text: String) -> String {
        PubNubJSON.quote(text)
    }
}

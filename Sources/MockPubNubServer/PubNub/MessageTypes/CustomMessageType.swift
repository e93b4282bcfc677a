// SPDX-License-Identifier: MIT

/// The `custom_message_type` rules of publish, signal and publish-file (spec §6.2, from the
/// SDKs' documentation): 3 to 50 characters of `A-Z a-z 0-9 - _`, not starting with `-` or `_`,
/// and not starting with the reserved `pn-` / `pn_` prefixes.
enum CustomMessageType {
    static let lengths = 3...50

    /// Whether `value` is an acceptable custom message type.
    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard lengths.contains(bytes.count), let first = bytes.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "_")
        else { return false }
        let lowered = value.lowercased()
        if lowered.hasPrefix("pn-") || lowered.hasPrefix("pn_") { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The refusal text of an invalid value. UNVERIFIED: the live body is not recorded; the
    /// publish refusal array `[0,"<text>","<tt>"]` with status 400 is used (docs/endpoints.md).
    static let refusalText = "Invalid custom_message_type"

    /// The route's `custom_message_type`: `nil` when absent or empty, a failure when invalid.
    static func parameter(_ route: PubNubRoute) -> Result<String?, CustomMessageTypeError> {
        parameter(route.query["custom_message_type"])
    }

    /// `parameter(_:)` for the value already read from the query.
    static func parameter(_ value: String?) -> Result<String?, CustomMessageTypeError> {
        guard let value, !value.isEmpty else { return .success(nil) }
        return isValid(value) ? .success(value) : .failure(CustomMessageTypeError(value: value))
    }
}

/// An invalid `custom_message_type` value.
struct CustomMessageTypeError: Error, Hashable {
    var value: String
}

// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// Percent-encoding for path segments and query values: everything except the RFC 3986
/// unreserved characters (`A-Z a-z 0-9 - _ . ~`) is encoded, so `/`, `+`, `?`, `,`, `:` become `%XX`.
enum PercentEncoding {
    /// Encodes `text`, leaving the unreserved characters and `extra` as they are.
    static func encode(_ text: String, keeping extra: Set<UInt8> = []) -> String {
        PercentCoding.encode(text, keeping: PercentCoding.Kept(extra: extra))
    }

    /// Names joined with a literal `,`, each encoded on its own; an empty list is the literal `,`.
    static func commaList(_ names: [String]) -> String {
        names.isEmpty ? "," : names.map { encode($0) }.joined(separator: ",")
    }
}

// SPDX-License-Identifier: MIT

/// Percent-encoding for path segments and query values: everything except the RFC 3986
/// unreserved characters (`A-Z a-z 0-9 - _ . ~`) is encoded, so `/`, `+`, `?`, `,`, `:` become `%XX`.
enum PercentEncoding {
    /// `strict` also encodes `~` (the signature's encoding).
    static func encode(_ text: String, keeping extra: Set<UInt8> = [], strict: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if (isUnreserved(byte) && !(strict && byte == 0x7E)) || extra.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out += hexDigits[Int(byte >> 4)]
                out += hexDigits[Int(byte & 0x0F)]
            }
        }
        return out
    }

    /// Names joined with a literal `,`, each encoded on its own; an empty list is the literal `,`.
    static func commaList(_ names: [String]) -> String {
        names.isEmpty ? "," : names.map { encode($0) }.joined(separator: ",")
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    private static func isUnreserved(_ b: UInt8) -> Bool {
        (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b)
            || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x7E
    }
}

// SPDX-License-Identifier: MIT

/// An absolute `http` or `https` URL as a client needs it: the scheme, the host and port to
/// connect to, and the origin-form target (path and query) to send. The one parser of such URLs
/// (a storage URL a file service hands out, a recording proxy's upstream).
public struct HTTPURL: Sendable, Hashable {
    public var isTLS: Bool
    /// The host, without the brackets of an IPv6 literal.
    public var host: String
    public var port: Int
    /// Path and query (`/` when the URL has no path).
    public var target: String

    /// Parses `http(s)://host[:port]/path?query` (IPv6 hosts in brackets); nil for anything else.
    public init?(_ text: String) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            isTLS = true
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            isTLS = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<slash]
        target = slash == rest.endIndex ? "/" : (rest[slash] == "?" ? "/" + rest[slash...] : String(rest[slash...]))
        var hostPart = authority
        var portValue: Int?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portValue = Int(after.dropFirst())
                if portValue == nil { return nil }
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            guard let value = Int(authority[authority.index(after: colon)...]) else { return nil }
            portValue = value
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        port = portValue ?? (isTLS ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
    }
}

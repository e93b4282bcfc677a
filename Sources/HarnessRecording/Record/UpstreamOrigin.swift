// SPDX-License-Identifier: MIT

/// Where the recording proxy forwards: `http://host[:port]` or `https://host[:port]`.
public struct UpstreamOrigin: Sendable, Hashable, CustomStringConvertible {
    public var isTLS: Bool
    public var host: String
    public var port: Int

    public init(isTLS: Bool, host: String, port: Int) {
        self.isTLS = isTLS
        self.host = host
        self.port = port
    }

    /// Parses `http://…` or `https://…` with an optional port and no path beyond `/`.
    public init(parsing text: String) throws(ProxyError) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            isTLS = true
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            isTLS = false
            rest = text.dropFirst(7)
        } else {
            throw .invalidUpstream(text, reason: "it must start with http:// or https://")
        }
        var authority = rest
        if let slash = authority.firstIndex(of: "/") {
            guard authority[slash...] == "/" else { throw .invalidUpstream(text, reason: "an origin has no path") }
            authority = authority[..<slash]
        }
        let defaultPort = isTLS ? 443 : 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":"), let port = after.isEmpty ? defaultPort : Int(after.dropFirst()) else {
                throw .invalidUpstream(text, reason: "bad port")
            }
            self.port = port
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let port = Int(authority[authority.index(after: colon)...]) else { throw .invalidUpstream(text, reason: "bad port") }
            self.port = port
        } else {
            host = String(authority)
            port = defaultPort
        }
        guard !host.isEmpty else { throw .invalidUpstream(text, reason: "no host") }
        guard (1...65535).contains(port) else { throw .invalidUpstream(text, reason: "port \(port) is not 1...65535") }
    }

    /// `scheme://host[:port]` (the port left out when it is the scheme's default).
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort = isTLS ? 443 : 80
        return (isTLS ? "https://" : "http://") + name + (port == defaultPort ? "" : ":\(port)")
    }

    /// The origin of an absolute URL and the rest of it (`/path?query`), or nil when it is not one.
    static func split(url: String) -> (origin: UpstreamOrigin, target: String)? {
        let lower = url.lowercased()
        let schemeLength = lower.hasPrefix("https://") ? 8 : lower.hasPrefix("http://") ? 7 : 0
        guard schemeLength > 0 else { return nil }
        let afterScheme = url.index(url.startIndex, offsetBy: schemeLength)
        let pathStart = url[afterScheme...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        guard let origin = try? UpstreamOrigin(parsing: String(url[..<pathStart])) else { return nil }
        var target = String(url[pathStart...])
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        return (origin, target)
    }
}

/// Why the recording proxy cannot start or record.
public enum ProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--upstream` is not an http(s) origin.
    case invalidUpstream(String, reason: String)
    /// The upstream's TLS trust cannot be set up (an unreadable `--upstream-ca`).
    case upstreamTrust(String)
    /// The recording file cannot be written.
    case output(path: String, reason: String)
    /// The listeners cannot be made or bound.
    case listen(String)

    public var description: String {
        switch self {
        case .invalidUpstream(let text, let reason): "invalid upstream \(text): \(reason)"
        case .upstreamTrust(let reason): "upstream TLS: \(reason)"
        case .output(let path, let reason): "cannot write recording \(path): \(reason)"
        case .listen(let reason): "cannot listen: \(reason)"
        }
    }
}

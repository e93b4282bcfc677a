// SPDX-License-Identifier: MIT
import HarnessHTTPClient

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
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidUpstream(text, reason: "it must start with http:// or https://")
        }
        guard let url = HTTPURL(text) else { throw .invalidUpstream(text, reason: "it must be http(s)://host[:port] with a port of 1...65535") }
        guard url.target == "/" else { throw .invalidUpstream(text, reason: "an origin has no path") }
        self.init(url)
    }

    /// The origin of a parsed URL.
    init(_ url: HTTPURL) {
        self.init(isTLS: url.isTLS, host: url.host, port: url.port)
    }

    /// `scheme://host[:port]` (the port left out when it is the scheme's default).
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort = isTLS ? 443 : 80
        return (isTLS ? "https://" : "http://") + name + (port == defaultPort ? "" : ":\(port)")
    }

    /// The origin of an absolute URL and the rest of it (`/path?query`), or nil when it is not one.
    static func split(url: String) -> (origin: UpstreamOrigin, target: String)? {
        HTTPURL(url).map { (UpstreamOrigin($0), $0.target) }
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

// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// Where to find the certificate authorities trusted for TLS (`wss` and an `https` auth endpoint).
public enum PusherTrustedCA: Sendable, Hashable {
    /// The CA certificates in this PEM file.
    case file(String)
    /// The CA certificates in this PEM text (the harness's test CA).
    case pem(String)
    /// OpenSSL's default verify paths.
    case system

    var httpTrust: HTTPTrust {
        switch self {
        case .file(let path): .file(path)
        case .pem(let pem): .pem(pem)
        case .system: .system
        }
    }
}

/// A local authorizer: answers an authorization request without an HTTP endpoint (tests, or apps
/// that sign themselves).
public typealias PusherAuthorizer = @Sendable (PusherAuthorizationRequest) async -> Result<PusherChannelAuthorization, PusherAuthorizationError>

/// Client options (libPusher's `PTPusher` properties and `pusherWithKey:` arguments).
public struct PusherClientOptions: Sendable {
    /// The WebSocket host (libPusher: `ws.pusherapp.com` or `ws-CLUSTER.pusher.com`).
    public var host: String = "ws.pusherapp.com"
    /// The port; nil = 443 with TLS, 80 without.
    public var port: Int?
    /// `wss` (default, as libPusher) or `ws`.
    public var useTLS: Bool = true
    public var trustedCA: PusherTrustedCA = .system
    /// Connect as soon as the client is made (libPusher `pusherWithKey:delegate:`); false defers to `connect()`.
    public var connectAutomatically: Bool = true
    /// Reconnection, ping and close-code behaviour.
    public var connection = PusherConnectionSettings()
    /// The protocol version in the URL: 4…7, default 6 as libPusher sends.
    public var protocolVersion: Int = 6
    /// `client=` in the URL.
    public var clientName: String = "harness-swift"
    /// `version=` in the URL.
    public var clientVersion: String = "1.0.0"
    /// Seconds allowed for connect, TLS and the upgrade.
    public var connectTimeout: Double = 10
    /// When the WebSocket upgrade is refused, fall back to the HTTP transports (`xhr_streaming`,
    /// then `xhr_polling`) on the same host and port.
    public var httpFallback: Bool = true
    /// The app server's auth endpoint, e.g. `https://example.com/pusher/auth` (libPusher `authorizationURL`).
    public var authorizationURL: String?
    /// Header fields added to every auth request (libPusher's `pusher:willAuthorizeChannel:withAuthOperation:`),
    /// e.g. a bearer token.
    public var authorizationHeaders: @Sendable (PusherAuthorizationRequest) -> [HTTPHeaderField] = { _ in [] }
    /// Seconds allowed for one auth request.
    public var authorizationTimeout: Double = 10
    /// The app server's user authentication endpoint (pusher-js `userAuthentication.endpoint`),
    /// used by ``PusherClient/signin()``.
    public var userAuthenticationURL: String?
    /// A local authorizer; when set it is used instead of `authorizationURL`.
    public var authorizer: PusherAuthorizer?

    public init(host: String = "ws.pusherapp.com", port: Int? = nil, useTLS: Bool = true) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
    }

    /// libPusher `reconnectAutomatically` (default true).
    public var reconnectAutomatically: Bool {
        get { connection.reconnectAutomatically }
        set { connection.reconnectAutomatically = newValue }
    }

    /// libPusher `reconnectDelay` (default 5 s, at least 1 s).
    public var reconnectDelay: Double {
        get { connection.reconnectDelay }
        set { connection.reconnectDelay = newValue }
    }

    /// The port actually used.
    public var effectivePort: Int { port ?? (useTLS ? 443 : 80) }

    /// `/app/KEY?client=…&version=…&protocol=…`.
    public func connectionTarget(key: String) -> String {
        "/app/\(FormEncoding.encode(key))?" + connectionQuery
    }

    /// `client=…&version=…&protocol=…`: the query of the WebSocket URL and of the HTTP sessions' requests.
    public var connectionQuery: String {
        "client=\(FormEncoding.encode(clientName))&version=\(FormEncoding.encode(clientVersion))&protocol=\(protocolVersion)"
    }

    /// Checks the values a client cannot work with.
    public func validate() throws(PusherConfigurationError) {
        guard (4...7).contains(protocolVersion) else {
            throw PusherConfigurationError(field: "protocolVersion", reason: "must be 4…7, got \(protocolVersion)")
        }
        guard !host.isEmpty else { throw PusherConfigurationError(field: "host", reason: "must not be empty") }
        if let port, !(1...65535).contains(port) {
            throw PusherConfigurationError(field: "port", reason: "must be 1…65535, got \(port)")
        }
        if let authorizationURL, PusherEndpointURL(authorizationURL) == nil {
            throw PusherConfigurationError(field: "authorizationURL", reason: "not an http(s) URL: \(authorizationURL)")
        }
        guard connection.maximumReconnectAttempts >= 0, connection.pongTimeout > 0, connectTimeout > 0 else {
            throw PusherConfigurationError(field: "connection", reason: "attempts must be ≥ 0, timeouts > 0")
        }
    }
}

/// A configuration value the client cannot use.
public struct PusherConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}

/// `http[s]://host[:port]/path[?query]`, split for the HTTP client.
struct PusherEndpointURL: Sendable, Hashable {
    var useTLS: Bool
    var host: String
    var port: Int
    var target: String

    init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("https://") {
            useTLS = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            useTLS = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(authority.count)
        target = path.isEmpty ? "/" : (path.hasPrefix("/") ? String(path) : "/" + path)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.isEmpty {
                port = useTLS ? 443 : 80
            } else {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        } else {
            host = String(authority)
            port = useTLS ? 443 : 80
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
    }
}

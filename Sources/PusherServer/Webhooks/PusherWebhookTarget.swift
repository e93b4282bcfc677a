// SPDX-License-Identifier: MIT

/// Why a webhook configuration was refused; `description` is a one-line message for the CLI.
public enum PusherWebhookError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidURL(String)
    case notLoopback(url: String, host: String)
    case unknownApp(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid webhook URL '\(url)': expected http://HOST:PORT/PATH"
        case .notLoopback(let url, let host):
            "refused webhook URL '\(url)': host '\(host)' is not loopback (webhooks only go to 127.0.0.0/8, ::1 or localhost)"
        case .unknownApp(let id): "webhook for unknown Pusher app id \(id)"
        }
    }
}

/// Where an app's webhooks go: a plain `http://` URL on a loopback host (the harness never sends
/// anything off the machine).
public struct PusherWebhookTarget: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// Path and query, as sent in the request line.
    public var target: String

    /// Parses `http://HOST[:PORT][/PATH]`; HOST must be `localhost`, `127.x.y.z` or `[::1]`.
    public init(url: String) throws(PusherWebhookError) {
        guard url.lowercased().hasPrefix("http://") else { throw .invalidURL(url) }
        let rest = url.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        var host: String
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(url) }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(url) }
                portText = String(after.dropFirst())
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw .invalidURL(url) }
            host = String(parts[0])
            portText = parts.count == 2 ? String(parts[1]) : nil
        }
        guard !host.isEmpty, !host.contains("@") else { throw .invalidURL(url) }
        let port = portText.map { Int($0) } ?? 80
        guard let port, (1...65_535).contains(port) else { throw .invalidURL(url) }
        host = host.lowercased()
        guard Self.isLoopback(host) else { throw .notLoopback(url: url, host: host) }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        self.target = path
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in UInt8(octet).map { _ in octet.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } } ?? false }
    }
}

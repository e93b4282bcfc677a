// SPDX-License-Identifier: MIT

/// An HTTP request as the client sends it.
public struct HTTPClientRequest: Sendable, Equatable {
    public var method: String
    /// Path and query, already percent-encoded.
    public var target: String
    public var body: [UInt8]?
    /// The `Content-Type` sent with a body.
    public var contentType: String
    /// Extra header fields, sent after the standard ones in name order (e.g. a webhook's signature).
    public var headers: [String: String]

    public init(method: String = "GET", target: String, body: [UInt8]? = nil, contentType: String = "application/json",
                headers: [String: String] = [:])
    {
        self.method = method
        self.target = target
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }

    /// "GET /path?query".
    public var summary: String { "\(method) \(target)" }

    /// The request bytes: request line, Host, User-Agent, Accept, `Connection` (`close`, or
    /// `keep-alive` when the connection is to be reused), body headers, the extra fields. An extra
    /// `User-Agent` or `Accept` field replaces the standard one (a proxy forwarding a client's).
    public func encode(hostHeader: String, userAgent: String, keepAlive: Bool = false) -> [UInt8] {
        let named = Set(headers.keys.map { $0.lowercased() })
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        if !named.contains("user-agent") { head += "User-Agent: \(userAgent)\r\n" }
        if !named.contains("accept") { head += "Accept: */*\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }
}

/// One extra request header field.
public struct HTTPHeaderField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A complete HTTP response.
public struct HTTPClientResponse: Sendable, Equatable {
    public var statusCode: Int
    /// Header names lowercased, in arrival order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(statusCode: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The first header value with this (case-insensitive) name.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }
}

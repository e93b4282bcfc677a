// SPDX-License-Identifier: MIT

/// A complete HTTP response the server writes with a correct `Content-Length`.
///
/// The transport adds `Content-Length` and `Connection` itself; handlers set the status, the
/// content type and the body. Deliberately broken framing is expressed with `ResponseAction.raw`.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The reason phrase; when `nil` the standard phrase for `status` is used.
    public var reason: String?
    /// Header fields other than `Content-Length` and `Connection`.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    public init(status: Int, reason: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Whether `other` is a copy of this response: same status, reason and headers, and a body
    /// that shares this body's storage. A cheap check that never says yes for different bytes (a
    /// different body buffer counts as different, even with equal contents).
    package func isSameValue(as other: HTTPResponse) -> Bool {
        guard status == other.status, hasSameReason(as: other), body.count == other.body.count else { return false }
        let sameBody = body.withUnsafeBufferPointer { mine in
            other.body.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
        return sameBody && hasSameHead(as: other)
    }

    /// Whether `other` has the same status, reason and header fields (its body aside): the part of
    /// the head a transport can encode once and reuse. Fields that share storage (a constant set of
    /// headers, as handlers use) are taken as equal without comparing them.
    package func hasSameHead(as other: HTTPResponse) -> Bool {
        guard status == other.status, hasSameReason(as: other) else { return false }
        return headers.sharesStorage(with: other.headers) || headers == other.headers
    }

    /// Whether both reasons are absent or equal, compared in place (`==` on two optionals copies both).
    private func hasSameReason(as other: HTTPResponse) -> Bool {
        if reason == nil { return other.reason == nil }
        if other.reason == nil { return false }
        return reason! == other.reason!
    }

    /// The reason phrase used on the status line.
    public var reasonPhrase: String { reason ?? Self.standardReason(status) }

    /// The standard reason phrase for a status code (RFC 9110 §15), or "Unknown".
    public static func standardReason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 481: "Malformed Filter Expression"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }
}

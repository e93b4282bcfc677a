// SPDX-License-Identifier: MIT

/// Why a request could not be framed (or not in time); the connection answers (see ``HTTPParseErrorResponder``) and closes.
package enum HTTPParseError: Error, Sendable, Hashable {
    /// The request line is not `method SP request-target SP HTTP-version` (RFC 9112 §3).
    case invalidRequestLine
    /// The request-target is neither origin-form (`/…`) nor absolute-form (`http://…`), e.g. `time/0` (RFC 9112 §3.2).
    case invalidRequestTarget
    /// The first bytes are a TLS handshake record: a TLS client connected to a plain HTTP port.
    case tlsOnPlainPort
    /// The version is well-formed but not HTTP/1.0 or HTTP/1.1 (RFC 9110 §15.6.6).
    case unsupportedVersion(String)
    /// A header line has no colon, an empty or invalid name, or whitespace before the colon (RFC 9112 §5.1).
    case invalidHeader
    /// The request-target is longer than the limit (RFC 9112 §3: 414).
    case targetTooLong(limit: Int)
    /// The request line plus header fields exceed the limit (RFC 6585 §5: 431).
    case headersTooLarge(limit: Int)
    /// The body (after removing chunked coding) exceeds the limit (RFC 9110 §15.5.14: 413).
    case bodyTooLarge(limit: Int)
    /// `Content-Length` is not a decimal number, or several differing values were sent (RFC 9112 §6.3).
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding` were sent (RFC 9112 §6.1: treat as an error).
    case conflictingContentLengthAndTransferEncoding
    /// A transfer coding other than a final `chunked` (RFC 9112 §6.1: 501).
    case unsupportedTransferEncoding(String)
    /// The chunked body is malformed: bad size line, missing CRLF after data, bad trailer (RFC 9112 §7.1).
    case invalidChunkedBody
    /// The request (head and body) did not arrive within the server's request timeout (RFC 9110 §15.5.9: 408).
    case requestTimeout

    /// The HTTP status the server answers this error with.
    package var status: Int {
        switch self {
        case .invalidRequestLine, .invalidRequestTarget, .tlsOnPlainPort, .invalidHeader, .invalidContentLength,
            .conflictingContentLengthAndTransferEncoding, .invalidChunkedBody:
            400
        case .unsupportedVersion: 505
        case .targetTooLong: 414
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .requestTimeout: 408
        }
    }

    /// A minimal protocol-neutral answer: the status, `text/plain`, the reason phrase as body. The
    /// server uses it unless the application injects its own responder (``HTTPParseErrorResponder``).
    package var plainResponse: HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array((HTTPResponse.standardReason(status) + "\n").utf8))
    }
}

/// Turns a framing error into the response the connection writes before it closes; injected into
/// ``HTTPServer`` by the application (the mock answers like PubNub's load balancer).
package typealias HTTPParseErrorResponder = @Sendable (HTTPParseError) -> HTTPResponse

// SPDX-License-Identifier: MIT

/// Why a request failed below HTTP: name resolution, connect, TLS, I/O, deadline, framing.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name could not be resolved.
    case nameResolution(String)
    /// `connect` failed (`ECONNREFUSED`, `EHOSTUNREACH`, `ENETUNREACH`, …); errno and its text.
    case connectFailed(errno: Int32, String)
    /// The connection was reset or broken while sending or receiving (`ECONNRESET`, `EPIPE`).
    case connectionLost(errno: Int32, String)
    /// The peer closed the connection before a complete response arrived.
    case closedBeforeResponse(receivedBytes: Int)
    /// The deadline passed (connect, TLS handshake, send or receive).
    case timedOut(phase: String)
    /// The request was cancelled from another thread.
    case cancelled
    /// The TLS handshake failed for a reason other than certificate trust.
    case tlsHandshakeFailed(String)
    /// The server's certificate was not trusted; `verifyResult` is OpenSSL's `X509_V_ERR_*` code.
    case tlsUntrustedCertificate(verifyResult: Int, String)
    /// The bytes received are not an HTTP/1.1 response.
    case malformedHTTP(String)
    /// A local problem (socket creation, TLS context setup, CA file unreadable).
    case localFailure(String)

    public var description: String {
        switch self {
        case .nameResolution(let host): "cannot resolve \(host)"
        case .connectFailed(let code, let text): "connect failed: errno \(code) (\(text))"
        case .connectionLost(let code, let text): "connection lost: errno \(code) (\(text))"
        case .closedBeforeResponse(let count): "connection closed after \(count) bytes, before a complete response"
        case .timedOut(let phase): "timed out during \(phase)"
        case .cancelled: "cancelled"
        case .tlsHandshakeFailed(let reason): "TLS handshake failed: \(reason)"
        case .tlsUntrustedCertificate(let code, let text): "certificate not trusted: verify result \(code) (\(text))"
        case .malformedHTTP(let reason): "malformed HTTP response: \(reason)"
        case .localFailure(let reason): "local failure: \(reason)"
        }
    }
}

// SPDX-License-Identifier: MIT

/// Why a ``ServerHost`` could not be made or started; the payloads stay typed so that only the
/// CLI formats them.
public enum ServerHostError: Error, Sendable, CustomStringConvertible {
    /// The test CA, the leaves or the TLS contexts could not be made.
    case tls(TLSError)
    /// A listener could not be bound or the loops could not start.
    case bind(HTTPServerError)
    /// The host is not running (stopped, or never started).
    case notRunning

    public var description: String {
        switch self {
        case .tls(let error): "cannot prepare TLS: \(error)"
        case .bind(let error): "cannot start listening: \(error)"
        case .notRunning: "the server is not running"
        }
    }
}

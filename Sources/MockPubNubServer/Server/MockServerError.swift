// SPDX-License-Identifier: MIT

/// Why the mock server could not be made or started; the payloads stay typed (formatted only by
/// `description`, which the CLI prints).
public struct MockServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The test CA, the leaves or the TLS contexts could not be made.
        case tls(TLSError)
        /// A listener could not be bound or the loops could not start.
        case bind(HTTPServerError)
        /// The server is not running (stopped, or never started).
        case notRunning
    }

    public let reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    init(host error: ServerHostError) {
        switch error {
        case .tls(let detail): reason = .tls(detail)
        case .bind(let detail): reason = .bind(detail)
        case .notRunning: reason = .notRunning
        }
    }

    public var description: String {
        switch reason {
        case .tls(let detail): "cannot prepare TLS: \(detail)"
        case .bind(let detail): "cannot start listening: \(detail)"
        case .notRunning: "the server is not running"
        }
    }
}

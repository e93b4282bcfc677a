// SPDX-License-Identifier: MIT

/// Why the mock server could not be made or started.
public struct MockServerError: Error, Sendable, CustomStringConvertible {
    enum Reason: Sendable {
        case tls(String)
        case bind(String)
        case notRunning
    }

    let reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .tls(let detail): "cannot prepare TLS: \(detail)"
        case .bind(let detail): "cannot start listening: \(detail)"
        case .notRunning: "the server is not running"
        }
    }
}

// SPDX-License-Identifier: MIT

/// Why the runner could not control the server.
public enum HarnessServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server (or this way of reaching it) cannot do this; cases needing it are skipped.
    case unsupported(String)
    /// A control request failed: what was asked, and the status or transport error.
    case requestFailed(operation: String, detail: String)
    /// A control answer could not be read.
    case invalidAnswer(operation: String, detail: String)

    public var description: String {
        switch self {
        case .unsupported(let what): "server does not support \(what)"
        case .requestFailed(let operation, let detail): "\(operation) failed: \(detail)"
        case .invalidAnswer(let operation, let detail): "\(operation): unreadable answer: \(detail)"
        }
    }
}

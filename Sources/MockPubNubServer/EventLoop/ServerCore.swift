// SPDX-License-Identifier: MIT
import Synchronization

/// What every connection of one server shares: the handler, the limits and the counters.
final class ServerCore: Sendable {
    let handler: any RequestHandler
    let limits: HTTPRequestParser.Limits
    let maxQueuedRequests: Int
    let finDrainNanos: UInt64
    let openConnections = Atomic<Int>(0)
    private let connectionIDs = Atomic<UInt64>(0)
    /// Told about connections that end without a request being answered normally.
    let diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)?

    init(handler: any RequestHandler, limits: HTTPRequestParser.Limits, maxQueuedRequests: Int, finDrainNanos: UInt64,
         diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)? = nil) {
        self.diagnostics = diagnostics
        self.handler = handler
        self.limits = limits
        self.maxQueuedRequests = maxQueuedRequests
        self.finDrainNanos = finDrainNanos
    }

    func nextConnectionID() -> UInt64 { connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// A connection problem worth a warning: bytes that are not HTTP, or a failed TLS handshake.
public enum ConnectionDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The request could not be framed; the server answered `status` and closed.
    case parseFailure(peer: String, status: Int, reason: String)
    /// The TLS handshake failed (the peer's alert, a protocol mismatch, a reset).
    case tlsHandshakeFailure(peer: String, reason: String)

    public var description: String {
        switch self {
        case .parseFailure(let peer, let status, let reason): "unparsable request from \(peer): \(reason) (answered \(status), closed)"
        case .tlsHandshakeFailure(let peer, let reason): "TLS handshake with \(peer) failed: \(reason)"
        }
    }
}

/// Carries a loop-confined object inside `@Sendable` closures.
// `value` is only dereferenced on the thread of the loop that owns it (callers hop there first).
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

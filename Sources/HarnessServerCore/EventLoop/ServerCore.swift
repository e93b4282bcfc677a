// SPDX-License-Identifier: MIT
import Logging
import Synchronization

/// What every connection of one server shares: the handler, the limits and the counters.
final class ServerCore: Sendable {
    let handler: any RequestHandler
    /// `handler`, opened once: what each request calls (see `OpenedRequestHandler`).
    let handlerCall: any OpenedRequestHandler
    /// The answer to a request that cannot be framed (the application's, e.g. PubNub's balancer body).
    let parseErrorResponse: HTTPParseErrorResponder
    let limits: HTTPRequestParser.Limits
    let maxQueuedRequests: Int
    let finDrainNanos: UInt64
    /// How long a request (head and body) may take from its first byte, or from accept for the
    /// first request of a connection; 0 = no limit.
    let requestTimeoutNanos: UInt64
    /// How long a keep-alive connection may wait with no request in flight; 0 = no limit.
    let idleTimeoutNanos: UInt64
    /// Where connection timeouts are logged (debug).
    let logger: Logger?
    let openConnections = Atomic<Int>(0)
    /// Connections closed because a request did not complete within `requestTimeoutNanos`.
    let requestTimeouts = Atomic<Int>(0)
    /// Connections closed after `idleTimeoutNanos` without a request.
    let idleTimeouts = Atomic<Int>(0)
    /// Connections whose first bytes were a TLS handshake on a plain listener.
    let tlsOnPlainPort = Atomic<Int>(0)
    private let connectionIDs = Atomic<UInt64>(0)
    /// Decides which requests switch to WebSocket; nil = none ever do (plain HTTP server).
    let upgradeRouter: (any WebSocketUpgradeRouter)?
    /// Limits of upgraded connections.
    let webSocket: WebSocketSettings
    /// Upgraded connections not yet closed.
    let openWebSockets = Atomic<Int>(0)
    /// WebSocket connections aborted because the peer did not read (outbound buffer over its limit).
    let webSocketOverflows = Atomic<Int>(0)
    /// Told about connections that end without a request being answered normally.
    let diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)?
    /// The cross-origin fields every well-framed answer carries (with `Date`), when
    /// `decoratesAnswers`. Not optional, so the per-request reads borrow it without a retain.
    let cors: CORSPolicy
    /// Whether answers carry `cors`'s fields (false: `cors` is an empty policy, never read).
    let decoratesAnswers: Bool

    init(
        handler: any RequestHandler, parseErrorResponse: @escaping HTTPParseErrorResponder, limits: HTTPRequestParser.Limits, maxQueuedRequests: Int, finDrainNanos: UInt64,
        requestTimeoutNanos: UInt64 = 0, idleTimeoutNanos: UInt64 = 0, logger: Logger? = nil,
        diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)? = nil,
        upgradeRouter: (any WebSocketUpgradeRouter)? = nil, webSocket: WebSocketSettings = WebSocketSettings(),
        cors: CORSPolicy? = nil
    ) {
        self.cors = cors ?? CORSPolicy.none
        decoratesAnswers = cors != nil
        self.upgradeRouter = upgradeRouter
        self.webSocket = webSocket
        self.diagnostics = diagnostics
        self.handler = handler
        handlerCall = opened(handler)
        self.parseErrorResponse = parseErrorResponse
        self.limits = limits
        self.maxQueuedRequests = maxQueuedRequests
        self.finDrainNanos = finDrainNanos
        self.requestTimeoutNanos = requestTimeoutNanos
        self.idleTimeoutNanos = idleTimeoutNanos
        self.logger = logger
    }

    /// Whether connections watch for slow requests or idleness at all.
    var watchesConnections: Bool { requestTimeoutNanos > 0 || idleTimeoutNanos > 0 }

    func nextConnectionID() -> UInt64 { connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// A connection problem worth a warning: bytes that are not HTTP, or a failed TLS handshake.
public enum ConnectionDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The request could not be framed; the server answered `status` and closed.
    case parseFailure(peer: String, status: Int, reason: String)
    /// The TLS handshake failed (the peer's alert, a protocol mismatch, a reset).
    case tlsHandshakeFailure(peer: String, reason: String)
    /// A TLS ClientHello arrived on a plain HTTP listener; the server answered 400 and closed.
    case tlsOnPlainPort(peer: String, port: Int)
    /// An accept or a handshake outcome, for the timelines of watched listeners (not a warning).
    case connection(ConnectionEvent)

    public var description: String {
        switch self {
        case .parseFailure(let peer, let status, let reason): "unparsable request from \(peer): \(reason) (answered \(status), closed)"
        case .tlsHandshakeFailure(let peer, let reason): "TLS handshake with \(peer) failed: \(reason)"
        case .tlsOnPlainPort(let peer, let port):
            "TLS handshake from \(peer) on plain HTTP port \(port): answered 400 (this port speaks plain HTTP), closed"
        case .connection(let event): "\(event.kind.rawValue) on port \(event.localPort): \(event.detail)"
        }
    }
}

/// Carries a loop-confined object inside `@Sendable` closures; it knows its loop, and debug builds
/// check on every access that the caller may touch that loop's state (``EventLoop/assertInLoop(_:file:line:)``),
/// as NIO's `NIOLoopBound` does.
// `value` is only dereferenced on the thread of `loop` (callers hop there first; debug builds verify).
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    /// The loop whose thread may use `value`.
    let loop: EventLoop
    private let wrapped: Value

    init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.wrapped = value
    }

    /// The object without the thread check, for code that hands it to its loop itself.
    var unchecked: Value { wrapped }

    /// The object; debug builds trap when called off its loop's thread.
    var value: Value {
        loop.assertInLoop("LoopBound.value")
        return wrapped
    }
}

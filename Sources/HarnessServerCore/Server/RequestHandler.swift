// SPDX-License-Identifier: MIT
import Synchronization

/// Something that answers requests: the PubNub service, the fault layer wrapped around it, the admin API.
///
/// `handle` is called on an event-loop thread and must not block: answer at once through the
/// responder, or keep the responder (a parked long-poll) and answer later from any thread.
public protocol RequestHandler: Sendable {
    /// Handles one complete request. Exactly one `responder.send` should follow, now or later.
    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder)
}

/// Facts about the connection a request arrived on.
public struct RequestContext: Sendable, Hashable {
    /// A process-unique connection number.
    public var connectionID: UInt64
    /// The peer as `host:port`.
    public var peer: String
    /// The local port the connection was accepted on.
    public var localPort: Int
    /// Whether the connection speaks TLS.
    public var isTLS: Bool
    /// Wall-clock arrival time of the request's first byte, in Unix seconds.
    public var arrivalTime: Double
    /// Which request this is on its connection (0 for the first).
    public var sequenceOnConnection: Int

    public init(
        connectionID: UInt64, peer: String, localPort: Int, isTLS: Bool,
        arrivalTime: Double, sequenceOnConnection: Int
    ) {
        self.connectionID = connectionID
        self.peer = peer
        self.localPort = localPort
        self.isTLS = isTLS
        self.arrivalTime = arrivalTime
        self.sequenceOnConnection = sequenceOnConnection
    }

    /// Whether the peer is a loopback address: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6
    /// (`::ffff:127.0.0.1`, how an IPv4 client reaches a dual-stack `::` listener).
    public var peerIsLoopback: Bool {
        var host = Substring(peer)
        if host.hasPrefix("[") { host = host.dropFirst() }
        if host.lowercased().hasPrefix("::ffff:") { host = host.dropFirst(7) }
        return host.hasPrefix("127.") || host.hasPrefix("::1]") || host == "::1"
    }
}

/// The one-shot reply channel of a request; safe to use from any thread.
///
/// The first `send` wins; later sends are ignored. If the client goes away first, the transport
/// calls `cancel()`, which runs the registered cancellation handlers (for example to forget a
/// parked long-poll) and makes every later `send` a no-op.
public final class Responder: Sendable {
    private struct State {
        var done = false
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let deliver: @Sendable (ResponseAction) -> Void

    /// Creates a responder that hands the action to `deliver` (exactly once).
    public init(_ deliver: @escaping @Sendable (ResponseAction) -> Void) {
        self.deliver = deliver
    }

    /// Sends `action` if nothing was sent and the request was not cancelled; returns whether it was sent.
    @discardableResult
    public func send(_ action: ResponseAction) -> Bool {
        let first = state.withLock { state -> Bool in
            if state.done { return false }
            state.done = true
            state.cancelHandlers.removeAll()
            return true
        }
        if first { deliver(action) }
        return first
    }

    /// Whether a response was sent or the request was cancelled.
    public var isCompleted: Bool { state.withLock { $0.done } }

    /// Registers `handler` to run if the request is cancelled; runs it now if it already was.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.done { return true }
            state.cancelHandlers.append(handler)
            return false
        }
        // A completed (answered) request never calls its cancel handlers; only a cancelled one does.
        if runNow && wasCancelled { handler() }
    }

    private let cancelled = Atomic<Bool>(false)

    /// Whether the transport cancelled this request because the client went away.
    public var wasCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the request as abandoned by the client and runs the cancellation handlers once.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            if state.done { return [] }
            state.done = true
            cancelled.store(true, ordering: .releasing)
            defer { state.cancelHandlers.removeAll() }
            return state.cancelHandlers
        }
        for handler in handlers { handler() }
    }
}

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
///
/// A responder ends in one of three ways: a closure, a connection of the transport (the
/// responders the server hands to handlers), or another responder behind an observer (a layer
/// that records or logs the answer, see `init(relayingTo:observer:)`). The last two carry no
/// closure, so `send(_:)` over many responders can hand each event loop its share at once.
public final class Responder: Sendable {
    private struct State {
        var done = false
        /// The first cancellation handler, kept inline (a parked request usually has one and no more).
        var firstCancelHandler: (@Sendable () -> Void)?
        /// The handlers registered after the first, in order.
        var moreCancelHandlers: [@Sendable () -> Void] = []
        /// The relaying responder in front of this one, cancelled with it.
        var relay: Responder?
        /// The request's number on its connection (a connection target's; see `rearm(token:)`).
        var token: UInt64 = 0
        /// The observer attached by `observed(by:)`: told of the answer or the cancellation first.
        var observer: (any ResponseObserver)?
        /// Whether `observer` holds one: tested instead of the optional existential, which is
        /// copied (and the copy destroyed) whenever it is read or matched.
        var hasObserver = false
    }

    /// Where a sent action goes. (The relay is boxed, so that the common targets keep every
    /// responder small: a parked long-poll holds one.)
    private enum Target: Sendable {
        case closure(@Sendable (ResponseAction) -> Void)
        case connection(ConnectionTarget)
        indirect case relay(Responder, any ResponseObserver)
    }

    private let state: Mutex<State>
    private let target: Target

    /// Creates a responder that hands the action to `deliver` (exactly once).
    public init(_ deliver: @escaping @Sendable (ResponseAction) -> Void) {
        state = Mutex(State())
        target = .closure(deliver)
    }

    /// The responder of request `token` on `connection` (the transport's own).
    init(connection: ConnectionTarget, token: UInt64) {
        state = Mutex(State(token: token))
        target = .connection(connection)
    }

    /// A responder in front of `outer`: what is sent here is shown to `observer`, then sent to
    /// `outer`; when `outer` is cancelled (the client went away), `observer` hears of it first,
    /// then this responder is cancelled too. Costs no closure per request. Until the request ends
    /// (answered or cancelled, as every request on a connection does), `outer` and this responder
    /// keep each other alive.
    package init(relayingTo outer: Responder, observer: any ResponseObserver) {
        state = Mutex(State())
        target = .relay(outer, observer)
        let cancelledAlready = outer.state.withLock { state -> Bool in
            if state.done { return true }
            state.relay = self
            return false
        }
        if cancelledAlready && outer.wasCancelled {
            observer.cancelled()
            cancel()
        }
    }

    /// This responder with `observer` attached: what is sent is shown to `observer` first, and
    /// when the request is cancelled (the client went away) `observer` hears of it before any
    /// cancellation handler runs. The same object, so that a layer that only watches the answer
    /// (the journal) adds no responder per request; a relaying responder
    /// (`init(relayingTo:observer:)`) when an observer is attached already or the request ended.
    package func observed(by observer: any ResponseObserver) -> Responder {
        let attached = state.withLock { state -> Bool in
            guard !state.done, !state.hasObserver else { return false }
            state.observer = observer
            state.hasObserver = true
            return true
        }
        return attached ? self : Responder(relayingTo: self, observer: observer)
    }

    /// Sends `action` if nothing was sent and the request was not cancelled; returns whether it was sent.
    @discardableResult
    public func send(_ action: ResponseAction) -> Bool {
        guard let token = claim(telling: action) else { return false }
        switch target {
        case .closure(let deliver):
            deliver(action)
        case .connection(let connection):
            connection.deliver(action, token: token)
        case .relay(let outer, let observer):
            observer.responded(action)
            outer.send(action)
        }
        return true
    }

    /// Sends each action to its responder, as `send(_:)` one after another would, but hands each
    /// event loop its connections' answers in one task with one wake-up (a publish waking
    /// thousands of parked long-polls), and the loop of the calling thread its share after the
    /// other loops got theirs, so that all loops write at once.
    /// (An array, not any sequence: a generic call across modules would iterate through witness tables.)
    public static func send(_ batch: [(Responder, ResponseAction)]) {
        var shares = LoopShares()
        for (responder, action) in batch { responder.route(action, into: &shares) }
        shares.hand()
    }

    /// `send(_:)` for one member of a batch: connection targets are collected per loop.
    private func route(_ action: ResponseAction, into shares: inout LoopShares) {
        guard let token = claim(telling: action) else { return }
        switch target {
        case .closure(let deliver):
            deliver(action)
        case .connection(let connection):
            shares.add(action, for: connection, token: token)
        case .relay(let outer, let observer):
            observer.responded(action)
            outer.route(action, into: &shares)
        }
    }

    /// What `claim()` found: the request ended already (answered or cancelled), or its token,
    /// with its observer if one is attached (taken out).
    /// (An enum, not an optional tuple: those are copied and destroyed through the runtime's
    /// generic witnesses, even when no observer is attached.)
    private enum Claim {
        case ended
        case claimed(UInt64)
        case observed(UInt64, any ResponseObserver)
    }

    /// `claim()`, and the observer (if one was attached) told of `action`: the request's token,
    /// or nil when it had ended.
    @inline(__always)
    private func claim(telling action: ResponseAction) -> UInt64? {
        switch claim() {
        case .ended:
            return nil
        case .claimed(let token):
            return token
        case .observed(let token, let observer):
            observer.responded(action)
            return token
        }
    }

    /// Marks the request answered and returns its token and its observer (taken out); `.ended`
    /// when it already was answered, or was cancelled.
    private func claim() -> Claim {
        state.withLock { state -> Claim in
            if state.done { return .ended }
            state.done = true
            state.firstCancelHandler = nil
            if !state.moreCancelHandlers.isEmpty { state.moreCancelHandlers = [] }
            state.relay = nil
            guard state.hasObserver else { return .claimed(state.token) }
            state.hasObserver = false
            guard let observer = state.observer.take() else { return .claimed(state.token) }
            return .observed(state.token, observer)
        }
    }

    /// Makes an answered responder of the transport's own the responder of request `token` on
    /// the same connection, so that a connection answering request after request allocates no
    /// responder per request. Only for a responder nothing but the connection holds any more
    /// (`isKnownUniquelyReferenced`, on the connection's loop): no handler can still send through
    /// it. Only for a responder made by `init(connection:token:)`. False (and nothing changed)
    /// unless it was answered, not cancelled.
    func rearm(token: UInt64) -> Bool {
        guard !wasCancelled else { return false }
        return state.withLock { state -> Bool in
            guard state.done else { return false }
            state.done = false
            state.token = token
            return true
        }
    }

    /// Whether a response was sent or the request was cancelled.
    public var isCompleted: Bool { state.withLock { $0.done } }

    /// Registers `handler` to run if the request is cancelled; runs it now if it already was.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.done { return true }
            if state.firstCancelHandler == nil {
                state.firstCancelHandler = handler
            } else {
                state.moreCancelHandlers.append(handler)
            }
            return false
        }
        // A completed (answered) request never calls its cancel handlers; only a cancelled one does.
        if runNow && wasCancelled { handler() }
    }

    private let cancelled = Atomic<Bool>(false)

    /// Whether the transport cancelled this request because the client went away.
    public var wasCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the request as abandoned by the client, tells its observer, and runs the
    /// cancellation handlers once.
    public func cancel() {
        let (observer, first, more, relay) = state.withLock {
            state -> ((any ResponseObserver)?, (@Sendable () -> Void)?, [@Sendable () -> Void], Responder?) in
            if state.done { return (nil, nil, [], nil) }
            state.done = true
            cancelled.store(true, ordering: .releasing)
            defer {
                state.firstCancelHandler = nil
                state.moreCancelHandlers = []
                state.relay = nil
            }
            let observer = state.hasObserver ? state.observer.take() : nil
            state.hasObserver = false
            return (observer, state.firstCancelHandler, state.moreCancelHandlers, state.relay)
        }
        observer?.cancelled()
        first?()
        for handler in more { handler() }
        if let relay, case .relay(_, let observer) = relay.target {
            observer.cancelled()
            relay.cancel()
        }
    }
}

/// What an observed responder (`Responder.observed(by:)`) or a relaying one
/// (`Responder.init(relayingTo:observer:)`) tells its observer; called on whichever thread
/// answers or cancels, at most once in all.
package protocol ResponseObserver: Sendable {
    /// The action is about to be passed on.
    func responded(_ action: ResponseAction)
    /// The client went away before any answer.
    func cancelled()
}

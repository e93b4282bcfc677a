// SPDX-License-Identifier: MIT
import Synchronization

/// The body of a streamed answer (`ResponseAction.stream`): chunks written later, from any
/// thread, until `end()`, on a response held open meanwhile (HTTP streaming transports).
///
/// Chunks written before the transport took the stream are kept and go out behind the head, in
/// order; every write is one `Transfer-Encoding: chunked` chunk on the wire (HTTP/1.0: the bytes
/// as they are, and the connection closes at the end). When the connection ends before `end()`
/// (the client went away), the handlers registered with `onClose` run once.
public final class ResponseStream: Sendable, Hashable {
    private struct State {
        var target: ConnectionTarget?
        var token: UInt64 = 0
        /// Written and not yet handed to the connection's loop.
        var pending: [[UInt8]] = []
        /// `end()` was called (handed to the loop behind `pending`).
        var ended = false
        var endHanded = false
        /// A hand-over to the loop is queued.
        var drainQueued = false
        /// The connection ended before the stream did.
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []

        /// The target to hand pending work to, when attached and no hand-over is queued (which then is).
        mutating func claimDrain() -> ConnectionTarget? {
            guard let target, !drainQueued, !closed, !pending.isEmpty || (ended && !endHanded) else { return nil }
            drainQueued = true
            return target
        }
    }

    private let state = Mutex(State())

    public init() {}

    public static func == (lhs: ResponseStream, rhs: ResponseStream) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Queues `bytes` as one chunk (nothing when empty, or after `end()` or the connection's end).
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let target = state.withLock { state -> ConnectionTarget? in
            guard !state.ended, !state.closed else { return nil }
            state.pending.append(bytes)
            return state.claimDrain()
        }
        if let target { hand(to: target) }
    }

    /// Ends the answer after the chunks written so far (the terminating chunk); the connection
    /// then goes on with its next request.
    public func end() {
        let target = state.withLock { state -> ConnectionTarget? in
            guard !state.ended, !state.closed else { return nil }
            state.ended = true
            return state.claimDrain()
        }
        if let target { hand(to: target) }
    }

    /// Runs `handler` once when the connection ends before `end()` (at once if it already has).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            if !state.ended { state.closeHandlers.append(handler) }
            return false
        }
        if runNow { handler() }
    }

    /// Whether the connection ended before the stream did.
    public var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: The transport's side

    /// The connection took the stream for request `token` (on its loop): what was written so far follows.
    func attach(_ target: ConnectionTarget, token: UInt64) {
        let drain = state.withLock { state -> ConnectionTarget? in
            state.target = target
            state.token = token
            return state.claimDrain()
        }
        if let drain { hand(to: drain) }
    }

    /// The connection ended (on its loop): the close handlers run unless the stream had ended.
    func connectionClosed() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed, !state.endHanded else { return [] }
            state.closed = true
            state.pending = []
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }

    private func hand(to target: ConnectionTarget) {
        target.loop.execute { [self] in
            let (chunks, end, token) = state.withLock { state -> ([[UInt8]], Bool, UInt64) in
                state.drainQueued = false
                let chunks = state.pending
                state.pending = []
                let end = state.ended && !state.endHanded && !state.closed
                if end { state.endHanded = true }
                return (state.closed ? [] : chunks, end, state.token)
            }
            let connection = target.onLoop
            for chunk in chunks { connection.streamWrite(chunk, token: token) }
            if end { connection.streamEnded(token: token) }
        }
    }
}

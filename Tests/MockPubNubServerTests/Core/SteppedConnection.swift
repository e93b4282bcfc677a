// SPDX-License-Identifier: MIT
import CPosix
@testable import HarnessHTTP
@testable import HarnessServerCore

/// A `Connection` over a `MemoryStream`, on an `EventLoop` whose thread never runs: the test
/// delivers the epoll events and steps the loop's tasks, deferred work and timers by hand. An
/// eventfd stands in for the socket, so the registration and the close are real system calls.
final class SteppedConnection {
    let loop: EventLoop
    let core: ServerCore
    /// The test's end (it plays the client).
    let client: MemoryStream
    /// The connection's end.
    let stream: MemoryStream
    let connection: Connection

    init(handler: any RequestHandler, upgradeRouter: (any WebSocketUpgradeRouter)? = nil, maxQueuedRequests: Int = 16,
         requestTimeoutNanos: UInt64 = 0, idleTimeoutNanos: UInt64 = 0) throws {
        loop = try EventLoop(index: 0)
        core = ServerCore(
            handler: handler, parseErrorResponse: { $0.plainResponse }, limits: HTTPRequestParser.Limits(),
            maxQueuedRequests: maxQueuedRequests, finDrainNanos: 2_000_000_000, requestTimeoutNanos: requestTimeoutNanos,
            idleTimeoutNanos: idleTimeoutNanos, upgradeRouter: upgradeRouter)
        (stream, client) = MemoryStream.pair()
        let placeholder = cposix_eventfd()
        core.openConnections.add(1, ordering: .relaxed)
        connection = Connection(loop: loop, core: core, fd: placeholder, stream: stream, localPort: 8080, isTLS: false)
        connection.start()
    }

    /// The client sends `text`; the connection is told its socket is readable; the loop steps.
    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        client.send(bytes)
        readable()
    }

    /// The owner of the socket's registration now (the `Connection`, or after an upgrade the
    /// `WebSocketConnection`); nil once it is released.
    var owner: (any LoopHandler)? { loop.handler(registeredAs: connection.channel.registration) }

    /// An `EPOLLIN` event to the socket's owner, then a loop step (answers handed over, deferred work).
    func readable() {
        owner?.handleEvents(cposix_EPOLLIN)
        loop.step()
    }

    /// An `EPOLLOUT` event to the socket's owner, then a loop step.
    func writable() {
        owner?.handleEvents(cposix_EPOLLOUT)
        loop.step()
    }

    /// Runs the loop's queued work, and the timers due within `nanoseconds` from now.
    func step(advancingBy nanoseconds: UInt64 = 0) { loop.step(now: cposix_monotonic_nanos() &+ nanoseconds) }

    /// What the connection wrote so far, as text (taken out).
    func received() -> String { client.receiveText() }

    /// Releases the socket stand-in if the test left the connection open.
    func close() {
        owner?.closeForShutdown()
        connection.channel.release(reset: false)
    }
}

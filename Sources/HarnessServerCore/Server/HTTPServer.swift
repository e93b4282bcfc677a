// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix
import Logging
import Synchronization

/// An HTTP/1.1 server on epoll event loops that hands every request to a `RequestHandler`.
///
/// Embeddable: `start()` binds (port 0 by default) and returns the address; `stop()` closes every
/// listener and connection, joins the loop threads and returns when nothing is left running.
package final class HTTPServer: Sendable {
    private struct State {
        var started = false
        var stopped = false
        var listeners: [Int: ListenerControl] = [:]
        var refused: [Int: Int32] = [:]
    }

    /// The settings the server was created with.
    package let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let group: Result<EventLoopGroup, HTTPServerError>
    private let state = Mutex(State())
    private static let processSetup: Void = {
        cposix_ignore_sigpipe()
        _ = cposix_raise_fd_limit()
    }()

    /// Creates a stopped server; nothing is bound until `start()`.
    ///
    /// - Parameter parseErrorResponse: the answer to a request that cannot be framed, written
    ///   before the connection closes; by default the status with its reason phrase as plain text.
    package convenience init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        parseErrorResponse: @escaping HTTPParseErrorResponder = { $0.plainResponse }, logger: Logger? = nil,
        diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)? = nil, upgradeRouter: (any WebSocketUpgradeRouter)? = nil,
        handler: any RequestHandler
    ) {
        self.init(
            configuration: configuration, parseErrorResponse: parseErrorResponse, logger: logger, diagnostics: diagnostics,
            upgradeRouter: upgradeRouter
        ) { _ in
            handler
        }
    }

    /// Creates a stopped server whose handler needs the server's scheduler (e.g. the PubNub
    /// service's long-poll timers): `makeHandler` is called once, here, with `scheduler`.
    ///   - parseErrorResponse: the answer to a request that cannot be framed (default: plain text).
    ///   - logger: receives connection timeouts (debug).
    ///   - diagnostics: told about unparsable requests, TLS on the plain port and failed TLS handshakes (for logging).
    ///   - upgradeRouter: decides which requests switch to WebSocket (docs/websocket.md); nil = none.
    package convenience init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        parseErrorResponse: @escaping HTTPParseErrorResponder = { $0.plainResponse }, logger: Logger? = nil,
        diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)? = nil, upgradeRouter: (any WebSocketUpgradeRouter)? = nil,
        makeHandler: (_ scheduler: any Scheduler) -> any RequestHandler
    ) {
        self.init(configuration: configuration, parseErrorResponse: parseErrorResponse, logger: logger, diagnostics: diagnostics) {
            (makeHandler($0), upgradeRouter)
        }
    }

    /// Creates a stopped server whose request handler and upgrade router both come from
    /// `makeRouting`, called once, here, with the server's scheduler (a host's routing table).
    package init(
        configuration: HTTPServerConfiguration, parseErrorResponse: @escaping HTTPParseErrorResponder, logger: Logger?,
        diagnostics: (@Sendable (ConnectionDiagnostic) -> Void)?,
        makeRouting: (_ scheduler: any Scheduler) -> (handler: any RequestHandler, upgradeRouter: (any WebSocketUpgradeRouter)?)
    ) {
        self.configuration = configuration
        let group: Result<EventLoopGroup, HTTPServerError>
        do throws(HTTPServerError) {
            group = .success(try EventLoopGroup(count: configuration.eventLoopCount))
        } catch {
            group = .failure(error)
        }
        self.group = group
        let scheduler: any Scheduler =
            switch group {
            case .success(let loops): LoopScheduler(group: loops)
            case .failure: ImmediateFailureScheduler()
            }
        let routing = makeRouting(scheduler)
        core = ServerCore(
            handler: routing.handler, parseErrorResponse: parseErrorResponse, limits: configuration.limits,
            maxQueuedRequests: max(1, configuration.maxPipelinedRequests),
            finDrainNanos: configuration.finDrainTimeout.clampedNanoseconds,
            requestTimeoutNanos: configuration.headerTimeout?.clampedNanoseconds ?? 0,
            idleTimeoutNanos: configuration.idleTimeout?.clampedNanoseconds ?? 0, logger: logger,
            diagnostics: diagnostics, upgradeRouter: routing.upgradeRouter, webSocket: configuration.webSocket,
            cors: configuration.cors)
    }

    deinit { stop() }

    /// Binds the main listener, starts the loop threads and returns the bound address.
    ///
    /// - Throws: `HTTPServerError` when binding fails, the server was started before, or a thread
    ///   cannot be created.
    @discardableResult
    package func start() throws(HTTPServerError) -> BoundAddress {
        Self.processSetup
        let group = try group.get()
        try state.withLock { state throws(HTTPServerError) in
            guard !state.started else { throw .alreadyStarted }
            state.started = true
        }
        do {
            let address = try addListener(host: configuration.host, port: configuration.port)
            try group.start()
            return address
        } catch {
            state.withLock { $0.started = false }
            throw error
        }
    }

    /// Opens another listener; `fault` applies to each of its connections unless one is queued.
    ///
    /// - Parameters:
    ///   - streamFactory: makes the stream of each connection; required for the TLS certificate,
    ///     version and cipher faults (the TLS layer's factory). Plain TCP when `nil`.
    @discardableResult
    package func addListener(
        host: String, port: Int, fault: ListenerFault = .none, streamFactory: StreamFactory? = nil
    ) throws(HTTPServerError) -> BoundAddress {
        let group = try group.get()
        let factory = streamFactory ?? .plain
        if FaultedSocket.Behaviour(fault) == nil && fault != .none && streamFactory == nil {
            throw HTTPServerError.missingStreamFactory(fault)
        }
        let bound = try SocketAddress.bind(host: host, port: port, listen: true, backlog: Int32(configuration.listenBacklog))
        let control = ListenerControl(fd: bound.fd, host: host, port: bound.port, defaultFault: fault, factory: factory)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.listeners[bound.port] = control
            return true
        }
        guard accepted else {
            control.closeOnce()
            throw HTTPServerError.notRunning
        }
        let loop = group.next()
        let core = self.core
        loop.execute { Listener(control: control, loop: loop, group: group, core: core).start() }
        return BoundAddress(host: host, port: bound.port)
    }

    /// Closes the listener on `port` (its open connections stay); a no-op for an unknown port.
    package func removeListener(port: Int) {
        let control = state.withLock { $0.listeners.removeValue(forKey: port) }
        guard let control, case .success(let group) = group else { return }
        // The listener's loop takes it out of its epoll set before closing the socket, so the
        // descriptor number cannot be reused while still registered.
        for loop in group.loops {
            loop.execute { loop.stopListener(control) }
        }
    }

    /// Makes the next `faults.count` connections accepted on `port` behave as `faults` say, in order.
    package func queueConnectionFaults(_ faults: [ListenerFault], port: Int) {
        state.withLock { $0.listeners[port] }?.enqueue(faults)
    }

    /// Binds a port without listening, so that `connect()` to it is refused; released by `stop()`.
    package func reserveRefusedPort(host: String = "127.0.0.1") throws(HTTPServerError) -> BoundAddress {
        let bound = try SocketAddress.bind(host: host, port: 0, listen: false, backlog: 0)
        let kept = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.refused[bound.port] = bound.fd
            return true
        }
        guard kept else {
            close(bound.fd)
            throw HTTPServerError.notRunning
        }
        return BoundAddress(host: host, port: bound.port)
    }

    /// Runs timers on the server's event loops.
    package var scheduler: any Scheduler {
        switch group {
        case .success(let group): LoopScheduler(group: group)
        case .failure: ImmediateFailureScheduler()
        }
    }

    /// Accepted sockets not yet closed (HTTP connections and faulted sockets).
    package var openConnectionCount: Int { core.openConnections.load(ordering: .relaxed) }

    /// Connections upgraded to WebSocket and not yet closed (also counted in `openConnectionCount`).
    package var openWebSocketCount: Int { core.openWebSockets.load(ordering: .relaxed) }

    /// WebSocket connections aborted because their peer did not read (outbound buffer limit).
    package var webSocketOverflowCount: Int { core.webSocketOverflows.load(ordering: .relaxed) }

    /// How many connections the server closed on its own for slowness or idleness, and how many
    /// spoke TLS to a plain port.
    public var connectionCloseCounts: ConnectionCloseCounts {
        ConnectionCloseCounts(
            headerTimeouts: core.requestTimeouts.load(ordering: .relaxed),
            idleTimeouts: core.idleTimeouts.load(ordering: .relaxed),
            tlsOnPlainPort: core.tlsOnPlainPort.load(ordering: .relaxed))
    }

    /// The ports of the open listeners.
    package var listenerPorts: [Int] { state.withLock { $0.listeners.keys.sorted() } }

    /// Stops deterministically: closes listeners and connections (cancelling parked requests),
    /// joins the loop threads. Idempotent. Must not be called from a request handler.
    package func stop() {
        // Only the first call stops: a second one (e.g. from `deinit` after an explicit stop) must
        // not touch the loops' descriptors again, whose numbers may belong to someone else by then.
        let first = state.withLock { state -> (wasRunning: Bool, hasListeners: Bool, refused: [Int32])? in
            if state.stopped { return nil }
            state.stopped = true
            defer { state.refused.removeAll() }
            return (state.started, !state.listeners.isEmpty, Array(state.refused.values))
        }
        guard let (wasRunning, hasListeners, refused) = first else { return }
        for fd in refused { close(fd) }
        guard wasRunning || hasListeners, case .success(let group) = group else { return }
        group.stopAndJoin()
        for control in state.withLock({ $0.listeners.values }) { control.closeOnce() }
    }
}

extension HTTPServer {
    /// `stop()` from async code: the blocking join runs on a dedicated thread, not the concurrency pool.
    package func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let work = DetachedThreadWork { [self] in
                stop()
                continuation.resume()
            }
            if !work.start() {
                // No thread could be created: stopping here is still correct, only blocking.
                stop()
                continuation.resume()
            }
        }
    }
}

/// Runs a closure once on a new detached pthread.
private final class DetachedThreadWork: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() -> Bool {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<DetachedThreadWork>.fromOpaque(raw!).takeRetainedValue()
            work.body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<DetachedThreadWork>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// The scheduler of a server whose loops could not be created: work never runs.
private struct ImmediateFailureScheduler: Scheduler {
    private final class Handle: ScheduledWork {
        func cancel() {}
    }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork { Handle() }
}

// SPDX-License-Identifier: MIT
import CPosix

/// One HTTP/1.1 connection, owned by one event loop: reads and parses requests, hands them to the
/// handler one at a time in arrival order, and executes each `ResponseAction`.
final class Connection: LoopHandler {
    enum State { case handshaking, open, draining, closed }

    /// The request being answered.
    struct InFlight {
        var token: UInt64
        var responder: Responder
        var keepAlive: Bool
        var isHead: Bool
        /// The request was HTTP/1.0: its answer gets an `HTTP/1.0` status line.
        var http10 = false
        var pendingAction: ResponseAction?
        var executing = false
    }

    /// What happens once the output buffer is flushed.
    enum AfterFlush { case nothing, nextRequest, close(CloseMode), dripNext }

    let loop: EventLoop
    let core: ServerCore
    /// The socket below this connection (handed to the `WebSocketConnection` on an upgrade).
    let channel: SocketChannel
    var state = State.handshaking
    var parser: HTTPRequestParser
    var queue: [(parsed: HTTPRequestParser.Parsed, arrival: Double)] = []
    var queueHead = 0
    var nextArrival: Double?
    var parseError: HTTPParseError?
    var sequence = 0
    var nextToken: UInt64 = 0
    var current: InFlight?
    var afterFlush = AfterFlush.nothing
    var drip: (bytes: [UInt8], offset: Int, chunk: Int, intervalNanos: UInt64, then: CloseMode)?
    var timers: [TimerHandle] = []
    var pumping = false
    /// True while the handler is being called for this connection's current request.
    var dispatching = false
    var continueSent = false
    var handshakeWantsWrite = false
    /// Reading stopped for backpressure; on resuming, read at once (a TLS stream may hold buffered bytes).
    var readPaused = false
    /// What the connection timeouts currently watch (see `Connection+Watchdog`).
    var watchPhase = WatchPhase.none
    /// When the watched phase times out (monotonic nanoseconds).
    var watchDeadline: UInt64 = 0
    /// The one loop timer of the watchdog, and when it fires; re-armed lazily.
    var watchTimer: TimerHandle?
    var watchTimerDeadline: UInt64 = 0
    /// A WebSocket upgrade request was parsed: nothing after it is parsed as HTTP until it is routed.
    var upgradeHold = false

    init(loop: EventLoop, core: ServerCore, fd: Int32, stream: any StreamIO, localPort: Int, isTLS: Bool) {
        self.loop = loop
        self.core = core
        channel = SocketChannel(loop: loop, core: core, fd: fd, stream: stream, localPort: localPort, isTLS: isTLS)
        parser = HTTPRequestParser(limits: core.limits)
    }

    var connectionID: UInt64 { channel.connectionID }
    var peer: String { channel.peer }
    var localPort: Int { channel.localPort }
    var isTLS: Bool { channel.isTLS }

    /// Registers with the loop and starts the handshake; closes the socket if registration fails.
    func start() {
        guard channel.register(handler: self) else {
            state = .closed
            return
        }
        if core.requestTimeoutNanos > 0 {
            // The first request's head must arrive within the timeout from the accept.
            setWatch(.request, deadline: loop.batchTime &+ core.requestTimeoutNanos)
        }
        advanceHandshake()
    }

    func handleEvents(_ events: UInt32) {
        switch state {
        case .closed: return
        case .handshaking: advanceHandshake()
        case .open, .draining:
            if channel.wantsFlush { flush() }
            let readable = events & (cposix_EPOLLIN | cposix_EPOLLRDHUP | cposix_EPOLLHUP | cposix_EPOLLERR) != 0
            let readRetry = channel.readWantsWrite && events & cposix_EPOLLOUT != 0
            if state != .closed && (readable || readRetry) {
                readAvailable(peerHungUp: events & (cposix_EPOLLRDHUP | cposix_EPOLLHUP | cposix_EPOLLERR) != 0)
            }
        }
        updateInterest()
    }

    func closeForShutdown() {
        guard state != .closed else { return }
        closeNow(reset: false)
    }

    private func advanceHandshake() {
        switch channel.stream.handshake() {
        case .bytes:
            state = .open
            handshakeWantsWrite = false
            readAvailable(peerHungUp: false)
        case .wantRead:
            handshakeWantsWrite = false
        case .wantWrite:
            handshakeWantsWrite = true
        case .eof:
            core.diagnostics?(.connection(ConnectionEvent(kind: .closedDuringHandshake, localPort: localPort, connectionID: connectionID, detail: "")))
            closeNow(reset: false)
        case .failed(_, let detail):
            core.diagnostics?(.tlsHandshakeFailure(peer: peer, reason: detail))
            core.diagnostics?(.connection(ConnectionEvent(kind: .tlsHandshakeFailed, localPort: localPort, connectionID: connectionID, detail: detail)))
            closeNow(reset: false)
        }
        updateInterest()
    }

    var outputPending: Bool { channel.outputPending }

    private var readingAllowed: Bool {
        switch state {
        case .draining, .handshaking: true
        case .open: parseError == nil && !upgradeHold && queue.count - queueHead < core.maxQueuedRequests
        case .closed: false
        }
    }

    func updateInterest() {
        guard state != .closed else { return }
        if state == .handshaking {
            channel.updateInterest(reading: !handshakeWantsWrite, writing: handshakeWantsWrite)
        } else {
            channel.updateInterest(reading: readingAllowed)
        }
    }

    /// Reads what is available (bounded per event for fairness) and parses it.
    func readAvailable(peerHungUp: Bool) {
        let outcome = channel.readRounds(peerHungUp: peerHungUp, canRead: { state != .closed && readingAllowed }) { bytes in
            // While draining after a FIN, input is read only to be discarded.
            guard state == .open else { return }
            if nextArrival == nil { nextArrival = cposix_wall_seconds() }
            parser.append(bytes)
            parseRequests()
            pump()
        }
        switch outcome {
        case .waiting:
            break
        case .refused:
            guard state != .closed else { return }
            // Reading is paused (pipelined backlog); a hang-up still ends the connection.
            readPaused = true
            if peerHungUp { peerClosed() }
        case .eof:
            peerClosed()
        case .failed:
            peerGone()
        }
    }

    func parseRequests() {
        while parseError == nil && !upgradeHold {
            do {
                guard let parsed = try parser.next() else { break }
                let arrival = nextArrival ?? cposix_wall_seconds()
                nextArrival = parser.bufferedByteCount > 0 ? arrival : nil
                queue.append((parsed, arrival))
                continueSent = false
                // Bytes behind an upgrade request may be frames: they wait until it is routed.
                if core.upgradeRouter != nil && parsed.request.asksForWebSocket { upgradeHold = true }
            } catch {
                parseError = error
                if error == .tlsOnPlainPort {
                    core.tlsOnPlainPort.add(1, ordering: .relaxed)
                    core.diagnostics?(.tlsOnPlainPort(peer: peer, port: localPort))
                } else {
                    core.diagnostics?(.parseFailure(peer: peer, status: error.status, reason: "\(error)"))
                }
            }
        }
        sendContinueIfExpected()
    }

    /// Sends `100 Continue` (RFC 9110 §10.1.1) when the request being received expects it, before
    /// its body is read, once nothing is in flight before it; never to an HTTP/1.0 client.
    func sendContinueIfExpected() {
        if parser.expectsContinue && !continueSent && current == nil && queueHead == queue.count && !outputPending
            && parseError == nil {
            continueSent = true
            enqueueOutput(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            flush()
        }
    }

    /// The peer closed its sending side: a pending request is abandoned.
    private func peerClosed() {
        if state == .draining {
            closeNow(reset: false)
            return
        }
        if outputPending, case .nextRequest = afterFlush {
            current?.responder.cancel()
            // The last response is still going out: finish it, then close.
            afterFlush = .close(.fin)
            queue.removeAll()
            queueHead = 0
            return
        }
        closeNow(reset: false)
    }

    /// The connection failed (reset, broken pipe).
    func peerGone() {
        closeNow(reset: false)
    }

    /// Releases the socket and everything attached to it.
    func closeNow(reset: Bool) {
        guard state != .closed else { return }
        state = .closed
        for timer in timers { timer.cancel() }
        timers.removeAll()
        watchTimer?.cancel()
        watchTimer = nil
        let abandoned = current?.responder
        current = nil
        queue.removeAll()
        drip = nil
        channel.release(reset: reset)
        abandoned?.cancel()
    }
}

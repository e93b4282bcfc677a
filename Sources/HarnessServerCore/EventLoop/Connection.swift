// SPDX-License-Identifier: MIT
import CPosix

/// One HTTP/1.1 connection, owned by one event loop: the thin layer between its `SocketChannel`
/// and its `HTTPConnectionMachine`. It feeds the machine what it reads and what happens (answers
/// delivered, output flushed, timers) and performs the machine's actions (`Connection+Actions`).
final class Connection: LoopHandler {
    /// The socket below this connection (handed to the `WebSocketConnection` on an upgrade).
    let channel: SocketChannel
    /// The machine and the actions it decided, not yet performed (one property: see `HTTPConnectionAgenda`).
    // Unchecked: used on the loop thread only, and every access is one call into the pure machine
    // (and the loop's action storage), which never reaches this connection again.
    @exclusivity(unchecked) var agenda: HTTPConnectionAgenda
    /// The responder of the request in flight, and its token.
    var responder: (token: UInt64, responder: Responder)?
    /// True while the agenda's actions are being performed: nested inputs queue behind the current one.
    var performing = false
    /// The `CORSPolicy` rule of the request in flight (its answer's fields); -1 = none.
    var decoration = -1
    /// The host's policy (`core.cors`), read per request and per answer without a retain or a
    /// release (a strong or unowned reference costs both on every use here).
    // Unmanaged: `core` owns the policy and outlives this connection (the channel holds `core`).
    let cors: Unmanaged<CORSPolicy>
    /// Whether answers carry `cors`'s fields (`core.decoratesAnswers`).
    let decoratesAnswers: Bool
    var timers: [TimerHandle] = []
    /// The streamed answer in progress (told when the connection ends before it does).
    var stream: ResponseStream?
    /// True while the handler is being called for this connection's current request.
    var dispatching = false
    var handshakeWantsWrite = false
    /// What the connection timeouts currently watch (see `Connection+Watchdog`).
    var watchPhase = WatchPhase.none
    /// When the watched phase times out (monotonic nanoseconds).
    var watchDeadline: UInt64 = 0
    /// Whether the one loop timer of the watchdog is armed, when it fires, and its generation
    /// (a loop timer of an older one is ignored); re-armed lazily.
    var watchTimerArmed = false
    var watchTimerDeadline: UInt64 = 0
    var watchGeneration: UInt32 = 0

    init(loop: EventLoop, core: ServerCore, fd: Int32, stream: any StreamIO, localPort: Int, isTLS: Bool) {
        channel = SocketChannel(loop: loop, core: core, fd: fd, stream: stream, localPort: localPort, isTLS: isTLS)
        cors = Unmanaged.passUnretained(core.cors)
        decoratesAnswers = core.decoratesAnswers
        agenda = HTTPConnectionAgenda(machine: HTTPConnectionMachine(
            limits: core.limits, maxQueuedRequests: core.maxQueuedRequests, upgradesPossible: core.upgradeRouter != nil))
    }

    var loop: EventLoop { channel.loop }
    var core: ServerCore { channel.core }
    var state: HTTPConnectionMachine.Phase { agenda.machine.phase }
    var connectionID: UInt64 { channel.connectionID }
    var peer: String { channel.peer }
    var localPort: Int { channel.localPort }
    var isTLS: Bool { channel.isTLS }

    /// Registers with the loop and starts the handshake; closes the socket if registration fails.
    func start() {
        guard channel.register(handler: self) else {
            agenda.handleDiscardingActions(.closed)
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
            handshakeWantsWrite = false
            feed(.handshakeCompleted)
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

    func updateInterest() {
        let interest = agenda.interest
        switch interest.phase {
        case .closed: return
        case .handshaking: channel.updateInterest(reading: !handshakeWantsWrite, writing: handshakeWantsWrite)
        case .open, .draining: channel.updateInterest(reading: interest.reading)
        }
    }

    /// Reads what is available (bounded per event for fairness) and hands it to the machine.
    func readAvailable(peerHungUp: Bool) {
        let outcome = channel.readRounds(peerHungUp: peerHungUp, canRead: { agenda.machine.readingAllowed }) { bytes in
            agenda.received(bytes, now: cposix_wall_seconds(), loop: loop)
            performActions()
        }
        switch outcome {
        case .waiting: break
        case .refused: feed(.readingRefused(peerHungUp: peerHungUp))
        case .eof: feed(.peerClosed)
        case .failed: closeNow(reset: false)
        }
    }

    /// Releases the socket and everything attached to it.
    func closeNow(reset: Bool) {
        guard state != .closed else { return }
        for timer in timers { timer.cancel() }
        timers.removeAll()
        disarmWatchTimer()
        let abandoned = agenda.machine.current.flatMap { current in responder.flatMap { $0.token == current.token ? $0.responder : nil } }
        // A streamed answer delivered but not started yet is as good as closed.
        if case .stream(_, let pending)? = agenda.machine.current?.pendingAction, stream == nil { stream = pending }
        responder = nil
        agenda.handleDiscardingActions(.closed)
        channel.release(reset: reset)
        abandoned?.cancel()
        if let stream = stream.take() { stream.connectionClosed() }
    }
}

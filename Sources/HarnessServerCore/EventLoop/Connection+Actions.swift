// SPDX-License-Identifier: MIT
import CPosix

/// Performing the machine's actions: writes, flushes, the handler call, timers, the close.
extension Connection {
    /// Tells the machine `input` and performs what it decides.
    func feed(_ input: HTTPConnectionInput) {
        agenda.handle(input, loop: loop)
        performActions()
    }

    /// Performs queued actions in order. Not reentrant: an input fed while an action is being
    /// performed (a handler answering at once) queues its actions behind the current ones.
    func performActions() {
        guard !performing else { return }
        performing = true
        defer { performing = false }
        var index = 0
        // Moved out, not copied; actions appended meanwhile (a nested input) come in turn.
        while let action = agenda.nextAction(at: index, loop: loop) {
            index += 1
            perform(action)
        }
        updateInterest()
    }

    private func perform(_ action: consuming HTTPConnectionAction) {
        // Consumed: the request of a `dispatch` is moved to the handler's call, not copied.
        switch consume action {
        case .dispatch(let request, let token, let arrival, let sequence):
            dispatch(consume request, token: token, context: context(arrival: arrival, sequence: sequence))
        case .routeUpgrade(let request, let token, let arrival, let sequence):
            makeResponder(token: token)
            routeUpgrade(consume request, context: context(arrival: arrival, sequence: sequence))
        case .writeResponse(let response, let keepAlive, let headRequest, let http10):
            let encoded = loop.encode(
                consume response, keepAlive: keepAlive, headRequest: headRequest, http10: http10,
                decoration: decoration, policy: cors)
            // Moved into the outbound buffer (the head stays shared with the loop's head cache).
            channel.enqueue(head: encoded.head, body: encoded.body)
        case .write(let bytes):
            channel.enqueue(bytes)
        case .startStream(let response, let stream, let token, let chunked, let keepAlive):
            startStream(response, stream, token: token, chunked: chunked, keepAlive: keepAlive)
        case .writeErrorResponse(let error):
            // No request to choose a rule by (it did not parse): the policy's fallback fields, so
            // a page still reads the 400, 408, 413, 414 or 431 (INFERRED: no such answer of the
            // live balancer was recorded).
            if decoratesAnswers {
                let encoded = loop.encode(
                    core.parseErrorResponse(error), keepAlive: false, headRequest: false, decoration: core.cors.rules.count,
                    policy: cors)
                channel.enqueue(head: encoded.head, body: encoded.body)
            } else {
                channel.enqueue(HTTPResponseEncoder.encode(core.parseErrorResponse(error), keepAlive: false))
            }
        case .flush:
            flush()
        case .reportParseError(let error):
            if error == .tlsOnPlainPort {
                core.tlsOnPlainPort.add(1, ordering: .relaxed)
                core.diagnostics?(.tlsOnPlainPort(peer: peer, port: localPort))
            } else {
                core.diagnostics?(.parseFailure(peer: peer, status: error.status, reason: "\(error)"))
            }
        case .schedule(let due, let nanos):
            timers.append(loop.schedule(afterNanos: nanos) { [weak self] in self?.feed(.timerFired(due)) })
        case .cancelRequest(let token):
            if let current = responder, current.token == token { current.responder.cancel() }
        case .shutdownWrite:
            channel.shutdownWrite()
            // Read and discard until the peer closes, so unread input never turns the FIN into a RST.
            let timer = loop.schedule(afterNanos: core.finDrainNanos) { [weak self] in self?.closeNow(reset: false) }
            timers.append(timer)
        case .resetAfterSendQueueDrains:
            closeAfterSendQueueDrains()
        case .close:
            closeNow(reset: false)
        case .pipelineIdle:
            if core.watchesConnections { watchAfterPump() }
        case .resumeReading:
            // From the loop (not recursively): level-triggered epoll may not fire again if the
            // stream (TLS) already holds the bytes.
            let bound = LoopBound(self, loop: loop)
            loop.execute {
                let connection = bound.value
                guard connection.state == .open else { return }
                connection.readAvailable(peerHungUp: false)
                connection.updateInterest()
            }
        }
    }

    private func context(arrival: Double, sequence: Int) -> RequestContext {
        RequestContext(
            connectionID: connectionID, peer: peer, localPort: localPort, isTLS: isTLS,
            arrivalTime: arrival, sequenceOnConnection: sequence)
    }

    /// The responder of request `token`: it brings the answer back to this loop. The previous
    /// request's, when it was answered and nothing else holds it (a handler may keep a responder
    /// past its answer: then it gets a new one), else a new one.
    @discardableResult
    private func makeResponder(token: UInt64) -> Responder {
        let made: Responder
        if case var (_, previous)? = responder.take(), isKnownUniquelyReferenced(&previous), previous.rearm(token: token) {
            made = previous
        } else {
            made = Responder(connection: ConnectionTarget(connection: self, loop: loop), token: token)
        }
        responder = (token, made)
        // In flight: neither slow nor idle (a parked long-poll has its own timeout).
        watchPhase = .none
        return made
    }

    private func dispatch(_ request: consuming HTTPRequest, token: UInt64, context: RequestContext) {
        let responder: Responder
        if let routed = self.responder, routed.token == token {
            responder = routed.responder  // an upgrade request nobody took
        } else {
            responder = makeResponder(token: token)
        }
        // The answer's cross-origin fields follow the request it answers (one in flight at a time).
        if decoratesAnswers { decoration = cors._withUnsafeGuaranteedRef { $0.decoration(for: request) } }
        dispatching = true
        core.handlerCall.handle(request, context: context, responder: responder)
        dispatching = false
    }

    /// Receives the handler's answer (on the loop thread) for the request numbered `token`.
    func deliver(_ action: ResponseAction, token: UInt64) {
        // A streamed answer that can no longer go out: its stream hears that the connection ended.
        if state == .closed, case .stream(_, let stream) = action {
            stream.connectionClosed()
            return
        }
        agenda.delivered(action, token: token, loop: loop)
        performActions()
    }

    /// Writes pending output; when it is all written, tells the machine.
    func flush() {
        guard state != .closed else { return }
        switch channel.flush() {
        case .blocked: updateInterest()
        case .failed: closeNow(reset: false)
        case .drained: feed(.flushed)
        }
    }

    /// RST discards unsent data; wait (bounded) until the peer acknowledged what was written.
    private func closeAfterSendQueueDrains(attempt: Int = 0) {
        if channel.unsentBytes <= 0 || attempt >= 200 {
            closeNow(reset: true)
            return
        }
        let timer = loop.schedule(afterNanos: 1_000_000) { [weak self] in
            self?.closeAfterSendQueueDrains(attempt: attempt + 1)
        }
        timers.append(timer)
    }
}

// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

extension Connection {
    /// Moves the pipeline forward: dispatches the next request, executes a delivered action,
    /// answers a framing error once everything before it was answered. Not reentrant.
    func pump() {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while state == .open {
            if var inFlight = current {
                guard !inFlight.executing, let action = inFlight.pendingAction else { break }
                inFlight.pendingAction = nil
                inFlight.executing = true
                current = inFlight
                execute(action)
                continue
            }
            if queueHead < queue.count {
                let next = queue[queueHead]
                queueHead += 1
                if queueHead == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueHead = 0
                }
                dispatch(next.parsed, arrival: next.arrival)
                continue
            }
            if let error = parseError {
                current = InFlight(
                    token: 0, responder: Responder { _ in }, keepAlive: false, isHead: false,
                    pendingAction: nil, executing: true)
                enqueueOutput(HTTPResponseEncoder.encode(core.parseErrorResponse(error), keepAlive: false))
                afterFlush = .close(.fin)
                flush()
                break
            }
            break
        }
        if current == nil && state == .open {
            if core.watchesConnections { watchAfterPump() }
            sendContinueIfExpected()
        } else if state == .open && queueHead == queue.count {
            // Waiting for an answer (a parked long-poll) with nothing else received: hold no input buffers.
            if queue.capacity > 0 { queue = [] }
            parser.releaseIdleBuffer()
        }
        if readPaused && state == .open && parseError == nil && queue.count - queueHead < core.maxQueuedRequests {
            // Resume from the loop (not recursively): level-triggered epoll may not fire again if
            // the stream (TLS) already holds the bytes.
            readPaused = false
            let bound = LoopBound(self, loop: loop)
            loop.execute {
                let connection = bound.value
                guard connection.state == .open else { return }
                connection.readAvailable(peerHungUp: false)
                connection.updateInterest()
            }
        }
        updateInterest()
    }

    private func dispatch(_ parsed: HTTPRequestParser.Parsed, arrival: Double) {
        nextToken += 1
        let token = nextToken
        let responder = Responder(connection: ConnectionTarget(connection: self, loop: loop, token: token))
        current = InFlight(
            token: token, responder: responder, keepAlive: parsed.keepAlive,
            isHead: parsed.request.method == "HEAD", http10: parsed.request.version == "HTTP/1.0", pendingAction: nil)
        // In flight: neither slow nor idle (a parked long-poll has its own timeout).
        watchPhase = .none
        let context = RequestContext(
            connectionID: connectionID, peer: peer, localPort: localPort, isTLS: isTLS,
            arrivalTime: arrival, sequenceOnConnection: sequence)
        // Parsing stops right behind an upgrade request, so the one that set the hold is the last queued.
        if upgradeHold && parsed.request.asksForWebSocket && routeUpgrade(parsed.request, context: context) { return }
        sequence += 1
        dispatching = true
        core.handler.handle(parsed.request, context: context, responder: responder)
        dispatching = false
    }

    /// Receives the handler's answer (on the loop thread) for the request numbered `token`.
    func deliver(_ action: ResponseAction, token: UInt64) {
        guard state == .open, var inFlight = current, inFlight.token == token, inFlight.pendingAction == nil,
            !inFlight.executing
        else { return }
        inFlight.pendingAction = action
        current = inFlight
        pump()
    }

    /// Performs one action; completion continues in `flush` (through `afterFlush`) or a timer.
    func execute(_ action: ResponseAction) {
        guard state == .open, let inFlight = current else { return }
        switch action {
        case .respond(let response):
            enqueueOutput(loop.encode(
                response, keepAlive: inFlight.keepAlive, headRequest: inFlight.isHead, http10: inFlight.http10))
            afterFlush = inFlight.keepAlive ? .nextRequest : .close(.fin)
            flush()
        case .raw(let bytes, let then):
            enqueueOutput(bytes)
            afterFlush = then == .keepAlive ? .nextRequest : .close(then)
            flush()
        case .drip(let bytes, let chunkSize, let interval, let then):
            drip = (bytes, 0, max(1, chunkSize), interval.clampedNanoseconds, then)
            writeNextDripChunk()
        case .delay(let delay, let then):
            let token = inFlight.token
            let timer = loop.schedule(afterNanos: delay.clampedNanoseconds) { [weak self] in
                guard let self, self.state == .open, self.current?.token == token else { return }
                self.execute(then)
                self.pump()
            }
            timers.append(timer)
        case .close(.keepAlive):
            finishRequest()
        case .close(let mode):
            finish(with: mode)
        case .hang:
            break
        }
    }

    private func writeNextDripChunk() {
        guard let piece = drip else { return }
        let end = min(piece.bytes.count, piece.offset + piece.chunk)
        enqueueOutput(Array(piece.bytes[piece.offset..<end]))
        drip?.offset = end
        afterFlush = .dripNext
        flush()
    }

    private func dripChunkFlushed() {
        guard let piece = drip else { return }
        if piece.offset >= piece.bytes.count {
            drip = nil
            if piece.then == .keepAlive { finishRequest() } else { finish(with: piece.then) }
            return
        }
        let timer = loop.schedule(afterNanos: piece.intervalNanos) { [weak self] in
            guard let self, self.state == .open else { return }
            self.writeNextDripChunk()
            self.updateInterest()
        }
        timers.append(timer)
    }

    /// The current request is done and the connection stays: go on with the next one.
    private func finishRequest() {
        current = nil
        afterFlush = .nothing
        pump()
    }

    /// Ends the connection: FIN after the output, or RST.
    func finish(with mode: CloseMode) {
        switch mode {
        case .keepAlive:
            finishRequest()
        case .reset:
            closeAfterSendQueueDrains()
        case .fin:
            current?.responder.cancel()
            current = nil
            queue.removeAll()
            queueHead = 0
            stream.shutdownWrite()
            state = .draining
            // Read and discard until the peer closes, so unread input never turns the FIN into a RST.
            let timer = loop.schedule(afterNanos: core.finDrainNanos) { [weak self] in self?.closeNow(reset: false) }
            timers.append(timer)
            updateInterest()
        }
    }

    /// RST discards unsent data; wait (bounded) until the peer acknowledged what was written.
    private func closeAfterSendQueueDrains(attempt: Int = 0) {
        let unsent = cposix_unsent_bytes(fd)
        if unsent <= 0 || attempt >= 200 {
            closeNow(reset: true)
            return
        }
        let timer = loop.schedule(afterNanos: 1_000_000) { [weak self] in
            self?.closeAfterSendQueueDrains(attempt: attempt + 1)
        }
        timers.append(timer)
    }

    func enqueueOutput(_ bytes: [UInt8]) {
        if outputOffset == output.count {
            output = bytes
            outputOffset = 0
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Writes pending output; when it is all written, runs `afterFlush`.
    func flush() {
        writeWantsRead = false
        while outputPending && state != .closed {
            let result = output.withUnsafeBytes { raw in
                stream.write(UnsafeRawBufferPointer(rebasing: raw[outputOffset...]))
            }
            switch result {
            case .bytes(let count):
                outputOffset += count
            case .wantWrite:
                updateInterest()
                return
            case .wantRead:
                writeWantsRead = true
                updateInterest()
                return
            case .eof, .failed:
                peerGone()
                return
            }
        }
        guard state != .closed else { return }
        // Dropped, not emptied in place: the bytes may be a buffer shared with other connections
        // (see `EventLoop.encode`), and the next response replaces the array anyway.
        output = []
        outputOffset = 0
        let next = afterFlush
        afterFlush = .nothing
        switch next {
        case .nothing: break
        case .nextRequest: finishRequest()
        case .close(let mode): finish(with: mode)
        case .dripNext: dripChunkFlushed()
        }
        updateInterest()
    }
}

// SPDX-License-Identifier: MIT

/// The pipeline: parsing ahead, handing requests out in order, executing their answers.
extension HTTPConnectionMachine {
    /// `HTTP/1.1 100 Continue` and the blank line.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    mutating func parseRequests(into actions: inout [HTTPConnectionAction]) {
        // A request with nothing before it is handed out as `pump` would hand it out, without
        // passing through the queue (no list allocated for a request answered in turn). Kept as
        // its request and its keep-alive flag: moved, never copied (a copy would retain, and
        // later release, every part of the request).
        var first: HTTPRequest?
        var firstKeepAlive = false
        var firstArrival = 0.0
        while parseError == nil && !upgradeHold {
            let parsed: HTTPRequestParser.Parsed
            do {
                guard let next = try withParser({ (parser) throws(HTTPParseError) in try parser.next() }) else { break }
                parsed = next
            } catch {
                parseError = error
                actions.append(.reportParseError(error))
                break
            }
            let arrival = nextArrival ?? 0
            nextArrival = parserBufferedByteCount > 0 ? arrival : nil
            continueSent = false
            // Bytes behind an upgrade request may be frames: they wait until it is routed.
            // (Only a head with an `Upgrade` field is looked at further.)
            if upgradesPossible && parsed.hasUpgradeField && parsed.request.asksForWebSocket { upgradeHold = true }
            if first == nil && current == nil && queue.isEmpty && phase == .open {
                firstKeepAlive = parsed.keepAlive
                first = (consume parsed).request
                firstArrival = arrival
            } else {
                queue.append((consume parsed, arrival))
            }
        }
        if let request = first.take() { dispatch(request, keepAlive: firstKeepAlive, arrival: firstArrival, into: &actions) }
        sendContinueIfExpected(into: &actions)
    }

    /// `100 Continue` (RFC 9110 §10.1.1) when the request being received expects it, before its
    /// body is read, once nothing is in flight before it; the parser never expects it of HTTP/1.0.
    private mutating func sendContinueIfExpected(into actions: inout [HTTPConnectionAction]) {
        guard parserExpectsContinue, !continueSent, current == nil, queuedCount == 0, !outputPending, parseError == nil
        else { return }
        continueSent = true
        write(.write(Self.continueBytes), into: &actions)
    }

    /// Moves the pipeline forward: executes a delivered answer, hands out the next request,
    /// answers a framing error once everything before it was answered.
    mutating func pump(into actions: inout [HTTPConnectionAction]) {
        while phase == .open {
            if current != nil {
                // In place: the answer is moved out, the request in flight is not copied.
                guard !current!.executing, let action = current!.pendingAction.take() else { break }
                current!.executing = true
                execute(action, into: &actions)
                continue
            }
            if !queue.isEmpty {
                // Moved out, not copied (at most `maxQueuedRequests` entries shift).
                let next = queue.removeFirst()
                // Released, not kept: a parked long-poll holds no room for requests.
                if queue.isEmpty { queue = [] }
                dispatch(next.parsed.request, keepAlive: next.parsed.keepAlive, arrival: next.arrival, into: &actions)
                continue
            }
            if let error = parseError {
                current = InFlight(token: 0, keepAlive: false, isHead: false, http10: false, pendingAction: nil, executing: true)
                afterFlush = .close(.fin)
                write(.writeErrorResponse(error), into: &actions)
            }
            break
        }
        // A request waiting for its answer (a parked long-poll) holds no parser state: the owner
        // drops the parser if the answer has not come once the request is dispatched
        // (`releaseParserWhileWaiting`). The receive buffer is not released here: a request
        // answered at once (a publish) would free it and the next request allocate it again.
        if current == nil && phase == .open {
            actions.append(.pipelineIdle)
            sendContinueIfExpected(into: &actions)
        }
        if readPaused && phase == .open && parseError == nil && queuedCount < maxQueuedRequests {
            readPaused = false
            actions.append(.resumeReading)
        }
    }

    private mutating func dispatch(_ request: consuming HTTPRequest, keepAlive: Bool, arrival: Double, into actions: inout [HTTPConnectionAction]) {
        nextToken += 1
        let token = nextToken
        current = InFlight(
            token: token, keepAlive: keepAlive, isHead: request.method == "HEAD",
            http10: request.version == "HTTP/1.0", pendingAction: nil, executing: false)
        // Parsing stops right behind an upgrade request, so the one that set the hold is the last queued.
        if upgradeHold && request.asksForWebSocket {
            actions.append(.routeUpgrade(request, token: token, arrival: arrival, sequence: sequence))
            return
        }
        // Moved into the action, not copied.
        actions.append(.dispatch(request, token: token, arrival: arrival, sequence: sequence))
        sequence += 1
    }

    /// Not an upgrade anyone takes: what follows it is HTTP again, and it goes to the handler.
    mutating func upgradeDeclined(_ request: HTTPRequest, arrival: Double, into actions: inout [HTTPConnectionAction]) {
        guard upgradeHold, phase == .open, let inFlight = current, !inFlight.executing else { return }
        upgradeHold = false
        parseRequests(into: &actions)
        actions.append(.dispatch(request, token: inFlight.token, arrival: arrival, sequence: sequence))
        sequence += 1
    }

    /// Performs one answer; completion continues with `flushed` (through `afterFlush`) or a timer.
    private mutating func execute(_ action: consuming ResponseAction, into actions: inout [HTTPConnectionAction]) {
        guard phase == .open, current != nil else { return }
        // The request's framing read in place (a copy of the optional `InFlight` is copied and
        // destroyed through outlined value witnesses).
        let (token, keepAlive, isHead, http10) = (current!.token, current!.keepAlive, current!.isHead, current!.http10)
        switch consume action {
        case .respond(let response):
            afterFlush = keepAlive ? .nextRequest : .close(.fin)
            // Consumed: the answer is moved into the write, not copied.
            write(.writeResponse(consume response, keepAlive: keepAlive, headRequest: isHead, http10: http10), into: &actions)
        case .raw(let bytes, let then):
            afterFlush = then == .keepAlive ? .nextRequest : .close(then)
            write(.write(bytes), into: &actions)
        case .drip(let bytes, let chunkSize, let interval, let then):
            drip = (bytes, 0, max(1, chunkSize), interval.clampedNanoseconds, then)
            writeNextDripChunk(into: &actions)
        case .delay(let delay, let then):
            actions.append(.schedule(.delay(token: token, then: then), afterNanos: delay.clampedNanoseconds))
        case .close(.keepAlive):
            finishRequest(into: &actions)
        case .close(let mode):
            finish(with: mode, into: &actions)
        case .hang:
            break
        case .stream(let response, let stream):
            let chunked = !http10
            streaming = (token, chunked, keepAlive && chunked)
            afterFlush = .nothing
            write(.startStream(response, stream, token: token, chunked: chunked, keepAlive: keepAlive && chunked), into: &actions)
        }
    }

    /// `bytes` as one chunk of `Transfer-Encoding: chunked` (size in hex, CRLF, data, CRLF).
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array(String(bytes.count, radix: 16).utf8)
        out.reserveCapacity(out.count + bytes.count + 4)
        out += [0x0D, 0x0A]
        out += bytes
        out += [0x0D, 0x0A]
        return out
    }

    /// The last chunk and the empty trailer.
    static let lastChunk = Array("0\r\n\r\n".utf8)

    mutating func streamWrite(_ bytes: [UInt8], token: UInt64, into actions: inout [HTTPConnectionAction]) {
        guard phase == .open, let stream = streaming, stream.token == token, !bytes.isEmpty else { return }
        write(.write(stream.chunked ? Self.chunk(bytes) : bytes), into: &actions)
    }

    /// The terminating chunk, then the next request (or FIN: HTTP/1.0, `Connection: close`).
    mutating func streamEnd(token: UInt64, into actions: inout [HTTPConnectionAction]) {
        guard phase == .open, let stream = streaming, stream.token == token else { return }
        streaming = nil
        afterFlush = stream.keepAlive ? .nextRequest : .close(.fin)
        write(.write(stream.chunked ? Self.lastChunk : []), into: &actions)
    }

    /// Queues `write` and a flush.
    private mutating func write(_ write: consuming HTTPConnectionAction, into actions: inout [HTTPConnectionAction]) {
        outputPending = true
        actions.append(write)
        actions.append(.flush)
    }

    private mutating func writeNextDripChunk(into actions: inout [HTTPConnectionAction]) {
        guard let piece = drip else { return }
        let end = min(piece.bytes.count, piece.offset + piece.chunk)
        drip?.offset = end
        afterFlush = .dripNext
        write(.write(Array(piece.bytes[piece.offset..<end])), into: &actions)
    }

    mutating func flushed(into actions: inout [HTTPConnectionAction]) {
        outputPending = false
        let next = afterFlush
        afterFlush = .nothing
        switch next {
        case .nothing: break
        case .nextRequest: finishRequest(into: &actions)
        case .close(let mode): finish(with: mode, into: &actions)
        case .dripNext: dripChunkFlushed(into: &actions)
        }
    }

    private mutating func dripChunkFlushed(into actions: inout [HTTPConnectionAction]) {
        guard let piece = drip else { return }
        if piece.offset >= piece.bytes.count {
            drip = nil
            if piece.then == .keepAlive {
                finishRequest(into: &actions)
            } else {
                finish(with: piece.then, into: &actions)
            }
            return
        }
        actions.append(.schedule(.dripNext, afterNanos: piece.intervalNanos))
    }

    mutating func timerFired(_ timer: Timer, into actions: inout [HTTPConnectionAction]) {
        guard phase == .open else { return }
        switch timer {
        case .delay(let token, let then):
            guard current?.token == token else { return }
            execute(then, into: &actions)
            pump(into: &actions)
        case .dripNext:
            writeNextDripChunk(into: &actions)
        }
    }

    /// The current request is done and the connection stays: go on with the next one.
    private mutating func finishRequest(into actions: inout [HTTPConnectionAction]) {
        current = nil
        afterFlush = .nothing
        pump(into: &actions)
    }

    /// Ends the connection: FIN after the output and drain, or RST once the output is acknowledged.
    mutating func finish(with mode: CloseMode, into actions: inout [HTTPConnectionAction]) {
        switch mode {
        case .keepAlive:
            finishRequest(into: &actions)
        case .reset:
            actions.append(.resetAfterSendQueueDrains)
        case .fin:
            // Token 0 is the server's own answer: no responder to cancel.
            if let token = current?.token, token != 0 { actions.append(.cancelRequest(token: token)) }
            current = nil
            queue = []
            streaming = nil
            phase = .draining
            actions.append(.shutdownWrite)
        }
    }

    /// The peer closed its sending side: a pending request is abandoned; an answer still being
    /// written is finished first, then FIN.
    mutating func peerClosed(into actions: inout [HTTPConnectionAction]) {
        if phase == .open, outputPending, afterFlush == .nextRequest {
            if let token = current?.token { actions.append(.cancelRequest(token: token)) }
            afterFlush = .close(.fin)
            queue = []
            return
        }
        actions.append(.close)
    }

    /// The header timeout: a partly received request gets the 408 answer, then FIN; a connection
    /// that never sent a byte gets FIN alone; anything else closes.
    mutating func requestTimedOut(into actions: inout [HTTPConnectionAction]) {
        guard phase == .open, current == nil else {
            actions.append(.close)
            return
        }
        guard parserHasBufferedBytes else {
            // Not one byte since the accept (a pre-connected socket): FIN without an answer.
            finish(with: .fin, into: &actions)
            return
        }
        current = InFlight(token: 0, keepAlive: false, isHead: false, http10: false, pendingAction: nil, executing: true)
        queue = []
        afterFlush = .close(.fin)
        write(.writeErrorResponse(.requestTimeout), into: &actions)
    }
}

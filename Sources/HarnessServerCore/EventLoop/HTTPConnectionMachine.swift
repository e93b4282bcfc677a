// SPDX-License-Identifier: MIT

/// The decisions of one HTTP/1.1 connection as a pure state machine: bytes and events in,
/// actions out. No socket, clock or thread: `Connection` performs the actions (writes, flushes,
/// timers, the handler call) and feeds back what happens (flushed, delivered, timer fired).
///
/// It owns the request parser and decides: the pipeline (requests handed out one at a time, in
/// arrival order, at most `maxQueuedRequests` parsed ahead), `100 Continue`, keep-alive or close
/// after each answer (HEAD and HTTP/1.0 framing go with the write), drips and delays, the FIN and
/// drain after a close, the answer to a framing error after everything before it, what a peer's
/// close means while an answer is still going out, and the hold behind a WebSocket upgrade request.
struct HTTPConnectionMachine {
    /// The connection's life.
    enum Phase: Equatable {
        /// The stream's handshake (TLS) is not done.
        case handshaking
        /// Requests are read and answered.
        case open
        /// FIN sent; input is read and discarded until the peer closes or the drain times out.
        case draining
        case closed
    }

    /// The request being answered.
    struct InFlight {
        /// Numbers the request's answer (`delivered`); 0 for the server's own answer to a
        /// framing error or a timeout.
        var token: UInt64
        var keepAlive: Bool
        var isHead: Bool
        /// The request was HTTP/1.0: its answer gets an `HTTP/1.0` status line.
        var http10: Bool
        var pendingAction: ResponseAction?
        var executing: Bool
    }

    /// What happens once the written output is flushed.
    enum AfterFlush: Equatable { case nothing, nextRequest, close(CloseMode), dripNext }

    /// The timers the machine asks for; each comes back as `.timerFired`.
    enum Timer {
        /// A `.delay` action of request `token` is over: execute `then`.
        case delay(token: UInt64, then: ResponseAction)
        /// The pause between two drip chunks is over.
        case dripNext
    }

    // The state is internal so that the pipeline extension (another file) can change it; only
    // the machine's own methods do.
    let maxQueuedRequests: Int
    /// Whether any request may switch to WebSocket (a router is installed).
    let upgradesPossible: Bool
    var phase = Phase.handshaking
    /// The parser's limits, for the parser made when a request's bytes arrive.
    let limits: HTTPRequestParser.Limits
    /// The request parser, out of line: made when bytes arrive, dropped while it holds nothing
    /// (a parked request with no bytes behind it holds no parser state).
    var parserStorage: ParserStorage?
    var queue: [(parsed: HTTPRequestParser.Parsed, arrival: Double)] = []
    /// When the first byte of the request being received arrived (wall clock).
    var nextArrival: Double?
    var parseError: HTTPParseError?
    /// Requests handed to the handler (or routed) so far.
    var sequence = 0
    var nextToken: UInt64 = 0
    var current: InFlight?
    var afterFlush = AfterFlush.nothing
    var drip: (bytes: [UInt8], offset: Int, chunk: Int, intervalNanos: UInt64, then: CloseMode)?
    /// The streamed answer in progress (`ResponseAction.stream`): its request, whether its chunks
    /// are framed (`Transfer-Encoding: chunked`; not for HTTP/1.0) and whether the connection stays.
    var streaming: (token: UInt64, chunked: Bool, keepAlive: Bool)?
    var continueSent = false
    /// A WebSocket upgrade request was parsed: nothing after it is parsed as HTTP until it is routed.
    var upgradeHold = false
    /// Reading stopped for backpressure (`readingRefused`); resumed by a `resumeReading` action.
    var readPaused = false
    /// Output was written and not yet reported flushed.
    var outputPending = false

    init(limits: HTTPRequestParser.Limits, maxQueuedRequests: Int, upgradesPossible: Bool) {
        self.limits = limits
        self.maxQueuedRequests = maxQueuedRequests
        self.upgradesPossible = upgradesPossible
    }

    /// Whether the connection wants input now (the owner reads only then).
    var readingAllowed: Bool {
        switch phase {
        case .draining, .handshaking: true
        case .open: parseError == nil && !upgradeHold && queuedCount < maxQueuedRequests
        case .closed: false
        }
    }

    /// Parsed requests not yet handed out.
    var queuedCount: Int { queue.count }

    // MARK: Inputs

    /// Bytes read from the peer; `now` (wall clock) is asked only when they start a request.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: @autoclosure () -> Double, into actions: inout [HTTPConnectionAction]) {
        // While draining after a FIN, input is read only to be discarded.
        guard phase == .open else { return }
        if nextArrival == nil { nextArrival = now() }
        withParser { $0.append(bytes) }
        parseRequests(into: &actions)
        pump(into: &actions)
    }

    /// Everything else that happens to the connection.
    mutating func handle(_ input: HTTPConnectionInput, into actions: inout [HTTPConnectionAction]) {
        switch input {
        case .handshakeCompleted:
            if phase == .handshaking { phase = .open }
        case .delivered(let action, let token):
            delivered(action, token: token, into: &actions)
        case .flushed:
            flushed(into: &actions)
        case .timerFired(let timer):
            timerFired(timer, into: &actions)
        case .readingRefused(let peerHungUp):
            guard phase != .closed else { return }
            readPaused = true
            if peerHungUp { peerClosed(into: &actions) }
        case .peerClosed:
            peerClosed(into: &actions)
        case .upgradeDeclined(let request, let arrival):
            upgradeDeclined(request, arrival: arrival, into: &actions)
        case .upgradeRefused(let response):
            // The bytes behind the request may be frames: answer, then close.
            upgradeHold = true
            sequence += 1
            current?.keepAlive = false
            current?.pendingAction = .respond(response)
            pump(into: &actions)
        case .upgradeAccepted, .closed:
            phase = .closed
            current = nil
            queue = []
            drip = nil
            streaming = nil
        case .streamWrite(let bytes, let token):
            streamWrite(bytes, token: token, into: &actions)
        case .streamEnd(let token):
            streamEnd(token: token, into: &actions)
        case .requestTimedOut:
            requestTimedOut(into: &actions)
        case .idleTimedOut:
            finish(with: .fin, into: &actions)
        }
    }

    /// The handler answered request `token` (`.delivered`, without wrapping the action in an input).
    mutating func delivered(_ action: ResponseAction, token: UInt64, into actions: inout [HTTPConnectionAction]) {
        guard phase == .open, current?.token == token, current?.pendingAction == nil, current?.executing == false else { return }
        current?.pendingAction = action
        pump(into: &actions)
    }

    /// Convenience for tests: the actions of one input.
    mutating func handle(_ input: HTTPConnectionInput) -> [HTTPConnectionAction] {
        var actions: [HTTPConnectionAction] = []
        handle(input, into: &actions)
        return actions
    }

    /// Convenience for tests: the actions of some received bytes.
    mutating func received(_ text: String, now: Double = 0) -> [HTTPConnectionAction] {
        var actions: [HTTPConnectionAction] = []
        Array(text.utf8).withUnsafeBytes { received($0, now: now, into: &actions) }
        return actions
    }

    /// The bytes that arrived behind an accepted upgrade request (they belong to the WebSocket).
    mutating func takeBufferedBytes() -> [UInt8] {
        guard let storage = parserStorage else { return [] }
        parserStorage = nil
        return storage.withUnsafeMutablePointerToHeader { $0.pointee.takeBufferedBytes() }
    }

    // MARK: The parser, out of line

    /// The parser's storage: one allocation holding the parser's whole state.
    final class ParserStorage: ManagedBuffer<HTTPRequestParser, UInt8> {
        /// Whether the parser holds bytes or a request in progress.
        var hasBufferedBytes: Bool { withUnsafeMutablePointerToHeader { HTTPRequestParser.hasBufferedBytes(at: $0) } }
        /// Unconsumed bytes in the parser.
        var bufferedByteCount: Int { withUnsafeMutablePointerToHeader { HTTPRequestParser.bufferedByteCount(at: $0) } }
        /// Whether the request being received expects `100 Continue`.
        var expectsContinue: Bool { withUnsafeMutablePointerToHeader { Self.read(&$0.pointee) { $0.expectsContinue } } }

        /// Reads through `inout`, in place: a getter called on `pointee` copies the whole parser.
        @inline(__always)
        private static func read<Value>(_ parser: inout HTTPRequestParser, _ get: (inout HTTPRequestParser) -> Value) -> Value {
            get(&parser)
        }
    }

    /// Runs `body` on the parser, making it first if there is none.
    mutating func withParser<Result, Failure: Error>(_ body: (inout HTTPRequestParser) throws(Failure) -> Result) throws(Failure) -> Result {
        if parserStorage == nil {
            let limits = self.limits
            // `create` returns the subclass it is called on.
            parserStorage = (ParserStorage.create(minimumCapacity: 0) { _ in HTTPRequestParser(limits: limits) } as! ParserStorage)
        }
        // Through the stored reference (not a local copy of it: that is a retain and a release).
        return try parserStorage!.withUnsafeMutablePointerToHeader { (pointer) throws(Failure) -> Result in try body(&pointer.pointee) }
    }

    /// Whether the parser holds bytes or a request in progress (false without a parser).
    var parserHasBufferedBytes: Bool {
        parserStorage?.hasBufferedBytes ?? false
    }

    /// Unconsumed bytes in the parser.
    var parserBufferedByteCount: Int {
        parserStorage?.bufferedByteCount ?? 0
    }

    /// Whether the request being received expects `100 Continue`.
    var parserExpectsContinue: Bool {
        parserStorage?.expectsContinue ?? false
    }

    /// Drops the parser while a request waits for its answer (a parked long-poll) and the parser
    /// holds nothing: no bytes, no partial request, no error (a parser in that state is the same
    /// as a new one). The owner calls it after performing a batch of actions, so a request answered
    /// at once (a publish) keeps its parser for the next request on the connection.
    mutating func releaseParserWhileWaiting() {
        guard parserStorage != nil, phase == .open, queue.isEmpty, let current, !current.executing,
              current.pendingAction == nil, !parserHasBufferedBytes
        else { return }
        parserStorage = nil
    }
}

/// What happens to an HTTP connection (besides bytes arriving).
enum HTTPConnectionInput {
    /// The stream's handshake finished.
    case handshakeCompleted
    /// The handler answered request `token`.
    case delivered(ResponseAction, token: UInt64)
    /// Everything written so far left the buffer.
    case flushed
    /// A timer the machine asked for is due.
    case timerFired(HTTPConnectionMachine.Timer)
    /// The owner stopped reading because `readingAllowed` was false; the peer may have hung up.
    case readingRefused(peerHungUp: Bool)
    /// The peer closed its sending side (end of stream).
    case peerClosed
    /// The router does not take the held upgrade request (handed back with its arrival time, as
    /// `routeUpgrade` gave them): it is an ordinary request.
    case upgradeDeclined(HTTPRequest, arrival: Double)
    /// The router refused the held upgrade request with this answer.
    case upgradeRefused(HTTPResponse)
    /// The socket now belongs to a WebSocket connection.
    case upgradeAccepted
    /// The owner closed the connection (failure, shutdown, drain over).
    case closed
    /// A request did not complete within the header timeout.
    case requestTimedOut
    /// A keep-alive connection stayed idle for the idle timeout.
    case idleTimedOut
    /// A chunk of the streamed answer to request `token`.
    case streamWrite([UInt8], token: UInt64)
    /// The streamed answer to request `token` is complete.
    case streamEnd(token: UInt64)
}

/// What the owner of an HTTP connection does, in order.
///
/// The cases carrying a whole request hold it inline, not boxed: a box would be one allocation
/// and one release more per request, and actions are moved, not copied (the list's storage is
/// the loop's, lent while a connection performs).
enum HTTPConnectionAction {
    /// Hands the request to the handler; its answer comes back as `.delivered(_, token:)`.
    case dispatch(HTTPRequest, token: UInt64, arrival: Double, sequence: Int)
    /// Asks the upgrade router about the request; the outcome comes back as an input.
    case routeUpgrade(HTTPRequest, token: UInt64, arrival: Double, sequence: Int)
    /// Queues the response with the framing given.
    case writeResponse(HTTPResponse, keepAlive: Bool, headRequest: Bool, http10: Bool)
    /// Queues these bytes exactly.
    case write([UInt8])
    /// Queues the application's answer to a framing error (or a timeout), with `Connection: close`.
    case writeErrorResponse(HTTPParseError)
    /// Writes what is queued; once it is all written, feed `.flushed`.
    case flush
    /// A request could not be framed (for diagnostics and counters).
    case reportParseError(HTTPParseError)
    /// Starts a timer; feed `.timerFired(timer)` when it is due.
    case schedule(HTTPConnectionMachine.Timer, afterNanos: UInt64)
    /// The request `token` is abandoned: cancel its responder.
    case cancelRequest(token: UInt64)
    /// Sends FIN and drains input until the peer closes or the drain timeout ends the connection.
    case shutdownWrite
    /// Waits until the peer acknowledged what was written, then closes with RST.
    case resetAfterSendQueueDrains
    /// Closes the connection now.
    case close
    /// Queues the head of a streamed answer (and its body as the first chunk), then hands the
    /// stream the connection for request `token`.
    case startStream(HTTPResponse, ResponseStream, token: UInt64, chunked: Bool, keepAlive: Bool)
    /// No request is in flight: time to watch for idleness or a slow request.
    case pipelineIdle
    /// Reading may go on: read now (a TLS stream may hold buffered bytes epoll will not report).
    case resumeReading
}

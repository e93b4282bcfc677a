// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

/// One upgraded connection on its event loop: decodes frames, answers pings and close frames
/// itself, hands messages to the handler, writes with a bounded outbound buffer.
///
/// Idle cost: the socket, this object, the handle and an empty decoder; no timer, no buffer.
final class WebSocketConnection: LoopHandler {
    enum State {
        /// Frames flow both ways.
        case open
        /// The server sent a close frame and waits (≤ `closeTimeout`) for the peer's.
        case closeSent(WebSocketClosePayload)
        /// FIN queued or sent; input is read and discarded until the peer closes.
        case draining
        case closed
    }

    let loop: EventLoop
    let core: ServerCore
    let fd: Int32
    let stream: any StreamIO
    let connectionID: UInt64
    let peer: String
    let localPort: Int
    let isTLS: Bool
    let handler: any WebSocketHandler
    var handle: WebSocketHandle?
    var registration: UInt64 = 0
    var interest: UInt32 = 0
    var state = State.open
    var decoder: WebSocketFrameDecoder
    var assembler: WebSocketMessageAssembler
    var output: [UInt8] = []
    var outputOffset = 0
    /// Once the output is written: FIN and drain.
    var finAfterFlush = false
    var readWantsWrite = false
    var writeWantsRead = false
    var timer: TimerHandle?
    /// Whether `webSocketDidClose` was called.
    var reported = false

    init(from connection: Connection, handler: any WebSocketHandler) {
        loop = connection.loop
        core = connection.core
        fd = connection.fd
        stream = connection.stream
        connectionID = connection.connectionID
        peer = connection.peer
        localPort = connection.localPort
        isTLS = connection.isTLS
        self.handler = handler
        decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: core.webSocket.maxMessageBytes)
        assembler = WebSocketMessageAssembler(maxMessageSize: core.webSocket.maxMessageBytes)
    }

    /// Takes over the socket: registers, writes `responseHead`, opens the handler, then decodes
    /// `leftover` (bytes that arrived right behind the request head) and whatever is readable.
    func start(responseHead: [UInt8], leftover: [UInt8]) {
        interest = cposix_EPOLLIN | cposix_EPOLLRDHUP
        guard let id = loop.register(fd: fd, events: interest, handler: self) else {
            state = .closed
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        registration = id
        core.openWebSockets.add(1, ordering: .relaxed)
        let handle = WebSocketHandle(connection: self)
        self.handle = handle
        enqueue(responseHead)
        handler.webSocketDidOpen(handle)
        flush()
        if !leftover.isEmpty, case .open = state {
            decoder.feed(leftover)
            processInput()
        }
        // A TLS stream may already hold decrypted bytes that epoll will not report again.
        if isOpenForInput { readAvailable(peerHungUp: false) }
        updateInterest()
    }

    /// Whether the connection still owns its socket (every state but `.closed`).
    var isOpenForInput: Bool {
        switch state {
        case .open, .closeSent, .draining: true
        case .closed: false
        }
    }

    func handleEvents(_ events: UInt32) {
        guard isOpenForInput else { return }
        if outputPending || writeWantsRead { flush() }
        let hangUp = events & (cposix_EPOLLRDHUP | cposix_EPOLLHUP | cposix_EPOLLERR) != 0
        let readable = events & cposix_EPOLLIN != 0 || hangUp
        if isOpenForInput && (readable || (readWantsWrite && events & cposix_EPOLLOUT != 0)) {
            readAvailable(peerHungUp: hangUp)
        }
        updateInterest()
    }

    func closeForShutdown() {
        report(code: .abnormalClosure, reason: "server stopped", clean: false)
        closeNow(reset: false)
    }

    func updateInterest() {
        guard isOpenForInput else { return }
        var wanted = cposix_EPOLLRDHUP | cposix_EPOLLIN
        if outputPending || readWantsWrite { wanted |= cposix_EPOLLOUT }
        if wanted != interest {
            interest = wanted
            loop.modify(fd: fd, id: registration, events: wanted)
        }
    }

    /// Reads what is available (bounded per event for fairness) and decodes it.
    private func readAvailable(peerHungUp: Bool) {
        readWantsWrite = false
        var rounds = 0
        while isOpenForInput && rounds < 8 {
            rounds += 1
            switch stream.read(into: loop.scratch) {
            case .bytes(let count):
                let drained = count < loop.scratch.count && stream.shortReadDrains
                if case .draining = state {
                    // Discarded: the close is decided, only the peer's FIN is awaited.
                } else {
                    decoder.feed(UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
                    processInput()
                }
                if drained && !peerHungUp { return }
            case .wantRead:
                return
            case .wantWrite:
                readWantsWrite = true
                return
            case .eof, .failed:
                peerEnded()
                return
            }
        }
    }

    /// The peer closed TCP or the stream failed.
    private func peerEnded() {
        switch state {
        case .closeSent(let sent):
            report(code: sent.code, reason: sent.reason, clean: false)
        default:
            report(code: .abnormalClosure, reason: "", clean: false)
        }
        closeNow(reset: false)
    }

    /// Tells the handler once, then lets go of the handle (it refers back to this connection).
    func report(code: WebSocketCloseCode, reason: String, clean: Bool) {
        guard !reported, let handle else { return }
        reported = true
        handler.webSocketDidClose(handle, code: code, reason: reason, clean: clean)
        self.handle = nil
    }

    /// Releases the socket and every buffer.
    func closeNow(reset: Bool) {
        guard isOpenForInput else { return }
        state = .closed
        timer?.cancel()
        timer = nil
        output = []
        outputOffset = 0
        decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: 125)
        assembler = WebSocketMessageAssembler(maxMessageSize: 0)
        if reset { _ = cposix_set_linger_reset(fd) }
        loop.deregister(fd: fd, id: registration)
        Glibc.close(fd)
        core.openConnections.subtract(1, ordering: .relaxed)
        core.openWebSockets.subtract(1, ordering: .relaxed)
    }
}

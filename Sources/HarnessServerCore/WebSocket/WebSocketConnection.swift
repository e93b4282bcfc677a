// SPDX-License-Identifier: MIT
import CPosix

/// One upgraded connection on its event loop: decodes frames, answers pings and close frames
/// itself, hands messages to the handler, writes with a bounded outbound buffer.
///
/// Idle cost: the socket, this object and the handle; no decoder, no timer, no buffer (the decoder
/// and assembler exist while a read is being decoded or a frame or message is half received).
final class WebSocketConnection: LoopHandler {
    enum State {
        /// Frames flow both ways.
        case open
        /// The server sent a close frame and waits (≤ `closeTimeout`) for the peer's. Boxed: the
        /// state is one word in every connection, the payload exists only while closing.
        indirect case closeSent(WebSocketClosePayload)
        /// FIN queued or sent; input is read and discarded until the peer closes.
        case draining
        case closed
    }

    /// The socket, taken over from the HTTP connection with its registration.
    let channel: SocketChannel
    let handler: any WebSocketHandler
    var handle: WebSocketHandle?
    var state = State.open
    /// The frame decoder and message assembler, while input is being decoded (nil when idle).
    var input: WebSocketInput?
    var timer: TimerHandle?
    /// Once the output is written: FIN and drain.
    var finAfterFlush = false
    /// Whether `webSocketDidClose` was called.
    var reported = false

    init(channel: SocketChannel, handler: any WebSocketHandler) {
        self.channel = channel
        self.handler = handler
    }

    var loop: EventLoop { channel.loop }
    var core: ServerCore { channel.core }

    var connectionID: UInt64 { channel.connectionID }
    var peer: String { channel.peer }
    var localPort: Int { channel.localPort }
    var isTLS: Bool { channel.isTLS }

    /// Takes over the socket's registration, writes `responseHead`, opens the handler, then
    /// decodes `leftover` (bytes that arrived right behind the request head) and whatever is readable.
    func start(responseHead: [UInt8], leftover: [UInt8]) {
        channel.handOver(to: self)
        core.openWebSockets.add(1, ordering: .relaxed)
        let handle = WebSocketHandle(connection: self)
        self.handle = handle
        enqueue(responseHead)
        handler.webSocketDidOpen(handle)
        flush()
        if !leftover.isEmpty, case .open = state {
            feed(leftover)
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
        if channel.wantsFlush { flush() }
        let hangUp = events & (cposix_EPOLLRDHUP | cposix_EPOLLHUP | cposix_EPOLLERR) != 0
        let readable = events & cposix_EPOLLIN != 0 || hangUp
        if isOpenForInput && (readable || (channel.readWantsWrite && events & cposix_EPOLLOUT != 0)) {
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
        channel.updateInterest(reading: true)
    }

    /// Reads what is available (bounded per event for fairness) and decodes it.
    private func readAvailable(peerHungUp: Bool) {
        let outcome = channel.readRounds(peerHungUp: peerHungUp, canRead: { isOpenForInput }) { bytes in
            // While draining, input is discarded: the close is decided, only the peer's FIN is awaited.
            if case .draining = state { return }
            feed(bytes)
        }
        switch outcome {
        case .waiting, .refused: break
        case .eof, .failed: peerEnded()
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
        input = nil
        channel.release(reset: reset)
        core.openWebSockets.subtract(1, ordering: .relaxed)
    }
}

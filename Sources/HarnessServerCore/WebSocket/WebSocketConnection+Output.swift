// SPDX-License-Identifier: MIT
import CPosix

/// Frames out: the bounded outbound buffer, writes on EPOLLOUT, the server's close and abort.
extension WebSocketConnection {
    var outputPending: Bool { channel.outputPending }

    /// Queues frame bytes while the connection is open and writes what the socket takes.
    func sendData(_ bytes: [UInt8]) {
        guard case .open = state else { return }
        enqueue(bytes)
        flush()
    }

    /// Queues bytes; aborts the connection when the unsent total would pass `maxOutboundBytes`.
    func enqueue(_ bytes: [UInt8]) {
        guard isOpenForInput else { return }
        guard channel.pendingCount + bytes.count <= core.webSocket.maxOutboundBytes else {
            core.webSocketOverflows.add(1, ordering: .relaxed)
            core.logger?.debug("aborting WebSocket from \(peer): more than \(core.webSocket.maxOutboundBytes) bytes unsent")
            report(code: .policyViolation, reason: "outbound buffer limit exceeded", clean: false)
            closeNow(reset: true)
            return
        }
        channel.enqueue(bytes)
    }

    /// Writes pending output until the socket is full; then waits for EPOLLOUT.
    func flush() {
        guard isOpenForInput else { return }
        switch channel.flush() {
        case .blocked:
            updateInterest()
            return
        case .failed:
            report(code: .abnormalClosure, reason: "", clean: false)
            closeNow(reset: false)
            return
        case .drained:
            break
        }
        if finAfterFlush {
            finAfterFlush = false
            channel.shutdownWrite()
            // Read and discard until the peer closes, so unread input never turns the FIN into a RST.
            timer?.cancel()
            timer = loop.schedule(afterNanos: core.finDrainNanos) { [weak self] in self?.closeNow(reset: false) }
        }
        updateInterest()
    }

    /// FIN once everything queued is written (the state is `.draining` by then). A peer that does
    /// not read the rest within `closeTimeout` gets the TCP connection closed anyway.
    func finishAfterOutput() {
        finAfterFlush = true
        flush()
        guard isOpenForInput, finAfterFlush else { return }
        timer?.cancel()
        timer = loop.schedule(afterNanos: core.webSocket.closeTimeout.clampedNanoseconds) { [weak self] in
            self?.closeNow(reset: false)
        }
    }

    /// The server's close: a close frame, then the peer's answer or the timeout ends TCP.
    func startClose(_ payload: WebSocketClosePayload) {
        guard case .open = state else { return }
        var encoder = WebSocketFrameEncoder.server
        enqueue(encoder.encodeClose(payload))
        guard isOpenForInput else { return }
        state = .closeSent(payload)
        timer = loop.schedule(afterNanos: core.webSocket.closeTimeout.clampedNanoseconds) { [weak self] in
            guard let self, case .closeSent(let sent) = self.state else { return }
            self.core.logger?.debug("closing WebSocket from \(self.peer): no close frame within the close timeout")
            self.report(code: sent.code, reason: sent.reason, clean: false)
            self.closeNow(reset: false)
        }
        flush()
    }

    /// RST at once, nothing more sent.
    func abort() {
        guard isOpenForInput else { return }
        report(code: .abnormalClosure, reason: "aborted", clean: false)
        closeNow(reset: true)
    }
}

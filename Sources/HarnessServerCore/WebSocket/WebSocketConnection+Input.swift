// SPDX-License-Identifier: MIT

/// Frames in: decoding, reassembly, the transport's own answers (pong, close), handler calls.
extension WebSocketConnection {
    /// Decodes `bytes` behind whatever is half received, and handles every complete frame.
    func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let input = self.input ?? WebSocketInput(maxMessageBytes: core.webSocket.maxMessageBytes)
        self.input = input
        input.decoder.feed(bytes)
        processInput()
    }

    /// Decodes and handles every complete frame in the decoder; stops when the connection leaves
    /// `.open`/`.closeSent` (a close or an error). The decoder is dropped once nothing is left half
    /// received, so an idle connection holds none.
    func processInput() {
        guard let input else { return }
        var frames = 0
        defer { if input.isIdle || !state.acceptsFrames, self.input === input { self.input = nil } }
        while frames < 10_000 {
            frames += 1
            guard state.acceptsFrames else { return }
            let message: WebSocketMessage
            do {
                guard let frame = try input.decoder.nextFrame() else { return }
                guard let complete = try input.assembler.push(frame) else { continue }
                message = complete
            } catch {
                fail(code: error.closeCode, reason: "\(error)")
                return
            }
            dispatch(message)
        }
        // A peer that packs more than 10,000 frames into one read gets the rest on the next event.
        loop.executeLater { [weak self] in
            guard let self, self.isOpenForInput else { return }
            self.processInput()
            self.updateInterest()
        }
    }

    private func dispatch(_ message: WebSocketMessage) {
        guard let handle else { return }
        switch message {
        case .ping(let payload):
            guard case .open = state else { return }
            if handler.answersPings {
                var encoder = WebSocketFrameEncoder.server
                sendData(encoder.encodePong(payload))
            }
            guard case .open = state else { return }
            handler.webSocket(handle, didReceivePing: payload)
        case .pong(let payload):
            guard case .open = state else { return }
            handler.webSocket(handle, didReceivePong: payload)
        case .text(let text):
            guard case .open = state else { return }
            handler.webSocket(handle, didReceiveText: text)
        case .binary(let bytes):
            guard case .open = state else { return }
            guard handler.acceptsBinaryMessages else {
                fail(code: .unsupportedData, reason: "binary messages are not supported")
                return
            }
            handler.webSocket(handle, didReceiveBinary: bytes)
        case .close(let payload):
            peerSentClose(payload)
        }
    }

    /// The peer's close frame: answered (echoing its code) unless the server closed first; then FIN.
    private func peerSentClose(_ payload: WebSocketClosePayload?) {
        let code = payload?.code ?? .noStatusReceived
        let reason = payload?.reason ?? ""
        if case .open = state {
            var encoder = WebSocketFrameEncoder.server
            enqueue(encoder.encodeClose(payload.map { WebSocketClosePayload(code: $0.code) }))
        }
        timer?.cancel()
        timer = nil
        state = .draining
        report(code: code, reason: reason, clean: true)
        finishAfterOutput()
    }

    /// Fails the connection (RFC 6455 §7.1.7): a close frame with `code`, then FIN without waiting
    /// for the peer's close frame.
    func fail(code: WebSocketCloseCode, reason: String) {
        if case .open = state {
            var encoder = WebSocketFrameEncoder.server
            enqueue(encoder.encodeClose(WebSocketClosePayload(code: code, reason: reason)))
        }
        timer?.cancel()
        timer = nil
        state = .draining
        report(code: code, reason: reason, clean: false)
        finishAfterOutput()
    }
}

/// A connection's input decoding state, allocated while input is being decoded.
final class WebSocketInput {
    var decoder: WebSocketFrameDecoder
    var assembler: WebSocketMessageAssembler

    init(maxMessageBytes: Int) {
        decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: maxMessageBytes)
        assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageBytes)
    }

    /// Whether nothing is half received (no bytes of an incomplete frame, no fragments of a message).
    var isIdle: Bool { decoder.bufferedByteCount == 0 && !assembler.isInsideFragmentedMessage }
}

extension WebSocketConnection.State {
    /// Whether received frames are still decoded (after the server's close frame, the peer's is awaited).
    var acceptsFrames: Bool {
        switch self {
        case .open, .closeSent: true
        case .draining, .closed: false
        }
    }
}

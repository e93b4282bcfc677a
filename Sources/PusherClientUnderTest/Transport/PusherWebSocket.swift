// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessWebSocket

/// Opens Pusher WebSockets: TCP (and TLS) through ``ClientConnection``, then the RFC 6455 upgrade
/// with a fresh key whose `Sec-WebSocket-Accept` is verified.
struct PusherWebSocketOpener: PusherSocketOpener {
    let host: String
    let port: Int
    let trust: HTTPTrust?
    /// The request-target, `/app/KEY?client=…&version=…&protocol=…`.
    let target: String
    let timeout: Double

    func open(cancel: CancellationSignal) -> Result<any PusherSocket, PusherTransportError> {
        let deadline = PusherClock.now() + Int64(timeout * 1000)
        let connection: ClientConnection
        do {
            connection = try ClientConnection.connect(host: host, port: port, trust: trust, timeout: timeout, cancel: cancel)
        } catch {
            return .failure(Self.classify(error))
        }
        var generator = SystemRandomNumberGenerator()
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + ((trust == nil && port == 80) || (trust != nil && port == 443) ? "" : ":\(port)")
        let handshake = WebSocketClientHandshake(host: hostHeader, target: target, generator: &generator)
        do {
            try connection.send(handshake.requestHead, timeout: PusherClock.secondsLeft(until: deadline))
            var received: [UInt8] = []
            // Bounded: each round reads ≥ 1 byte or fails, and the head is capped at HTTPResponseHead.defaultMaxLength.
            while true {
                if let (head, consumed) = try WebSocketClientHandshake.readResponseHead(received) {
                    try handshake.verify(head)
                    return .success(PusherWebSocket(connection: connection, leftover: Array(received[consumed...])))
                }
                let chunk = try connection.receive(maxCount: 4096, timeout: PusherClock.secondsLeft(until: deadline))
                if chunk.isEmpty {
                    connection.close()
                    return .failure(PusherTransportError(.handshake, "connection closed before the upgrade answer"))
                }
                received += chunk
            }
        } catch let error as HTTPClientError {
            connection.close()
            return .failure(Self.classify(error))
        } catch let error as WebSocketClientHandshakeError {
            connection.close()
            return .failure(PusherTransportError(.handshake, "upgrade refused: \(error)"))
        } catch {
            connection.close()
            return .failure(PusherTransportError(.handshake, "\(error)"))
        }
    }

    static func classify(_ error: HTTPClientError) -> PusherTransportError {
        switch error {
        case .tlsHandshakeFailed, .tlsUntrustedCertificate: PusherTransportError(.tls, error.description)
        case .timedOut: PusherTransportError(.timedOut, error.description)
        case .connectionLost, .closedBeforeResponse, .malformedHTTP: PusherTransportError(.io, error.description)
        case .nameResolution, .connectFailed, .cancelled, .localFailure: PusherTransportError(.connect, error.description)
        }
    }
}

/// One open client-role WebSocket: masked frames out, reassembled messages in; pings are answered here.
final class PusherWebSocket: PusherSocket {
    private let connection: ClientConnection
    private var decoder = WebSocketFrameDecoder(role: .client)
    private var assembler = WebSocketMessageAssembler()
    private var encoder = WebSocketFrameEncoder.client()
    private var closed = false
    private var sentClose = false
    /// Frame bytes that arrived with the upgrade answer and are not decoded yet.
    private var leftoverPending: Bool
    /// Seconds a single write may take before the connection counts as broken.
    static let writeTimeout: Double = 10

    init(connection: ClientConnection, leftover: [UInt8]) {
        self.connection = connection
        decoder.feed(leftover)
        leftoverPending = !leftover.isEmpty
    }

    var fileDescriptor: Int32 { connection.fileDescriptor }
    var hasBufferedInput: Bool { !closed && (leftoverPending || connection.hasBufferedBytes) }

    func read(socketReadable: Bool) -> [PusherSocketEvent] {
        guard !closed else { return [] }
        leftoverPending = false
        var events: [PusherSocketEvent] = []
        // A failure of the read is reported after the frames already received (a close frame and
        // the end of the stream often arrive together).
        var readFailure: PusherTransportError?
        if socketReadable || connection.hasBufferedBytes {
            do {
                let bytes = try connection.receive(maxCount: 16 * 1024, timeout: 5)
                if bytes.isEmpty {
                    // Design choice: the end of the stream without a close frame is a socket
                    // failure (reconnect at once), not close code 1006 (which would back off).
                    readFailure = PusherTransportError(.endOfStream, "connection closed without a close frame")
                }
                decoder.feed(bytes)
            } catch {
                readFailure = PusherTransportError(.io, error.description)
            }
        }
        // Bounded by the bytes buffered: every frame taken consumes at least two of them.
        while !closed {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                guard let message = try assembler.push(frame) else { continue }
                switch message {
                case .text(let text):
                    events.append(.text(text))
                case .binary:
                    // Pusher sends no binary frames; one counts as traffic and is ignored.
                    events.append(.controlFrame)
                case .ping(let payload):
                    try write(encoder.encodePong(payload))
                    events.append(.controlFrame)
                case .pong:
                    events.append(.controlFrame)
                case .close(let payload):
                    if !sentClose { try? write(encoder.encodeClose(payload.map { WebSocketClosePayload(code: $0.code) })) }
                    abort()
                    events.append(.closed(code: payload.map { Int($0.code.rawValue) }, reason: payload?.reason ?? ""))
                }
            } catch let error as WebSocketProtocolError {
                try? write(encoder.encodeClose(WebSocketClosePayload(code: error.closeCode)))
                abort()
                events.append(.failed(PusherTransportError(.io, "protocol violation by the server: \(error)")))
            } catch {
                abort()
                events.append(.failed(error as? PusherTransportError ?? PusherTransportError(.io, "\(error)")))
            }
        }
        if let readFailure, !closed {
            abort()
            events.append(.failed(readFailure))
        }
        return events
    }

    func send(text: String) throws(PusherTransportError) {
        try write(encoder.encodeText(text))
    }

    func sendClose(code: Int) {
        guard !closed, !sentClose else { return }
        sentClose = true
        try? write(encoder.encodeClose(WebSocketClosePayload(code: WebSocketCloseCode(UInt16(clamping: code)))))
    }

    func abort() {
        guard !closed else { return }
        closed = true
        connection.close()
    }

    private func write(_ bytes: [UInt8]) throws(PusherTransportError) {
        guard !closed else { throw PusherTransportError(.io, "socket already closed") }
        do {
            try connection.send(bytes, timeout: Self.writeTimeout)
        } catch {
            abort()
            throw PusherTransportError(.io, error.description)
        }
    }
}
